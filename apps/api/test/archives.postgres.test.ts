import { describe } from 'vitest';
import { defineArchivesSuite } from './archivesSuite.ts';
import { postgresFactory } from './harness.ts';
import { startPostgres } from './postgres.ts';

// Archive imports against a real PostgreSQL server (see api.postgres.test.ts).
describe('export archives on PostgreSQL', () => {
  let stop = () => {};
  defineArchivesSuite(async () => {
    const server = await startPostgres();
    stop = server.stop;
    const factory = postgresFactory(server.url);
    return { ...factory, close: () => Promise.resolve(stop()) };
  });
});
