import { describe } from 'vitest';
import { defineApiSuite } from './apiSuite.ts';
import { postgresFactory } from './harness.ts';
import { startPostgres } from './postgres.ts';

// The same suite against a real PostgreSQL server from Debian's packages (.ci/run installs
// them). Without them the suite fails with the install command, never silently skips.
describe('API on PostgreSQL', () => {
  let stop = () => {};
  defineApiSuite(async () => {
    const server = await startPostgres();
    stop = server.stop;
    const factory = postgresFactory(server.url);
    return { ...factory, close: () => Promise.resolve(stop()) };
  });
});
