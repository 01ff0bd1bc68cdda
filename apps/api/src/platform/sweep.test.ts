import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from './blobStore.ts';
import { openDatabase, type Database } from './db/db.ts';
import { sweepOrphanFiles } from './sweep.ts';

describe('sweepOrphanFiles', () => {
  let db: Database;
  let dir: string;
  beforeAll(async () => {
    db = await openDatabase();
    dir = mkdtempSync(join(tmpdir(), 'xoss-sweep-'));
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes files no row owns, keeps owned ones and, beside other replicas, recent ones', async () => {
    const blobs = new LocalBlobStore(join(dir, 'files'));
    const [user] = await db.query<{ id: number }>(
      `INSERT INTO users (uuid, email, username, password_hash) VALUES (gen_random_uuid(), 'a@b.co', 'a', 'x') RETURNING id`,
    );
    await db.query(
      `INSERT INTO routebooks (user_id, title, description, distance_m, elevation_gain_m, elevation_loss_m, points, has_time, bounds, preview, file_key, file_name, file_bytes)
       VALUES ($1, 'Loop', '', 0, 0, 0, 2, false, '{}', '[]', 'routebooks/owned.gpx', 'loop.gpx', 3)`,
      [user!.id],
    );
    for (const key of [
      'routebooks/owned.gpx',
      'routebooks/orphan.gpx',
      'workouts/orphan.fit',
      'workouts/fresh.fit',
    ])
      await blobs.put(key, new Uint8Array([1, 2, 3]));
    const old = (Date.now() - 2 * 3_600_000) / 1000;
    for (const key of ['routebooks/orphan.gpx', 'workouts/orphan.fit'])
      utimesSync(join(dir, 'files', key), old, old);

    expect((await sweepOrphanFiles(db, blobs, { graceMs: 3_600_000 })).sort()).toEqual([
      'routebooks/orphan.gpx',
      'workouts/orphan.fit',
    ]);
    expect(await blobs.list('workouts')).toEqual(['workouts/fresh.fit']);
    expect(await sweepOrphanFiles(db, blobs, { graceMs: 0 })).toEqual(['workouts/fresh.fit']);
    expect(await blobs.list('routebooks')).toEqual(['routebooks/owned.gpx']);
  });

  it("removes a crash's temporary files, but beside other replicas not one being written", async () => {
    const root = join(dir, 'temporary');
    const blobs = new LocalBlobStore(root);
    mkdirSync(join(root, '.tmp'), { recursive: true });
    for (const name of ['crashed.part', 'writing.part'])
      writeFileSync(join(root, '.tmp', name), 'half a file');
    const old = (Date.now() - 2 * 3_600_000) / 1000;
    utimesSync(join(root, '.tmp', 'crashed.part'), old, old);

    // Another process is still writing `writing.part`: it must still be there to be renamed.
    expect(await blobs.sweepTemporary({ graceMs: 3_600_000 })).toEqual(['crashed.part']);
    expect(await blobs.list('.tmp')).toEqual(['.tmp/writing.part']);
    // Alone, every temporary file is a crash's.
    expect(await blobs.sweepTemporary({ graceMs: 0 })).toEqual(['writing.part']);
    expect(await blobs.list('.tmp')).toEqual([]);
    expect(await new LocalBlobStore(join(dir, 'none')).sweepTemporary({ graceMs: 0 })).toEqual([]);
    // A folder there is not ours beside other processes (its time says nothing of its
    // files); alone it goes with the rest.
    mkdirSync(join(root, '.tmp', 'folder'));
    utimesSync(join(root, '.tmp', 'folder'), old, old);
    expect(await blobs.sweepTemporary({ graceMs: 3_600_000 })).toEqual([]);
    expect(await blobs.sweepTemporary({ graceMs: 0 })).toEqual(['folder']);
  });
});
