import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { simulateRide, type RideStreams } from '@xoss/workout-stats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from '../src/testing/multipart.ts';
import { AnalysisPool } from '../src/imports/pool.ts';
import {
  bearer,
  closePool,
  fitFile,
  harness,
  pgliteFactory,
  type DatabaseFactory,
  type Harness,
} from './harness.ts';

/**
 * A legal FIT file of one-second records whose power is noise: the mean-max curve's
 * pruning fails on it, so the exact curve costs n² / 2 window sums (seconds at 100,000).
 */
function noisyFit(seconds: number, seed = 7): Uint8Array {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const streams = {
    time: Float64Array.from({ length: seconds }, (_, i) => i),
    power: Float64Array.from({ length: seconds }, () => Math.floor(random() * 100)),
    speed: Float64Array.from({ length: seconds }, () => 6 + random() * 4),
    distance: Float64Array.from({ length: seconds }, (_, i) => i * 8),
  } as unknown as RideStreams;
  return encodeFit(activityFromStreams(streams, { startTime: 1_790_000_000 + seed, sport: 2 }));
}

/**
 * A legal FIT file of a short ride with many laps: each lap decodes to a message object, so
 * reading it builds a large JS heap in the worker.
 */
function manyLapsFit(laps: number): Uint8Array {
  const ride = simulateRide({ seconds: 600, seed: 15 });
  const activity = activityFromStreams(ride, { startTime: 1_790_000_000, sport: 2 });
  return encodeFit({ ...activity, laps: Array.from({ length: laps }, () => activity.laps[0]!) });
}

async function listen(h: Harness): Promise<string> {
  await h.server.listen({ port: 0, host: '127.0.0.1' });
  const address = h.server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

/** Uploads an activity over a real socket; the reply and the moment it came. */
async function send(base: string, access: string, bytes: Uint8Array, filename = 'ride.fit') {
  const { body, contentType } = multipartBody({}, { name: 'file', filename, bytes });
  const response = await fetch(`${base}/api/v2/workouts/`, {
    method: 'POST',
    headers: { ...bearer(access), 'content-type': contentType },
    body: Buffer.from(body),
  });
  const json = (await response.json()) as {
    code: number;
    detail?: string;
    data?: { id: number };
  };
  return {
    status: response.status,
    json,
    at: performance.now(),
    retryAfter: response.headers.get('retry-after'),
  };
}

describe('imports under hostile and heavy traffic', () => {
  let factory: DatabaseFactory;
  const open: Harness[] = [];
  const pools: AnalysisPool[] = [];
  const make = async (
    poolOptions?: ConstructorParameters<typeof AnalysisPool>[0],
    overrides: Parameters<typeof harness>[1] = {},
  ) => {
    const pool = poolOptions === undefined ? undefined : new AnalysisPool(poolOptions);
    if (pool) pools.push(pool);
    const h = await harness(factory, overrides, pool ? { pool } : {});
    open.push(h);
    return h;
  };
  const counts = async (h: Harness) =>
    (await h.db.query<{ workouts: number }>('SELECT count(*)::int AS workouts FROM workouts'))[0]!
      .workouts;

  beforeAll(async () => {
    factory = await pgliteFactory();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
    await Promise.all(pools.splice(0).map((pool) => pool.close()));
  });
  afterAll(async () => {
    await closePool();
    await factory.close();
  });

  it("runs another rider's small import beside one rider's costly files, not after them", async () => {
    const h = await make({ size: 2 });
    const base = await listen(h);
    const [a, b] = [await h.user('giant@example.com'), await h.user('small@example.com')];
    const costly = [noisyFit(60_000, 1), noisyFit(60_000, 2), noisyFit(60_000, 3)];
    // Rider A sends three costly files at once; rider B a half-hour ride a moment later.
    const giants = costly.map((bytes) => send(base, a.access, bytes));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const small = await send(base, b.access, fitFile(1800, 9));
    const done = await Promise.all(giants);
    expect(small.status).toBe(201);
    for (const giant of done) expect(giant.status).toBe(201);
    // B did not wait for A's files: it was answered before the first of them.
    expect(small.at).toBeLessThan(Math.min(...done.map((giant) => giant.at)));
    expect(await counts(h)).toBe(4);
  });

  it('answers another rider while the largest legal ride is imported, stored and read', async () => {
    const h = await make();
    const base = await listen(h);
    const [a, b] = [await h.user('largest@example.com'), await h.user('reader@example.com')];
    const largest = noisyFit(h.config.importMaxSamples - 1000, 5);
    const importing = send(base, a.access, largest);
    // Once A's import is under way (analysis, then its tens of MB written), B reads its
    // list again and again: every read is answered before A's import ends.
    while (
      (await h.db.query("SELECT 1 FROM imports WHERE status IN ('queued', 'running')")).length === 0
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    const reads: number[] = [];
    let finished: number | undefined;
    void importing.then((reply) => (finished = reply.at));
    while (finished === undefined && reads.length < 10_000) {
      const reply = await fetch(`${base}/api/v2/workouts/`, { headers: bearer(b.access) });
      expect(reply.status).toBe(200);
      await reply.arrayBuffer();
      reads.push(performance.now());
      // A rider clicking about: ten pages a second, within the per-rider request limit.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const imported = await importing;
    expect(imported.status).toBe(201);
    // Several of B's reads were answered while A's import ran, not all queued behind it.
    expect(reads.filter((at) => at < imported.at).length).toBeGreaterThan(3);
    // And A's ride reads back whole: its streams and a range over it, with B served between.
    const id = imported.json.data!.id;
    const [streams, list] = await Promise.all([
      fetch(`${base}/api/v2/workouts/${id}/range/?from=0&to=${h.config.importMaxSamples}`, {
        headers: bearer(a.access),
      }),
      fetch(`${base}/api/v2/workouts/`, { headers: bearer(b.access) }),
    ]);
    expect(streams.status).toBe(200);
    expect(list.status).toBe(200);
  });

  it('refuses a legal FIT file of 1,000,000 one-second records with 415 and the limit, stores nothing, and keeps serving', async () => {
    const h = await make();
    const base = await listen(h);
    const [a, b] = [await h.user('million@example.com'), await h.user('other@example.com')];
    const giant = noisyFit(1_000_000, 4);
    const [refused, small] = await Promise.all([
      send(base, a.access, giant),
      send(base, b.access, fitFile(1800, 10)),
    ]);
    expect(refused.status).toBe(415);
    expect(refused.json.code).toBe(10415);
    expect(refused.json.detail).toMatch(/1000000 samples; an import takes at most 400000/);
    expect(small.status).toBe(201);
    expect(await counts(h)).toBe(1);
    const quota = await h.db.query<{ bytes: number }>(
      'SELECT coalesce(sum(file_bytes), 0)::int AS bytes FROM workouts w JOIN users u ON u.id = w.user_id WHERE u.email = $1',
      ['million@example.com'],
    );
    expect(quota[0]!.bytes).toBe(0);
  });

  it('stops an analysis that runs past its deadline (415), and the next import is served', async () => {
    // Its CPU budget runs out whatever else the machine runs: never put off as busy.
    const h = await make({ size: 1, jobTimeoutMs: 1000, wallFactor: 600 });
    const base = await listen(h);
    const rider = await h.user();
    const slow = await send(base, rider.access, noisyFit(90_000, 5));
    expect(slow.status).toBe(415);
    expect(slow.json.detail).toMatch(/takes more than an import may \(1 s of a processor\)/);
    expect(await counts(h)).toBe(0);
    const next = await send(base, rider.access, fitFile(600, 11));
    expect(next.status).toBe(201);
  });

  it("holds a worker's memory limit: a file that needs more is refused with 415, the pool goes on", async () => {
    const h = await make({ size: 1, maxHeapMb: 64 });
    const base = await listen(h);
    const rider = await h.user();
    const hungry = await send(base, rider.access, manyLapsFit(400_000));
    expect(hungry.status).toBe(415);
    expect(hungry.json.detail).toMatch(/more memory than an import may use/);
    expect(await counts(h)).toBe(0);
    const next = await send(base, rider.access, fitFile(600, 12));
    expect(next.status).toBe(201);
  });

  it("answers 503 + Retry-After to imports beyond a rider's waiting limit, and stores the others", async () => {
    // The limit is the queue's (imports queued in the database, counted under the rider's lock).
    const h = await make({ size: 1 }, { importQueuePerUser: 1 });
    const base = await listen(h);
    const rider = await h.user();
    const files = [noisyFit(40_000, 31), noisyFit(40_000, 32), noisyFit(40_000, 33)];
    const replies = await Promise.all(files.map((bytes) => send(base, rider.access, bytes)));
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([201, 201, 503]);
    const busy = replies.find((reply) => reply.status === 503)!;
    expect(busy.json.code).toBe(10503);
    expect(busy.json.detail).toMatch(/imports under way/);
    expect(Number(busy.retryAfter)).toBeGreaterThan(0);
    expect(await counts(h)).toBe(2);
  });

  it("stops a running analysis when its request is given up, and the next rider's job runs", async () => {
    const pool = new AnalysisPool({ size: 1 });
    pools.push(pool);
    const controller = new AbortController();
    const running = pool.analyse(noisyFit(90_000, 6), {}, { owner: 1, signal: controller.signal });
    const waiting = pool.analyse(fitFile(600, 13), {}, { owner: 2 });
    setTimeout(() => controller.abort(new Error('given up')), 300);
    await expect(running).rejects.toThrow('given up');
    await expect(waiting).resolves.toMatchObject({ ok: true });
  });

  it('sends at most 4000 points per stream without `points`, at most 20,000 when asked, on own and shared rides', async () => {
    const h = await make();
    const base = await listen(h);
    const rider = await h.user();
    const imported = await send(base, rider.access, fitFile(6000, 14));
    expect(imported.status).toBe(201);
    const id = imported.json.data!.id;
    const shared = await fetch(`${base}/api/v2/workouts/${id}/`, {
      method: 'PATCH',
      headers: { ...bearer(rider.access), 'content-type': 'application/json' },
      body: JSON.stringify({ shared: true }),
    });
    const shareId = ((await shared.json()) as { data: { share_id: string } }).data.share_id;
    // The share link leaves out the trimmed start and end: fewer samples than the ride.
    for (const [url, all] of [
      [`/api/v2/workouts/${id}/streams/`, (n: number) => expect(n).toBe(6000)],
      [
        `/api/v2/share/workouts/${shareId}/streams/`,
        (n: number) => expect(n > 5000 && n < 6000, String(n)).toBe(true),
      ],
    ] as const) {
      const reply = await fetch(`${base}${url}`, { headers: bearer(rider.access) });
      expect(reply.status).toBe(200);
      const { data } = (await reply.json()) as {
        data: { length: number; streams: Record<string, unknown[]> };
      };
      expect(data.length).toBeLessThanOrEqual(4000);
      for (const column of Object.values(data.streams)) expect(column.length).toBe(data.length);
      const tooMany = await fetch(`${base}${url}?points=20001`, { headers: bearer(rider.access) });
      expect(tooMany.status).toBe(400);
      const asked = await fetch(`${base}${url}?points=20000`, { headers: bearer(rider.access) });
      all(((await asked.json()) as { data: { length: number } }).data.length);
    }
  });
});
