import { describe } from 'vitest';
import { defineFairShareSuite } from './fairShareSuite.ts';
import { postgresFactory } from './harness.ts';
import { startPostgres } from './postgres.ts';

// The fair-share suite against a real PostgreSQL server (see api.postgres.test.ts).
describe('fair share on PostgreSQL', () => {
  let stop = () => {};
  defineFairShareSuite('postgres', async () => {
    const server = await startPostgres();
    stop = server.stop;
    const factory = postgresFactory(server.url);
    return { ...factory, close: () => Promise.resolve(stop()) };
  });
});
