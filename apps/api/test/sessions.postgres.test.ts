import { describe } from 'vitest';
import { defineSessionsSuite } from './sessionsSuite.ts';
import { postgresFactory } from './harness.ts';
import { startPostgres } from './postgres.ts';

// The sessions suite against a real PostgreSQL server (see api.postgres.test.ts).
describe('sessions on PostgreSQL', () => {
  let stop = () => {};
  defineSessionsSuite(async () => {
    const server = await startPostgres();
    stop = server.stop;
    const factory = postgresFactory(server.url);
    return { ...factory, close: () => Promise.resolve(stop()) };
  });
});
