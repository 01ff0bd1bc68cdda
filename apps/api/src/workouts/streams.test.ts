import { describe, expect, it } from 'vitest';
import { StreamsCache, forgetStreams, packStreams, readStreams, unpackStreams } from './streams.ts';

const column = (length: number, start = 0) => Float64Array.from({ length }, (_, i) => start + i);

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
        query<Row>(_sql: string, params: readonly unknown[] = []): Promise<Row[]> {
          this.reads++;
          const data = stored.get(params[0] as number);
          return Promise.resolve((data ? [{ data }] : []) as Row[]);
        },
      };
    };
    const a = database(10);
    const b = database(20);
    expect((await readStreams(a, 1))?.time?.[0]).toBe(10);
    expect((await readStreams(b, 1))?.time?.[0]).toBe(20);
    expect((await readStreams(a, 1))?.time?.[0]).toBe(10);
    expect(a.reads).toBe(1);
    expect(await readStreams(a, 2)).toBeUndefined();
    // The deletion forgets it: the next read goes to the database, which no longer has it.
    a.stored.delete(1);
    forgetStreams(a, 1);
    expect(await readStreams(a, 1)).toBeUndefined();
    expect(a.reads).toBe(3);
  });
});
