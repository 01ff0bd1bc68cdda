import { describe } from 'vitest';
import { postgresFactory } from './harness.ts';
import { startPostgres } from './postgres.ts';
import { defineCorrectionsSuite } from './correctionsSuite.ts';

// The corrections suite against a real PostgreSQL server (see api.postgres.test.ts).
describe('corrections on PostgreSQL', () => {
  let stop = () => {};
  defineCorrectionsSuite(async () => {
    const server = await startPostgres();
    stop = server.stop;
    const factory = postgresFactory(server.url);
    return { ...factory, close: () => Promise.resolve(stop()) };
  });
});
