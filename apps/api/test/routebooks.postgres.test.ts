import { describe } from 'vitest';
import { postgresFactory } from './harness.ts';
import { startPostgres } from './postgres.ts';
import { defineRoutebooksSuite } from './routebooksSuite.ts';

// The routebooks suite against a real PostgreSQL server (see api.postgres.test.ts).
describe('routebooks on PostgreSQL', () => {
  let stop = () => {};
  defineRoutebooksSuite(async () => {
    const server = await startPostgres();
    stop = server.stop;
    const factory = postgresFactory(server.url);
    return { ...factory, close: () => Promise.resolve(stop()) };
  });
});
