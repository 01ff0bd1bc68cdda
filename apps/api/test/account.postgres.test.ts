import { describe } from 'vitest';
import { defineAccountSuite } from './accountSuite.ts';
import { postgresFactory } from './harness.ts';
import { startPostgres } from './postgres.ts';

// The account suite against a real PostgreSQL server (see api.postgres.test.ts).
describe('passwords and sessions on PostgreSQL', () => {
  let stop = () => {};
  defineAccountSuite(async () => {
    const server = await startPostgres();
    stop = server.stop;
    const factory = postgresFactory(server.url);
    return { ...factory, close: () => Promise.resolve(stop()) };
  });
});
