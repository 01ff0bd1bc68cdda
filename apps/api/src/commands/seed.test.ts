import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../platform/blobStore.ts';
import { configFromEnv } from '../platform/config.ts';
import { openDatabase, type Database } from '../platform/db/db.ts';
import { DEMO_USER, seedDemo } from './seed.ts';
import { buildServer } from '../server.ts';
import { AnalysisPool } from '../imports/pool.ts';

// `pnpm dev` restarts the API when a file changes, so the first start's seed can be cut
// short: the next start must end with the whole demo, not keep a part of it.

describe('the demo seed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'xoss-seed-'));
  const pool = new AnalysisPool(1);
  const local = new LocalBlobStore(join(dir, 'files'));
  let failMaps = true;
  // Stands in for a stop halfway: the map packages, written after rides and routebooks, fail.
  const blobs = Object.assign(Object.create(local) as LocalBlobStore, {
    put: (key: string, bytes: Uint8Array) =>
      failMaps && key.startsWith('maps/')
        ? Promise.reject(new Error('stopped'))
        : local.put(key, bytes),
  });
  let db: Database;
  let server: FastifyInstance;

  beforeAll(async () => {
    db = await openDatabase();
    server = await buildServer({ db, blobs, config: configFromEnv({}), pool });
  });

  afterAll(async () => {
    await server.close();
    await db.close();
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = async (sql: string) => Number((await db.query<{ n: number | string }>(sql))[0]!.n);
  const demoRider = () =>
    db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [DEMO_USER.email]);

  it('leaves no demo rider when it is cut short', async () => {
    await expect(seedDemo(server, db, blobs, { workouts: 2 })).rejects.toThrow('stopped');
    expect(await demoRider()).toEqual([]);
    expect(await count('SELECT count(*) AS n FROM workouts')).toBe(2);
  });

  it('starts over on the next start and ends with the whole demo, nothing twice', async () => {
    failMaps = false;
    await seedDemo(server, db, blobs, { workouts: 2 });
    const [rider] = await demoRider();
    expect(rider).toBeDefined();
    expect(await count('SELECT count(*) AS n FROM users')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM workouts')).toBe(2);
    expect(await count(`SELECT count(*) AS n FROM workouts WHERE user_id = ${rider!.id}`)).toBe(2);
    expect(await count('SELECT count(*) AS n FROM map_regions')).toBe(7);
    expect(await count('SELECT count(*) AS n FROM posts')).toBe(7);
    expect(await count('SELECT count(*) AS n FROM routebooks')).toBe(3);
    const login = await server.inject({
      method: 'POST',
      url: '/api/v1/jwt-token/',
      payload: { email: DEMO_USER.email, password: DEMO_USER.password },
    });
    expect(login.statusCode).toBe(200);
  });

  it('does nothing once the demo is complete', async () => {
    await seedDemo(server, db, blobs, { workouts: 2 });
    expect(await count('SELECT count(*) AS n FROM users')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM workouts')).toBe(2);
  });
});
