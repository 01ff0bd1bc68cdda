import { describe } from 'vitest';
import { defineAnalysisSuite } from './analysisSuite.ts';
import { postgresFactory, suiteHarnesses } from './harness.ts';
import { startPostgres } from './postgres.ts';

// The analysis suite against a real PostgreSQL server (see api.postgres.test.ts).
describe('ride and training analysis on PostgreSQL', () => {
  let stop = () => {};
  defineAnalysisSuite(
    suiteHarnesses(async () => {
      const server = await startPostgres();
      stop = server.stop;
      const factory = postgresFactory(server.url);
      return { ...factory, close: () => Promise.resolve(stop()) };
    }),
  );
});
