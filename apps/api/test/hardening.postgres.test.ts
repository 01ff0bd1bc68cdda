import { describe } from 'vitest';
import { defineHardeningSuite } from './hardeningSuite.ts';
import { postgresFactory } from './harness.ts';
import { startPostgres } from './postgres.ts';

// The hardening suite against a real PostgreSQL server (see api.postgres.test.ts).
describe('hardening on PostgreSQL', () => {
  let stop = () => {};
  defineHardeningSuite(async () => {
    const server = await startPostgres();
    stop = server.stop;
    const factory = postgresFactory(server.url);
    return { ...factory, close: () => Promise.resolve(stop()) };
  });
});
