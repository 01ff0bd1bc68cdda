import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/platform/db/db.ts';
import { migrations } from '../src/platform/db/migrations.ts';
import { closePool, harness, type Harness } from './harness.ts';
import { FIXTURE_PASSWORD, fixtureFile } from './upgrades/fixtures.ts';

// Upgrades from every earlier schema version: for each version k before today's, a database
// migrated to k gets the rows of that version (test/upgrades/v<k>.sql: riders, rides with their
// summaries, streams and curves, a device, a shared ride, thresholds, a privacy zone, a
// routebook), is migrated to today's schema and read through the API. And a migration that
// fails part way leaves schema and version as they were.

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'upgrades');

/** One database kept between opens (a PGlite folder, a PostgreSQL database). */
interface Storage {
  /** Opens it, migrated to the first `m` migrations or by another list (all by default). */
  open(m?: number | readonly string[]): Promise<Database>;
}

export interface UpgradeTarget {
  readonly kind: 'pglite' | 'postgres';
  /** A new, empty database. */
  /**
   * A new, empty database. `kept`: each open must find on disk what the last one left (the
   * failed migration's test); otherwise the embedded database may pass dumps in memory.
   */
  storage(options?: { kept?: boolean }): Promise<Storage>;
  close(): Promise<void>;
}

/** Runs a fixture: one statement a line (generate.ts writes them so). */
async function load(db: Database, version: number): Promise<void> {
  const file = join(fixtures, fixtureFile(version));
  if (!existsSync(file))
    throw new Error(
      `${file} is missing: run \`node --conditions=@xoss/source test/upgrades/generate.ts\` in apps/api after appending a migration`,
    );
  for (const line of readFileSync(file, 'utf8').split('\n'))
    if (line.trim() && !line.startsWith('--')) await db.query(line.replace(/;$/, ''));
}

export function defineUpgradesSuite(makeTarget: () => Promise<UpgradeTarget>) {
  let target: UpgradeTarget;
  beforeAll(async () => {
    target = await makeTarget();
  });
  afterAll(async () => {
    await closePool();
    await target?.close();
  });

  /** A harness whose database is `db` (the upgraded one). */
  const serve = (db: Database): Promise<Harness> =>
    harness({ kind: target.kind, create: () => Promise.resolve(db), close: async () => {} });

  describe('upgrades from every earlier schema version', () => {
    const versions = Array.from({ length: migrations.length - 1 }, (_, i) => i + 1);
    it.each(versions)(
      'reads the rows of version %i through the API after migrating to today',
      async (version) => {
        const storage = await target.storage();
        const old = await storage.open(version);
        const [at] = await old.query<{ v: number }>(
          'SELECT max(version)::int AS v FROM schema_migrations',
        );
        expect(at!.v).toBe(version);
        await load(old, version);
        const expected = await old.query<{ id: number; name: string; share_id: string | null }>(
          'SELECT id, name, share_id FROM workouts ORDER BY id',
        );
        expect(expected.length).toBeGreaterThanOrEqual(2);
        await old.close();

        const h = await serve(await storage.open());
        try {
          const [now] = await h.db.query<{ v: number }>(
            'SELECT max(version)::int AS v FROM schema_migrations',
          );
          expect(now!.v).toBe(migrations.length);
          const login = await h.server.inject({
            method: 'POST',
            url: '/api/v1/jwt-token/',
            payload: { email: 'upgrade-one@example.com', password: FIXTURE_PASSWORD },
          });
          expect(login.statusCode, login.body).toBe(200);
          const { access } = login.json<{ data: { access: string } }>().data;
          const auth = { authorization: `Bearer ${access}` };
          const [rider] = await h.db.query<{ id: number }>(
            "SELECT id FROM users WHERE email = 'upgrade-one@example.com'",
          );
          const own = (
            await h.db.query<{ id: number }>(
              'SELECT id FROM workouts WHERE user_id = $1 ORDER BY id',
              [rider!.id],
            )
          ).map((row) => row.id);
          expect(own.length).toBeGreaterThan(0);

          const list = await h.server.inject({ url: '/api/v2/workouts/', headers: auth });
          expect(list.statusCode, list.body).toBe(200);
          const listed = list.json<{ data: { count: number; results: { id: number }[] } }>().data;
          expect(listed.results.map((ride) => ride.id).sort()).toEqual(own);
          const ride = expected.find((row) => row.id === own[0])!;
          const detail = await h.server.inject({
            url: `/api/v2/workouts/${ride.id}/`,
            headers: auth,
          });
          expect(detail.statusCode, detail.body).toBe(200);
          expect(detail.json<{ data: { name: string } }>().data.name).toBe(ride.name);
          const streams = await h.server.inject({
            url: `/api/v2/workouts/${ride.id}/streams/`,
            headers: auth,
          });
          expect(streams.statusCode, streams.body).toBe(200);
          const time = streams.json<{ data: { streams: { time: number[] } } }>().data.streams.time;
          expect(time.length).toBeGreaterThan(10);
          if (ride.share_id) {
            const shared = await h.server.inject({
              url: `/api/v2/share/workouts/${ride.share_id}/`,
            });
            expect(shared.statusCode, shared.body).toBe(200);
          }
          const athlete = await h.server.inject({
            url: `/api/v2/athlete/${rider!.id}/`,
            headers: auth,
          });
          expect(athlete.statusCode, athlete.body).toBe(200);
          expect(athlete.body).toContain('"ftp":245');
          const devices = await h.server.inject({ url: '/api/v2/devices/', headers: auth });
          expect(devices.statusCode, devices.body).toBe(200);
          expect(devices.body).toContain('NAVP-1001');
          const routebooks = await h.server.inject({ url: '/api/v2/routebooks/', headers: auth });
          expect(routebooks.statusCode, routebooks.body).toBe(200);
          expect(routebooks.body).toContain('Fixture loop');
        } finally {
          await h.close();
        }
      },
    );

    it('leaves schema and version as they were when a migration fails part way', async () => {
      const storage = await target.storage({ kept: true });
      const current = await storage.open();
      const schema = async (db: Database) =>
        db.query(
          `SELECT table_name, column_name FROM information_schema.columns
            WHERE table_schema = 'public' ORDER BY 1, 2`,
        );
      const before = await schema(current);
      await current.close();
      const failing = [
        ...migrations,
        `CREATE TABLE half_done (id integer PRIMARY KEY);
ALTER TABLE users ADD COLUMN half_done text;
INSERT INTO half_done VALUES (1);
SELECT 1 / 0`,
      ];
      await expect(storage.open(failing)).rejects.toThrow(/division by zero/);
      const after = await storage.open();
      try {
        expect(await schema(after)).toEqual(before);
        const [at] = await after.query<{ v: number }>(
          'SELECT max(version)::int AS v FROM schema_migrations',
        );
        expect(at!.v).toBe(migrations.length);
      } finally {
        await after.close();
      }
    });
  });
}
