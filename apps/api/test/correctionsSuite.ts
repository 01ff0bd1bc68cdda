import { readFileSync } from 'node:fs';
import { activityFromStreams, activityOverview, decodeFit, encodeFit } from '@xoss/activity-files';
import { describe, expect, it, vi } from 'vitest';
import { AnalysisPool } from '../src/imports/pool.ts';
import { REANALYSIS_CLAIM_MS } from '../src/rides/revise.ts';
import { bearer, suiteHarnesses, upload, type DatabaseFactory, type Harness } from './harness.ts';
import { ANALYSIS_VERSION } from '../src/rides/store.ts';

// A rider's corrections of a ride (issue #44): keep what the cleaning removed, leave a ride
// out of bests and training, crop it, fix a doubtful date, choose the file's FTP. Each is
// checked against the ride's own figures before the change (the oracle: undoing a change
// gives them back exactly) and against what a rider's totals, bests and fitness then say.

const corpus = new URL('../../../packages/activity-files/test/corpus/fit/', import.meta.url);

/**
 * A real Edge 810 ride with a power meter (1 Hz, FTP 315 W in the file), written again with
 * a power meter's glitch (four samples of 21,733 W) in a stretch of coasting, starting at
 * `startTime` (Unix seconds).
 */
function dirtyRide(startTime: number): Uint8Array {
  const decoded = decodeFit(
    new Uint8Array(
      readFileSync(new URL('fitparse-Edge810-Vector-2013-08-16-15-35-10.fit', corpus)),
    ),
  );
  if (!decoded.ok) throw new Error('corpus file');
  const streams = activityOverview(decoded.value).streams;
  const power = streams.power!.slice();
  let at = 1000;
  while (!(power[at] === 0 && power[at + 4] === 0)) at++;
  power.fill(21_733, at, at + 4);
  return encodeFit(
    activityFromStreams(
      { ...streams, power },
      { startTime, sport: 2, settings: { ftpWatts: 315, maxHeartRate: 190 } },
    ),
  );
}

interface Detail {
  id: number;
  name: string;
  start_time: string;
  distance_m: number;
  timer_time_s: number;
  tss: number | null;
  ftp: number | null;
  ftp_source: string | null;
  file_ftp: number | null;
  exclude_from_bests: boolean;
  keep_removed: boolean;
  crop: { start_s: number; end_s: number } | null;
  recording_offset_s: number | null;
  date_warning: string | null;
  time_shift_s: number;
  summary: {
    power_max: number | null;
    np: number | null;
    removed_samples: { power: number } | null;
  };
}

async function call<T>(
  h: Harness,
  access: string,
  method: 'GET' | 'PATCH',
  url: string,
  payload?: Record<string, unknown>,
): Promise<{ status: number; data: T; body: string }> {
  const reply = await h.server.inject({
    method,
    url,
    headers: bearer(access),
    ...(payload ? { payload } : {}),
  });
  return { status: reply.statusCode, data: reply.json<{ data: T }>().data, body: reply.body };
}

/** What the rider's training says of `day`: its TSS, and the rider's 5 s and 20 min bests. */
async function standing(h: Harness, access: string, day: string) {
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const fitness = await call<{ days: { day: string; tss: number }[] }>(
    h,
    access,
    'GET',
    `/api/v2/training/fitness/?from=${day}&to=${next}`,
  );
  const bests = await call<{
    efforts: { effort: string; bests: { value: number; workout_id: number }[] }[];
  }>(h, access, 'GET', '/api/v2/training/bests/?limit=1');
  const best = (effort: string) =>
    bests.data.efforts.find((entry) => entry.effort === effort)?.bests[0]?.value ?? null;
  return {
    tss: fitness.data.days.find((entry) => entry.day === day)?.tss ?? 0,
    power5s: best('power_5s'),
    power1200s: best('power_1200s'),
  };
}

/**
 * Rides imported at `starts` (dirty, with a power glitch), then set back to how an older
 * analysis stored them: the version before, without the cleaning's counts.
 */
async function olderRides(h: Harness, access: string, starts: number[]): Promise<number[]> {
  const ids: number[] = [];
  for (const [k, start] of starts.entries()) {
    const reply = await upload(h, '/api/v2/workouts/', access, {
      filename: `older-${k}.fit`,
      bytes: dirtyRide(start),
    });
    expect(reply.statusCode, reply.body).toBe(201);
    ids.push(reply.json<{ data: Detail }>().data.id);
  }
  await h.db.query(
    `UPDATE workouts SET analysed_with = 0, summary = summary - 'cleaning' WHERE id = ANY($1)`,
    [ids],
  );
  return ids;
}

/**
 * Holds every analysis of the API's pools (any process's) once it is done and before its
 * caller writes anything: `started` resolves when the first one is held, `release` lets them
 * all go. The interleaving a test needs is then forced, not hoped for.
 */
function holdAnalyses() {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its pool below
  const original = AnalysisPool.prototype.analyse;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const started = new Promise<void>((resolve) => (held = resolve));
  const spy = vi.spyOn(AnalysisPool.prototype, 'analyse').mockImplementation(async function (
    this: AnalysisPool,
    ...args
  ) {
    const result = await original.apply(this, args);
    held();
    await released;
    return result;
  });
  return {
    started,
    release,
    restore: () => {
      release();
      spy.mockRestore();
    },
  };
}

/** What a visitor gets of a share link, as a status. */
async function linkStatus(h: Harness, shareId: string): Promise<number> {
  return (await h.server.inject({ url: `/api/v2/share/workouts/${shareId}/` })).statusCode;
}

export function defineCorrectionsSuite(makeFactory: () => Promise<DatabaseFactory>): void {
  const make = suiteHarnesses(makeFactory);

  describe("a rider's corrections of a ride", () => {
    it('keeps a glitch out until the rider keeps it; leaves a ride out of bests and training; crops it and undoes the crop', async () => {
      const h = await make();
      const rider = await h.user();
      const start = Date.UTC(2013, 7, 16, 15, 35, 10) / 1000;
      const day = '2013-08-16';
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'glitch.fit',
        bytes: dirtyRide(start),
      });
      expect(reply.statusCode, reply.body).toBe(201);
      const id = reply.json<{ data: Detail }>().data.id;
      const url = `/api/v2/workouts/${id}/`;
      const original = (await call<Detail>(h, rider.access, 'GET', url)).data;
      expect(original.summary.removed_samples?.power).toBe(4);
      expect(original.summary.power_max).toBeLessThan(2500);
      expect(original.file_ftp).toBe(315);
      const counted = await standing(h, rider.access, day);
      expect(counted.tss).toBeGreaterThan(0);
      expect(counted.power5s).toBeGreaterThan(0);
      expect(counted.power5s).toBeLessThan(2500);

      // Kept: the glitch is in the ride's figures; its 5 s best is no human's, so none.
      const kept = await call<Detail>(h, rider.access, 'PATCH', url, { keep_removed: true });
      expect(kept.status, kept.body).toBe(200);
      expect(kept.data.keep_removed).toBe(true);
      expect(kept.data.summary.power_max).toBe(21_733);
      expect(kept.data.summary.removed_samples?.power).toBe(4);
      expect((await standing(h, rider.access, day)).power5s).toBeNull();
      const cleanAgain = await call<Detail>(h, rider.access, 'PATCH', url, { keep_removed: false });
      expect(cleanAgain.data.summary.np).toBe(original.summary.np);
      expect(await standing(h, rider.access, day)).toEqual(counted);

      // Left out: no TSS on its day, no bests; put back: exactly as before.
      const out = await call<Detail>(h, rider.access, 'PATCH', url, { exclude_from_bests: true });
      expect(out.data.exclude_from_bests).toBe(true);
      expect(out.data.tss).toBe(original.tss);
      expect(await standing(h, rider.access, day)).toEqual({
        tss: 0,
        power5s: null,
        power1200s: null,
      });
      await call<Detail>(h, rider.access, 'PATCH', url, { exclude_from_bests: false });
      expect(await standing(h, rider.access, day)).toEqual(counted);

      // Cropped to 10-40 min: the start moves 600 s, the timer is at most 30 min.
      const cropped = await call<Detail>(h, rider.access, 'PATCH', url, {
        crop: { start_s: 600, end_s: 2400 },
      });
      expect(cropped.status, cropped.body).toBe(200);
      expect(cropped.data.crop).toEqual({ start_s: 600, end_s: 2400 });
      expect(Date.parse(cropped.data.start_time) - Date.parse(original.start_time)).toBe(600_000);
      // Where the ride as shown begins in the recording, for a crop typed against it.
      expect(original.recording_offset_s).toBe(0);
      expect(cropped.data.recording_offset_s).toBe(600);
      expect(cropped.data.timer_time_s).toBeLessThanOrEqual(1800);
      expect(cropped.data.timer_time_s).toBeGreaterThan(1500);
      expect(cropped.data.distance_m).toBeLessThan(original.distance_m);
      expect((await standing(h, rider.access, day)).tss).toBeLessThan(counted.tss);
      // Seconds of the whole recording: the same request again changes nothing; 5 more
      // minutes off its start is a crop from 900 s.
      const same = await call<Detail>(h, rider.access, 'PATCH', url, {
        crop: { start_s: 600, end_s: 2400 },
      });
      expect(same.data).toMatchObject({
        crop: cropped.data.crop,
        start_time: cropped.data.start_time,
      });
      const again = await call<Detail>(h, rider.access, 'PATCH', url, {
        crop: { start_s: 900, end_s: 2400 },
      });
      expect(again.data.crop).toEqual({ start_s: 900, end_s: 2400 });
      expect(Date.parse(again.data.start_time) - Date.parse(original.start_time)).toBe(900_000);
      expect(again.data.recording_offset_s).toBe(900);
      const whole = await call<Detail>(h, rider.access, 'PATCH', url, { crop: null });
      expect(whole.data.crop).toBeNull();
      expect(whole.data.start_time).toBe(original.start_time);
      expect(whole.data.distance_m).toBe(original.distance_m);
      expect(whole.data.timer_time_s).toBe(original.timer_time_s);
      expect(await standing(h, rider.access, day)).toEqual(counted);

      // A crop that leaves nothing is refused, and changes nothing.
      const empty = await call<Detail>(h, rider.access, 'PATCH', url, {
        crop: { start_s: 90_000, end_s: 90_001 },
      });
      expect(empty.status).toBe(400);
      expect((await call<Detail>(h, rider.access, 'GET', url)).data.crop).toBeNull();
    });

    it('keeps a ride dated in the future out of every total until its date is fixed, and lets a ride use the file’s FTP', async () => {
      const h = await make();
      const rider = await h.user();
      await call(h, rider.access, 'PATCH', `/api/v2/athlete/${rider.id}/`, {
        settings: { ftp: 250 },
      });
      const future = Date.UTC(2031, 4, 5, 8, 0, 0) / 1000;
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'clock.fit',
        bytes: dirtyRide(future),
      });
      expect(reply.statusCode, reply.body).toBe(201);
      const ride = reply.json<{ data: Detail }>().data;
      expect(ride.date_warning).toBe('future');
      const url = `/api/v2/workouts/${ride.id}/`;
      const totals = await call<{ count: number }>(
        h,
        rider.access,
        'GET',
        '/api/v2/workouts/totals/?from=2026-01-01',
      );
      expect(totals.data.count).toBe(0);
      expect(await standing(h, rider.access, '2031-05-05')).toEqual({
        tss: 0,
        power5s: null,
        power1200s: null,
      });

      // Fixed: moved to the day it was ridden, it counts there.
      const fixed = await call<Detail>(h, rider.access, 'PATCH', url, {
        start_time: '2013-08-16T15:35:10Z',
      });
      expect(fixed.status, fixed.body).toBe(200);
      expect(fixed.data.date_warning).toBeNull();
      expect(fixed.data.start_time).toBe('2013-08-16T15:35:10.000Z');
      expect(fixed.data.time_shift_s).toBe(Date.UTC(2013, 7, 16, 15, 35, 10) / 1000 - future);
      // Named by the wrong date on import, it is named by the day it was ridden.
      expect(ride.name).toBe('Ride 2031-05-05');
      expect(fixed.data.name).toBe('Ride 2013-08-16');
      const counted = await standing(h, rider.access, '2013-08-16');
      expect(counted.tss).toBeGreaterThan(0);
      expect(counted.power1200s).toBeGreaterThan(0);

      // The rider's FTP wins; for this ride the rider chooses the file's, and back.
      expect(fixed.data).toMatchObject({ ftp: 250, ftp_source: 'settings', file_ftp: 315 });
      const file = await call<Detail>(h, rider.access, 'PATCH', url, { ftp_choice: 'file' });
      expect(file.data).toMatchObject({ ftp: 315, ftp_source: 'file' });
      // A higher FTP, a lower TSS for the same ride, and its day follows.
      expect(file.data.tss!).toBeLessThan(fixed.data.tss!);
      expect((await standing(h, rider.access, '2013-08-16')).tss).toBeCloseTo(file.data.tss!, 6);
      const own = await call<Detail>(h, rider.access, 'PATCH', url, { ftp_choice: 'settings' });
      expect(own.data).toMatchObject({ ftp: 250, ftp_source: 'settings', tss: fixed.data.tss });
      // A name the rider chose stays when the ride moves again.
      await call(h, rider.access, 'PATCH', url, { name: 'Evening loop' });
      const moved = await call<Detail>(h, rider.access, 'PATCH', url, {
        start_time: '2013-08-17T15:35:10Z',
      });
      expect(moved.data).toMatchObject({
        name: 'Evening loop',
        start_time: '2013-08-17T15:35:10.000Z',
      });
    });

    it('analyses again, once, the rides an older analysis made, and marks one whose file is gone', async () => {
      const h = await make();
      const rider = await h.user();
      // As stored before the cleaning: no counts, the version before; one file lost.
      const ids = await olderRides(h, rider.access, [1_376_667_310, 1_376_767_310]);
      const [lost] = await h.db.query<{ file_key: string }>(
        'SELECT file_key FROM workouts WHERE id = $1',
        [ids[1]],
      );
      await h.blobs.delete(lost!.file_key);
      const before = await call<Detail>(h, rider.access, 'GET', `/api/v2/workouts/${ids[0]}/`);
      expect(before.data.summary.removed_samples).toBeNull();
      expect(await h.server.reanalyseOlder(new AbortController().signal)).toBe(1);
      const after = await call<Detail>(h, rider.access, 'GET', `/api/v2/workouts/${ids[0]}/`);
      expect(after.data.summary.removed_samples?.power).toBe(4);
      expect(after.data.distance_m).toBe(before.data.distance_m);
      const versions = await h.db.query<{ analysed_with: number }>(
        'SELECT analysed_with FROM workouts WHERE id = ANY($1) ORDER BY id',
        [ids],
      );
      expect(versions.map((row) => row.analysed_with)).toEqual([
        ANALYSIS_VERSION,
        ANALYSIS_VERSION,
      ]);
      // Nothing is left to do at the next start.
      expect(await h.server.reanalyseOlder(new AbortController().signal)).toBe(0);
    });

    it('analyses each older ride once when two processes run the pass at the same time, and frees the claim of a process that died', async () => {
      const h = await make();
      const rider = await h.user();
      const ids = await olderRides(h, rider.access, [1_376_667_310, 1_376_767_310, 1_376_867_310]);
      // Another API process on the same database, with its own analysis threads.
      const second = await h.anotherProcess();
      // Every analysis of either process, whichever pool runs it.
      const analyse = vi.spyOn(AnalysisPool.prototype, 'analyse');
      try {
        const signal = new AbortController().signal;
        const done = await Promise.all([
          h.server.reanalyseOlder(signal),
          second.reanalyseOlder(signal),
        ]);
        expect(done[0] + done[1]).toBe(3);
        expect(analyse).toHaveBeenCalledTimes(3);
        const versions = await h.db.query<{ analysed_with: number }>(
          'SELECT analysed_with FROM workouts WHERE id = ANY($1) ORDER BY id',
          [ids],
        );
        expect(versions.map((row) => row.analysed_with)).toEqual([
          ANALYSIS_VERSION,
          ANALYSIS_VERSION,
          ANALYSIS_VERSION,
        ]);
        const ride = await call<Detail>(h, rider.access, 'GET', `/api/v2/workouts/${ids[2]}/`);
        expect(ride.data.summary.removed_samples?.power).toBe(4);

        // A process claimed a ride and died: its claim holds for REANALYSIS_CLAIM_MS, then
        // the next pass takes the ride.
        analyse.mockClear();
        await h.db.query(
          'UPDATE workouts SET analysed_with = 0, reanalysis_claimed_at = $2 WHERE id = $1',
          [ids[0], new Date(h.clock - 60_000).toISOString()],
        );
        expect(await second.reanalyseOlder(signal)).toBe(0);
        expect(analyse).not.toHaveBeenCalled();
        await h.db.query('UPDATE workouts SET reanalysis_claimed_at = $2 WHERE id = $1', [
          ids[0],
          new Date(h.clock - REANALYSIS_CLAIM_MS - 1000).toISOString(),
        ]);
        expect(await second.reanalyseOlder(signal)).toBe(1);
        expect(analyse).toHaveBeenCalledTimes(1);
        expect(await h.server.reanalyseOlder(signal)).toBe(0);
      } finally {
        analyse.mockRestore();
        await second.close();
      }
    });

    it("refuses corrections beyond the rider's limit with 429 and Retry-After, writes nothing, and never counts a rename", async () => {
      const h = await make({ correctionsPerRider: 2, correctionLimitWindowS: 600 });
      const rider = await h.user();
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'limited.fit',
        bytes: dirtyRide(1_376_667_310),
      });
      expect(reply.statusCode, reply.body).toBe(201);
      const url = `/api/v2/workouts/${reply.json<{ data: Detail }>().data.id}/`;
      const patch = (payload: Record<string, unknown>) =>
        h.server.inject({ method: 'PATCH', url, headers: bearer(rider.access), payload });
      // Renames and notes analyse nothing: never counted.
      for (const k of [1, 2, 3])
        expect((await patch({ name: `Ride ${k}`, notes: `take ${k}` })).statusCode).toBe(200);
      expect((await patch({ exclude_from_bests: true })).statusCode).toBe(200);
      // The same setting again changes nothing, so analyses nothing and is not counted.
      expect((await patch({ exclude_from_bests: true })).statusCode).toBe(200);
      expect((await patch({ keep_removed: true })).statusCode).toBe(200);

      const refused = await patch({ keep_removed: false, name: 'Not saved' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 10302, msg: 'too_many_attempts' });
      expect(refused.json<{ detail: string }>().detail).toMatch(/^Too many corrections of rides/);
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThan(500);
      expect(wait).toBeLessThanOrEqual(600);
      expect(h.logs.some((line) => line.includes('workout.correctionsLimited'))).toBe(true);
      // Nothing of the refused request was written, the name included.
      const after = await call<Detail & { name: string }>(h, rider.access, 'GET', url);
      expect(after.data).toMatchObject({ name: 'Ride 3', keep_removed: true });
      // The rider's other requests still pass: a rename, a crop that was already set.
      expect((await patch({ name: 'Renamed', crop: null })).statusCode).toBe(200);
      expect((await patch({ start_time: after.data.start_time })).statusCode).toBe(200);
      expect((await patch({ sport_type: 1 })).statusCode).toBe(429);
      if (h.db.kind === 'postgres') {
        // The count is the database's: another process refuses the rider too.
        const second = await h.anotherProcess();
        try {
          const elsewhere = await second.inject({
            method: 'PATCH',
            url,
            headers: bearer(rider.access),
            payload: { keep_removed: false },
          });
          expect(elsewhere.statusCode).toBe(429);
        } finally {
          await second.close();
        }
      }
    });

    it("scores a run by pace against the rider's threshold pace (rTSS), never by a cycling FTP, and ranks it among runs", async () => {
      const h = await make();
      const rider = await h.user();
      await call(h, rider.access, 'PATCH', `/api/v2/athlete/${rider.id}/`, {
        settings: { ftp: 250, max_hr: 190 },
      });
      // An hour on the flat at 4 m/s (4:10 /km), with a running power meter's 300 W.
      const time = Float64Array.from({ length: 3600 }, (_, k) => k);
      const run = encodeFit(
        activityFromStreams(
          {
            time,
            speed: new Float64Array(3600).fill(4),
            distance: Float64Array.from(time, (t) => 4 * t),
            power: new Float64Array(3600).fill(300),
            heartRate: new Float64Array(3600).fill(160),
          },
          { startTime: 1_700_000_000, sport: 1 },
        ),
      );
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'run.fit',
        bytes: run,
      });
      expect(reply.statusCode, reply.body).toBe(201);
      const url = `/api/v2/workouts/${reply.json<{ data: Detail }>().data.id}/`;
      type Scored = Detail & { summary: { tss: number | null; tss_method: string | null } };
      // No threshold pace: heart rate, not the 300 W against a cycling FTP of 250 W.
      const byHeart = (await call<Scored>(h, rider.access, 'GET', url)).data;
      expect(byHeart.summary.tss_method).toBe('heart_rate');
      // At threshold pace (4:10 /km = 4 m/s) an hour is 100; at 5:00 /km it is 100 x 1.2².
      for (const [pace, oracle] of [
        [250, 100],
        [300, 144],
      ] as const) {
        const set = await call(h, rider.access, 'PATCH', `/api/v2/athlete/${rider.id}/`, {
          settings: { threshold_pace_s_per_km: pace },
        });
        expect(set.status, set.body).toBe(200);
        const scored = (await call<Scored>(h, rider.access, 'GET', url)).data;
        expect(scored.summary.tss_method).toBe('pace');
        expect(Math.abs(scored.summary.tss! - oracle)).toBeLessThan(oracle * 0.01);
        expect(scored.tss).toBeCloseTo(scored.summary.tss!, 9);
        expect((await standing(h, rider.access, '2023-11-14')).tss).toBeCloseTo(scored.tss!, 6);
      }
      // Its power and pace are a runner's bests, not a rider's: 4 m/s is 250 s a km.
      type Bests = { efforts: { effort: string; bests: { value: number }[] }[] };
      const runs = await call<Bests>(h, rider.access, 'GET', '/api/v2/training/bests/?sport=run');
      const best = (effort: string) =>
        runs.data.efforts.find((entry) => entry.effort === effort)?.bests[0]?.value;
      expect(best('run_time_1000m')).toBeCloseTo(250, 0);
      expect(best('run_time_10000m')).toBeCloseTo(2500, 0);
      expect(best('run_time_21098m')).toBeUndefined();
      expect(best('run_power_1200s')).toBe(300);
      const rides = await call<Bests>(h, rider.access, 'GET', '/api/v2/training/bests/');
      expect(rides.data.efforts.flatMap((entry) => entry.bests)).toEqual([]);
      expect(rides.data.efforts.some((entry) => entry.effort.startsWith('run_'))).toBe(false);
    });
  });

  describe('where corrections meet the other writes of a ride (interleavings forced)', () => {
    /** A shared ride of a new rider: its id, URL and link. */
    async function sharedRide(h: Harness) {
      const rider = await h.user();
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'shared.fit',
        bytes: dirtyRide(1_376_667_310),
      });
      expect(reply.statusCode, reply.body).toBe(201);
      const id = reply.json<{ data: Detail }>().data.id;
      const url = `/api/v2/workouts/${id}/`;
      const shared = await call<{ share_id: string }>(h, rider.access, 'PATCH', url, {
        shared: true,
      });
      expect(shared.status, shared.body).toBe(200);
      expect(await linkStatus(h, shared.data.share_id)).toBe(200);
      return { rider, id, url, shareId: shared.data.share_id };
    }

    it('keeps an unshare, a rename, notes and gear sent while a correction is analysed, and the link is gone from the unshare on', async () => {
      const h = await make();
      const { rider, url, shareId } = await sharedRide(h);
      const hold = holdAnalyses();
      try {
        const correcting = call<Detail>(h, rider.access, 'PATCH', url, { keep_removed: true });
        await hold.started;
        const edit = await call<{ share_id: string | null; name: string }>(
          h,
          rider.access,
          'PATCH',
          url,
          { shared: false, name: 'Renamed meanwhile', notes: 'Windy', gear: 'Winter bike' },
        );
        expect(edit.status, edit.body).toBe(200);
        expect(edit.data.share_id).toBeNull();
        // From the unshare's reply on, the link is gone, though the correction still runs.
        expect(await linkStatus(h, shareId)).toBe(404);
        hold.release();
        const corrected = await correcting;
        expect(corrected.status, corrected.body).toBe(200);
      } finally {
        hold.restore();
      }
      const after = await call<
        Detail & { share_id: string | null; name: string; notes: string; gear: string | null }
      >(h, rider.access, 'GET', url);
      expect(after.data.keep_removed).toBe(true);
      expect(after.data.summary.power_max).toBe(21_733);
      expect(after.data.share_id).toBeNull();
      expect(after.data.name).toBe('Renamed meanwhile');
      expect(after.data.notes).toBe('Windy');
      expect(after.data.gear).toBe('Winter bike');
      expect(await linkStatus(h, shareId)).toBe(404);
    });

    it('writes of a request with a correction only what it names: a rename that lands meanwhile stays, and so does the link', async () => {
      const h = await make();
      const { rider, url, shareId } = await sharedRide(h);
      const hold = holdAnalyses();
      try {
        const correcting = call(h, rider.access, 'PATCH', url, {
          exclude_from_bests: true,
          notes: 'Legs heavy',
        });
        await hold.started;
        const renamed = await call(h, rider.access, 'PATCH', url, { name: 'Renamed meanwhile' });
        expect(renamed.status, renamed.body).toBe(200);
        hold.release();
        expect((await correcting).status).toBe(200);
      } finally {
        hold.restore();
      }
      const after = await call<Detail & { name: string; notes: string; share_id: string | null }>(
        h,
        rider.access,
        'GET',
        url,
      );
      expect(after.data).toMatchObject({
        name: 'Renamed meanwhile',
        notes: 'Legs heavy',
        exclude_from_bests: true,
        share_id: shareId,
      });
      expect(await linkStatus(h, shareId)).toBe(200);
    });

    it('ends the link at once when a ride is unshared while it is analysed again in the background', async () => {
      const h = await make();
      const { rider, id, url, shareId } = await sharedRide(h);
      await h.db.query(
        `UPDATE workouts SET analysed_with = 0, summary = summary - 'cleaning' WHERE id = $1`,
        [id],
      );
      const hold = holdAnalyses();
      try {
        const pass = h.server.reanalyseOlder(new AbortController().signal);
        await hold.started;
        const unshared = await call<{ share_id: string | null }>(h, rider.access, 'PATCH', url, {
          shared: false,
        });
        expect(unshared.data.share_id).toBeNull();
        expect(await linkStatus(h, shareId)).toBe(404);
        hold.release();
        expect(await pass).toBe(1);
      } finally {
        hold.restore();
      }
      const after = await call<Detail & { share_id: string | null }>(h, rider.access, 'GET', url);
      expect(after.data.share_id).toBeNull();
      expect(after.data.summary.removed_samples?.power).toBe(4);
      expect(await linkStatus(h, shareId)).toBe(404);
    });

    it('keeps a ride deleted while its correction is analysed deleted: the correction answers 404 and leaves no file', async () => {
      const h = await make();
      const { rider, url, shareId } = await sharedRide(h);
      const hold = holdAnalyses();
      let corrected;
      try {
        const correcting = call(h, rider.access, 'PATCH', url, { keep_removed: true });
        await hold.started;
        const deleted = await h.server.inject({
          method: 'DELETE',
          url,
          headers: bearer(rider.access),
        });
        expect(deleted.statusCode, deleted.body).toBe(200);
        expect(await linkStatus(h, shareId)).toBe(404);
        hold.release();
        corrected = await correcting;
      } finally {
        hold.restore();
      }
      expect(corrected.status).toBe(404);
      expect((await call(h, rider.access, 'GET', url)).status).toBe(404);
      const rows = await h.db.query('SELECT id FROM workouts WHERE user_id = $1', [rider.id]);
      expect(rows).toEqual([]);
      // Neither the ride's streams nor the ones the correction made are left behind.
      expect(await h.blobs.list('streams/')).toEqual([]);
    });

    it('hides a privacy zone added while the ride is analysed again from its link at once, and after', async () => {
      const h = await make();
      const { rider, url, shareId } = await sharedRide(h);
      type Positions = {
        streams: { latitude?: (number | null)[]; longitude?: (number | null)[] };
      };
      const positions = async () =>
        (await h.server.inject({ url: `/api/v2/share/workouts/${shareId}/streams/` })).json<{
          data: Positions;
        }>().data.streams;
      const before = await positions();
      const k = Math.floor(before.latitude!.length / 2);
      const zone = { latitude: before.latitude![k]!, longitude: before.longitude![k]! };
      const inZone = (streams: Positions['streams']) =>
        streams.latitude!.filter(
          (latitude, i) =>
            latitude !== null &&
            Math.hypot(
              (latitude - zone.latitude) * 111_320,
              (streams.longitude![i]! - zone.longitude) *
                111_320 *
                Math.cos((zone.latitude * Math.PI) / 180),
            ) < 300,
        ).length;
      expect(inZone(before)).toBeGreaterThan(0);
      const hold = holdAnalyses();
      try {
        const correcting = call(h, rider.access, 'PATCH', url, { keep_removed: true });
        await hold.started;
        const added = await h.server.inject({
          method: 'POST',
          url: '/api/v2/privacy-zones/',
          headers: bearer(rider.access),
          payload: { name: 'Friend', ...zone, radius_m: 300 },
        });
        expect(added.statusCode, added.body).toBe(201);
        expect(inZone(await positions())).toBe(0);
        hold.release();
        expect((await correcting).status).toBe(200);
      } finally {
        hold.restore();
      }
      expect(inZone(await positions())).toBe(0);
    });
  });
}
