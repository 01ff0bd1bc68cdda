import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalBlobStore, type BlobStore } from '../platform/blobStore.ts';
import { openDatabase, type Database } from '../platform/db/db.ts';
import {
  StreamsCache,
  forgetStreams,
  packCurve,
  packStreams,
  readCurves,
  readStreams,
  unpackStreams,
} from './streams.ts';

const column = (length: number, start = 0) => Float64Array.from({ length }, (_, i) => start + i);

/** A rider called `name` and an empty ride of theirs: the ride's id. */
async function rideOf(db: Database, name: string): Promise<number> {
  const [user] = await db.query<{ id: number }>(
    "INSERT INTO users (uuid, email, username, password_hash) VALUES (gen_random_uuid(), $1, $2, 'x') RETURNING id",
    [`${name}@x.co`, name],
  );
  const [ride] = await db.query<{ id: number }>(
    `INSERT INTO workouts (user_id, name, sport_type, start_time, indoor, distance_m, moving_time_s, total_time_s,
       timer_time_s, summary, device_summary, file_key, file_bytes)
     VALUES ($1, 'r', 2, now(), false, 0, 0, 0, 0, '{}', '{}', $2, 1) RETURNING id`,
    [user!.id, `workouts/${name}.fit`],
  );
  return ride!.id;
}

describe('streams storage', () => {
  it('packs and unpacks columns exactly', () => {
    const streams = { time: column(5), speed: Float64Array.of(1.5, Number.NaN, 3, 4, 5) };
    const back = unpackStreams(packStreams(streams));
    expect(Object.keys(back)).toEqual(['time', 'speed']);
    expect([...back.time!]).toEqual([0, 1, 2, 3, 4]);
    expect(back.speed![1]).toBeNaN();
  });

  it('keeps the most recently read streams within its byte budget', () => {
    const cache = new StreamsCache(3 * 800); // three workouts of 100 samples
    for (const id of [1, 2, 3]) cache.set(id, { time: column(100, id) });
    expect(cache.size).toBe(3);
    cache.get(1); // 1 is now the most recent; 2 the oldest
    cache.set(4, { time: column(100, 4) });
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)?.time?.[0]).toBe(1);
    expect(cache.get(4)?.time?.[0]).toBe(4);
    // Replacing an entry does not count it twice; one larger than the budget is not kept.
    cache.set(4, { time: column(100, 40) });
    expect(cache.size).toBe(3);
    cache.set(5, { time: column(1000) });
    expect(cache.get(5)).toBeUndefined();
    expect(cache.size).toBe(3);
    cache.delete(1);
    expect(cache.get(1)).toBeUndefined();
  });

  it('reads through the cache per database, and forgets a deleted workout', async () => {
    // Two databases holding a workout 1 each, counting the reads that reach them.
    const database = (start: number) => {
      const stored = new Map([[1, packStreams({ time: column(3, start) })]]);
      return {
        reads: 0,
        stored,
        query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
          // Only reads of the data count; the version check is one small row.
          if (sql.includes('data')) this.reads++;
          const data = stored.get(params[0] as number);
          return Promise.resolve((data ? [{ data, stamp: '1' }] : []) as Row[]);
        },
      };
    };
    // Rows that hold their streams: the file store is never asked.
    const a = { db: database(10), blobs: {} as BlobStore };
    const b = { db: database(20), blobs: {} as BlobStore };
    expect((await readStreams(a, 1))?.time?.[0]).toBe(10);
    expect((await readStreams(b, 1))?.time?.[0]).toBe(20);
    expect((await readStreams(a, 1))?.time?.[0]).toBe(10);
    expect(a.db.reads).toBe(1);
    expect(await readStreams(a, 2)).toBeUndefined();
    // The deletion forgets it: the next read goes to the database, which no longer has it.
    a.db.stored.delete(1);
    forgetStreams(a.db, 1);
    expect(await readStreams(a, 1)).toBeUndefined();
    expect(a.db.reads).toBe(3);
  });

  it('reads a ride once when many ask for it at once, and all get the same streams', async () => {
    let reads = 0;
    const db = {
      query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
        if (sql.includes('data')) reads++;
        const data = params[0] === 1 ? packStreams({ time: column(3, 5) }) : undefined;
        return Promise.resolve((data ? [{ data, stamp: '1' }] : []) as Row[]);
      },
    };
    const source = { db, blobs: {} as BlobStore };
    const all = await Promise.all(Array.from({ length: 50 }, () => readStreams(source, 1)));
    expect(reads).toBe(1);
    expect(new Set(all).size).toBe(1);
    expect(all[0]?.time?.[0]).toBe(5);
    // Done: the next read after the cache is dropped goes to the database again.
    forgetStreams(db, 1);
    await readStreams(source, 1);
    expect(reads).toBe(2);
  });

  it("keeps a ride's curves in memory, and reads them again once the ride is analysed again or deleted", async () => {
    const db = await openDatabase();
    try {
      // Two processes on one database: each wrapper has a cache of its own.
      const one = { query: db.query.bind(db) };
      const two = { query: db.query.bind(db) };
      const id = await rideOf(db, 'k');
      expect(await readCurves(one, id)).toBeUndefined();
      await db.query('INSERT INTO workout_curves (workout_id, power) VALUES ($1, $2)', [
        id,
        packCurve(Float64Array.of(300, 250)),
      ]);
      const first = await readCurves(one, id);
      expect([...first!.power!]).toEqual([300, 250]);
      expect(first!.extra).toBe(false);
      // Read again: the same arrays, from memory.
      expect((await readCurves(one, id))!.power).toBe(first!.power);
      // Process two writes the heart-rate curve (the background analysis): one reads it.
      await db.query(
        'UPDATE workout_curves SET heart_rate = $2, extra_at = now() WHERE workout_id = $1',
        [id, packCurve(Float64Array.of(170, 165))],
      );
      const second = await readCurves(one, id);
      expect(second!.extra).toBe(true);
      expect([...second!.heart_rate!]).toEqual([170, 165]);
      expect(second!.pace).toBeNull();
      // A correction analyses the ride again: its new power curve, not the kept one.
      await db.query('UPDATE workout_curves SET power = $2 WHERE workout_id = $1', [
        id,
        packCurve(Float64Array.of(280, 240)),
      ]);
      expect([...(await readCurves(one, id))!.power!]).toEqual([280, 240]);
      expect([...(await readCurves(two, id))!.power!]).toEqual([280, 240]);
      await db.query('DELETE FROM workouts WHERE id = $1', [id]);
      expect(await readCurves(one, id)).toBeUndefined();
    } finally {
      await db.close();
    }
  });

  it('never serves a ride deleted or rewritten by another process from its memory', async () => {
    const db = await openDatabase();
    try {
      // Two processes on one database: each wrapper has a cache of its own.
      const blobs = new LocalBlobStore(mkdtempSync(join(tmpdir(), 'xoss-streams-')));
      const one = { db: { query: db.query.bind(db) }, blobs };
      const two = { db: { query: db.query.bind(db) }, blobs };
      const id = await rideOf(db, 'c');
      await db.query('INSERT INTO workout_streams (workout_id, length, data) VALUES ($1, 3, $2)', [
        id,
        packStreams({ time: column(3, 1) }),
      ]);
      expect((await readStreams(one, id))?.time?.[0]).toBe(1);
      expect((await readStreams(two, id))?.time?.[0]).toBe(1);
      // Process two rewrites them (a re-analysis): process one reads the new ones.
      await db.query('UPDATE workout_streams SET data = $2 WHERE workout_id = $1', [
        id,
        packStreams({ time: column(3, 7) }),
      ]);
      expect((await readStreams(one, id))?.time?.[0]).toBe(7);
      // Moved to the file store (as rides are stored now): read from there.
      await blobs.put('streams/r.bin', packStreams({ time: column(3, 9) }));
      await db.query(
        "UPDATE workout_streams SET data = NULL, blob_key = 'streams/r.bin', bytes = 24 WHERE workout_id = $1",
        [id],
      );
      expect((await readStreams(one, id))?.time?.[0]).toBe(9);
      // Process two deletes the ride: process one no longer has its streams.
      await db.query('DELETE FROM workouts WHERE id = $1', [id]);
      forgetStreams(two.db, id);
      expect(await readStreams(one, id)).toBeUndefined();
    } finally {
      await db.close();
    }
  });
});
