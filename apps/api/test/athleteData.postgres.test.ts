import { describe } from 'vitest';
import { defineAthleteDataSuite } from './athleteDataSuite.ts';
import { postgresFactory } from './harness.ts';
import { startPostgres } from './postgres.ts';

// The export and account deletion against a real PostgreSQL server (see api.postgres.test.ts).
describe('a rider’s own data on PostgreSQL', () => {
  let stop = () => {};
  defineAthleteDataSuite(async () => {
    const server = await startPostgres();
    stop = server.stop;
    const factory = postgresFactory(server.url);
    return { ...factory, close: () => Promise.resolve(stop()) };
  });
});
