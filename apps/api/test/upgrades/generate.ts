// Writes the fixtures of the upgrade test (upgrades.test.ts): for every earlier schema version
// k, `v<k>.sql` holds rows valid at version k (only the tables and columns that existed then).
// Run after appending a migration (the test names the missing file):
//   node --conditions=@xoss/source test/upgrades/generate.ts   (in apps/api; --all: every file)
//
// The rows come from a real product: two riders, a ride each imported through the API (so
// the summary, streams and curves are what the code writes), a device, a shared ride, FTP and
// max heart rate settings, a privacy zone and a routebook. Streams are written inline
// (`workout_streams.data`), as every version before 15 kept them and later ones still read.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalBlobStore } from '../../src/platform/blobStore.ts';
import { configFromEnv } from '../../src/platform/config.ts';
import { createUser } from '../../src/commands/createUser.ts';
import { openDatabase, type Database } from '../../src/platform/db/db.ts';
import { migrations } from '../../src/platform/db/migrations.ts';
import { demoGpx } from '../../src/commands/seed.ts';
import { buildServer } from '../../src/server.ts';
import { multipartBody } from '../../src/testing/multipart.ts';
import { AnalysisPool } from '../../src/imports/pool.ts';
import { fitFile } from '../harness.ts';
import { FIXTURE_PASSWORD, fixtureFile } from './fixtures.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** The tables the fixtures fill, parents before children. */
const FIXTURE_TABLES = [
  'users',
  'athlete_thresholds',
  'workouts',
  'workout_streams',
  'workout_curves',
  'devices',
  'routebooks',
  'privacy_zones',
] as const;

/** The rows today's code writes for the fixture's riders. */
async function sourceRows(): Promise<Map<string, Record<string, unknown>[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'xoss-upgrade-fixture-'));
  const db = await openDatabase();
  const blobs = new LocalBlobStore(join(dir, 'files'));
  const pool = new AnalysisPool(1);
  const server = await buildServer({
    db,
    blobs,
    pool,
    config: { ...configFromEnv({}), jwtSecret: 'fixture-secret-0123456789abcdef' },
    // A fixed clock: the same fixtures on every run.
    now: () => Date.UTC(2026, 0, 15, 12),
  });
  try {
    const riders = [];
    for (const [email, name] of [
      ['upgrade-one@example.com', 'Upgrade One'],
      ['upgrade-two@example.com', 'Upgrade Two'],
    ] as const) {
      await createUser(db, email, name, FIXTURE_PASSWORD);
      const login = await server.inject({
        method: 'POST',
        url: '/api/v1/jwt-token/',
        payload: { email, password: FIXTURE_PASSWORD },
      });
      riders.push(login.json<{ data: { access: string } }>().data.access);
    }
    const call = async (
      access: string,
      method: 'POST' | 'PATCH',
      url: string,
      payload: object,
      status: number,
    ) => {
      const reply = await server.inject({
        method,
        url,
        headers: { authorization: `Bearer ${access}` },
        payload,
      });
      if (reply.statusCode !== status) throw new Error(`${method} ${url}: ${reply.body}`);
      return reply.json<{ data: Record<string, unknown> }>().data;
    };
    const upload = async (access: string, url: string, file: object, fields = {}) => {
      const { body, contentType } = multipartBody(fields, { name: 'file', ...file } as never);
      const reply = await server.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${access}`, 'content-type': contentType },
        payload: body,
      });
      if (reply.statusCode !== 201) throw new Error(`${url}: ${reply.body}`);
      return reply.json<{ data: { id: number } }>().data;
    };
    const ride = await upload(riders[0]!, '/api/v2/workouts/', {
      filename: 'morning.fit',
      bytes: fitFile(60, 7, 1_767_000_000),
    });
    await upload(riders[1]!, '/api/v2/workouts/', {
      filename: 'evening.fit',
      bytes: fitFile(45, 8, 1_767_100_000, false, 230),
    });
    await call(riders[0]!, 'PATCH', `/api/v2/workouts/${ride.id}/`, { shared: true }, 200);
    await call(riders[0]!, 'POST', '/api/v2/devices/', { serial: 'NAVP-1001', model: 'NAV+' }, 201);
    const [one] = await db.query<{ id: number }>('SELECT id FROM users ORDER BY id LIMIT 1');
    await call(
      riders[0]!,
      'PATCH',
      `/api/v2/athlete/${one!.id}/`,
      { settings: { ftp: 245, max_hr: 186 } },
      200,
    );
    await call(
      riders[0]!,
      'POST',
      '/api/v2/privacy-zones/',
      { name: 'Home', latitude: 48.1, longitude: 11.5, radius_m: 300 },
      201,
    );
    await upload(
      riders[0]!,
      '/api/v2/routebooks/',
      { filename: 'loop.gpx', bytes: new TextEncoder().encode(demoGpx(2, 600, false)) },
      { title: 'Fixture loop' },
    );
    const rows = new Map<string, Record<string, unknown>[]>();
    for (const table of FIXTURE_TABLES)
      rows.set(table, await db.query(`SELECT * FROM ${table} ORDER BY 1, 2`));
    // Streams inline, as before version 15.
    for (const row of rows.get('workout_streams')!) {
      if (row.blob_key) row.data = await blobs.get(row.blob_key as string);
      row.blob_key = null;
      row.bytes = null;
    }
    return rows;
  } finally {
    await server.close();
    await db.close();
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A value as SQL text of its column's type; one line always (newlines escaped). */
function literal(value: unknown, type: string): string {
  if (value === null || value === undefined) return 'NULL';
  const text = (raw: string) =>
    `E'${raw.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
  if (type === 'bytea') return `'\\x${Buffer.from(value as Uint8Array).toString('hex')}'::bytea`;
  if (type === 'jsonb' || type === 'json') return `${text(JSON.stringify(value))}::jsonb`;
  if (value instanceof Date) return `'${value.toISOString()}'::${type}`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') throw new Error(`No SQL text for ${typeof value} (${type})`);
  return `${text(value)}::${type === 'USER-DEFINED' ? 'text' : type}`;
}

/** The columns each table has at this database's schema version. */
async function columnsOf(db: Database): Promise<Map<string, Map<string, string>>> {
  const rows = await db.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns
      WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  const out = new Map<string, Map<string, string>>();
  for (const row of rows) {
    if (!out.has(row.table_name)) out.set(row.table_name, new Map());
    out.get(row.table_name)!.set(row.column_name, row.data_type);
  }
  return out;
}

// Existing fixtures stay as they are (each version's rows are fixed once written); `--all`
// writes every one again.
const all = process.argv.includes('--all');
const missing = Array.from({ length: migrations.length - 1 }, (_, i) => i + 1).filter(
  (version) => all || !existsSync(join(here, fixtureFile(version))),
);
const source = await sourceRows();
for (const version of missing) {
  const db = await openDatabase({ migrations: version });
  const columns = await columnsOf(db);
  await db.close();
  const lines = [
    `-- Rows valid at schema version ${version} (written by generate.ts; do not edit by hand).`,
  ];
  for (const table of FIXTURE_TABLES) {
    const existing = columns.get(table);
    if (!existing) continue;
    for (const row of source.get(table)!) {
      const names = [...existing.keys()].filter((name) => name in row);
      // A column the code writes today that this version lacks is left out; one this
      // version requires and today's rows lack would be a dropped column (none so far).
      lines.push(
        `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names
          .map((name) => literal(row[name], existing.get(name)!))
          .join(', ')});`,
      );
    }
    if (existing.has('id') && existing.get('id') === 'integer')
      lines.push(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}));`,
      );
  }
  writeFileSync(join(here, fixtureFile(version)), `${lines.join('\n')}\n`);
}
console.log(`wrote ${missing.map(fixtureFile).join(', ') || 'nothing'} in ${here}`);
