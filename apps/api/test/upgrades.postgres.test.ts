import pg from 'pg';
import { describe } from 'vitest';
import { openDatabase } from '../src/platform/db/db.ts';
import { startPostgres } from './postgres.ts';
import { defineUpgradesSuite } from './upgradesSuite.ts';

// The upgrade suite against a real PostgreSQL server (Debian's binaries; see postgres.ts).
describe('upgrades on PostgreSQL', () => {
  defineUpgradesSuite(async () => {
    const server = await startPostgres();
    let next = 0;
    return {
      kind: 'postgres' as const,
      async storage() {
        const name = `upgrade_${process.pid}_${next++}`;
        const admin = new pg.Client({ connectionString: server.url });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}`);
        await admin.end();
        const url = server.url.replace(/\/[^/]*$/, `/${name}`);
        return {
          open: (m?: number | readonly string[]) =>
            openDatabase({ databaseUrl: url, ...(m === undefined ? {} : { migrations: m }) }),
        };
      },
      close: () => Promise.resolve(server.stop()),
    };
  });
});
