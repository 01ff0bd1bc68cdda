import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import {
  decoupling,
  findClimbs,
  findIntervals,
  heartRateCurve,
  matchesBurnt,
  paceCurve,
  powerModelAt,
  wPrimeBalance,
} from '@xoss/workout-stats';
import { describe, expect, it } from 'vitest';
import { forgetKeptModels, powerModelOf } from '../src/analysis/powerModels.ts';
import { analysisIdle } from '../src/analysis/precompute.ts';
import { rideStreamsOf } from '../src/analysis/series.ts';
import { readStreams } from '../src/rides/streams.ts';
import { bearer, PASSWORD, upload, type Harness } from './harness.ts';

/** 06:00 UTC of a day of 2026 (the harness's clock is 2026-11-01). */
const at = (month: number, day: number) => Date.UTC(2026, month - 1, day, 6) / 1000;

/** The rider of these tests: CP 260 W, W' 20 kJ, Pmax 1000 W (Morton's model). */
const MODEL = { cpW: 260, wPrimeJ: 20_000, pmaxW: 1000 };

/** A FIT file of 1 Hz streams (speed 8 m/s throughout, so every second is moving). */
function fitOf(
  start: number,
  power: Float64Array,
  extra: { altitude?: Float64Array; heartRate?: Float64Array; ftpWatts?: number } = {},
): Uint8Array {
  const n = power.length;
  const time = Float64Array.from({ length: n }, (_, i) => i);
  const speed = new Float64Array(n).fill(8);
  const distance = Float64Array.from({ length: n }, (_, i) => 8 * (i + 1));
  const heartRate =
    extra.heartRate ??
    Float64Array.from(power, (watts) => Math.round(100 + Math.min(watts, 600) / 10));
  const cadence = Float64Array.from(power, (watts) => (watts > 0 ? 90 : 0));
  return encodeFit(
    activityFromStreams(
      {
        time,
        power,
        speed,
        distance,
        heartRate,
        cadence,
        ...(extra.altitude ? { altitude: extra.altitude } : {}),
      },
      {
        startTime: start,
        sport: 2,
        ...(extra.ftpWatts ? { settings: { ftpWatts: extra.ftpWatts } } : {}),
      },
    ),
  );
}

/**
 * A ride whose mean-max curve is the model's up to `effortS`: a falling effort whose first
 * `d` seconds average exactly P(d) (each second adds the model's work increment), then easy.
 */
function modelRide(effortS = 1500, easyS = 600): Float64Array {
  const work = (d: number) => d * powerModelAt(MODEL, d);
  return Float64Array.from({ length: effortS + easyS }, (_, i) =>
    i < effortS ? Math.round(work(i + 1) - work(i)) : 120,
  );
}

/** A 70-minute ride: 150 W with three efforts at 330 W and a 6 % climb at 1250-1500 s. */
const EFFORTS: readonly [number, number][] = [
  [600, 900],
  [1800, 2040],
  [2700, 3000],
];
const CLIMB: readonly [number, number] = [1250, 1500];
function intervalRide() {
  const n = 4200;
  const power = Float64Array.from({ length: n }, (_, i) =>
    EFFORTS.some(([from, to]) => i >= from && i < to) ? 330 : 150,
  );
  // Distance is 8 (i + 1) m; the road climbs 6 % (0.48 m a second) across the climb.
  const altitude = Float64Array.from(
    { length: n },
    (_, i) => 100 + 0.48 * (Math.min(Math.max(i, CLIMB[0]), CLIMB[1]) - CLIMB[0]),
  );
  // Heart rate drifts up through the ride: decoupling is positive.
  const heartRate = Float64Array.from({ length: n }, (_, i) =>
    Math.round(110 + power[i]! / 6 + i / 200),
  );
  return { power, altitude, heartRate };
}

/** Ride analysis and the power model: `rideAnalysis.ts`, `analysisStore.ts`. */
export function defineAnalysisSuite(make: () => Promise<Harness>): void {
  describe('ride and training analysis', () => {
    /** A rider with an FTP setting (none with `null`). */
    async function rider(h: Harness, ftp: number | null = 250) {
      const user = await h.user();
      if (ftp !== null)
        await h.server.inject({
          method: 'PATCH',
          url: `/api/v2/athlete/${user.id}/`,
          headers: bearer(user.access),
          payload: { settings: { ftp, max_hr: 185 }, thresholds_from: '2020-01-01' },
        });
      const get = async <T>(url: string, status = 200) => {
        const reply = await h.server.inject({
          method: 'GET',
          url,
          headers: bearer(session.access),
        });
        expect(reply.statusCode, reply.body).toBe(status);
        return reply.json<{ data: T }>().data;
      };
      const session = { access: user.access };
      /** Signs in again (after the clock moved past the token's life). */
      const signIn = async () => {
        const reply = await h.server.inject({
          method: 'POST',
          url: '/api/v1/jwt-token/',
          payload: { email: user.email, password: PASSWORD },
        });
        session.access = reply.json<{ data: { access: string } }>().data.access;
      };
      const ride = async (bytes: Uint8Array) => {
        const reply = await upload(h, '/api/v2/workouts/', session.access, {
          filename: 'ride.fit',
          bytes,
        });
        expect(reply.statusCode, reply.body).toBe(201);
        return reply.json<{ data: { id: number } }>().data.id;
      };
      return { ...user, get, ride, signIn };
    }

    interface Model {
      cp_w: number | null;
      w_prime_j: number | null;
      pmax_w: number | null;
      eftp_w: number | null;
      points_used: number | null;
      reason: string | null;
      workouts: number;
    }

    it("recovers a known CP and W' from the best curves of each window, and says why when it cannot", async () => {
      const h = await make();
      const r = await rider(h);
      const empty = await r.get<Model>('/api/v2/training/power-model/');
      expect(empty).toMatchObject({ cp_w: null, w_prime_j: null, reason: 'no_power', workouts: 0 });
      // A two-minute ride: no 3-minute effort, so CP and W' cannot be told apart.
      await r.ride(fitOf(at(10, 20), new Float64Array(120).fill(300)));
      const short = await r.get<Model>('/api/v2/training/power-model/');
      expect(short).toMatchObject({ cp_w: null, reason: 'too_little_data', workouts: 1 });
      await r.ride(fitOf(at(10, 25), modelRide()));
      for (const window of ['42d', 'season', 'all']) {
        const model = await r.get<Model>(`/api/v2/training/power-model/?window=${window}`);
        expect(model.reason, window).toBeNull();
        expect(model.cp_w! / MODEL.cpW).toBeCloseTo(1, 1);
        expect(Math.abs(model.cp_w! - MODEL.cpW) / MODEL.cpW).toBeLessThan(0.02);
        expect(Math.abs(model.w_prime_j! - MODEL.wPrimeJ) / MODEL.wPrimeJ).toBeLessThan(0.05);
        expect(Math.abs(model.pmax_w! - MODEL.pmaxW) / MODEL.pmaxW).toBeLessThan(0.1);
        expect(model.workouts).toBe(2);
      }
      // Out of the 42 days in December; still this season and of all time.
      h.clock = Date.UTC(2026, 11, 20);
      await r.signIn();
      expect((await r.get<Model>('/api/v2/training/power-model/')).reason).toBe('no_power');
      expect((await r.get<Model>('/api/v2/training/power-model/?window=all')).reason).toBeNull();
      const history = await r.get<{ points: (Model & { date: string })[] }>(
        '/api/v2/training/power-model/history/?months=3',
      );
      expect(history.points.map((point) => point.date)).toEqual([
        '2026-10-31',
        '2026-11-30',
        '2026-12-20',
      ]);
      expect(history.points[0]!.cp_w! / MODEL.cpW).toBeCloseTo(1, 1);
      // 30 November: the ride of 25 October is 36 days back; 20 December is 56.
      expect(history.points[1]!.reason).toBeNull();
      expect(history.points[2]!.reason).toBe('no_power');
      // Kept in the database too: a restarted process (or another replica) reads them, and
      // fits none again (a mark put in the kept row comes back as it is).
      const kept = await h.db.query<{ key: string }>(
        'SELECT key FROM window_models WHERE user_id = $1',
        [Number(r.id)],
      );
      expect(kept.length).toBeGreaterThanOrEqual(2);
      await h.db.query(
        `UPDATE window_models SET model = jsonb_set(model, '{points_used}', '4242')
          WHERE user_id = $1 AND model->>'reason' IS NULL`,
        [Number(r.id)],
      );
      forgetKeptModels(h.db);
      const restarted = await r.get<{ points: Model[] }>(
        '/api/v2/training/power-model/history/?months=3',
      );
      expect(restarted.points.map((point) => point.points_used)).toEqual([4242, 4242, null]);
      // Another rider sees none of it; bad windows are refused.
      const other = await rider(h);
      expect((await other.get<Model>('/api/v2/training/power-model/?window=all')).workouts).toBe(0);
      await r.get('/api/v2/training/power-model/?window=7d', 400);
      await r.get('/api/v2/training/power-model/history/?months=25', 400);
    }); // imports and analyses: past 5 s when this 2-core machine is shared

    it('answers nulls with a reason for a fit outside physiology', () => {
      // W' of 90 kJ: a curve no rider rides (too much work above CP).
      const implausible = { cpW: 250, wPrimeJ: 90_000, pmaxW: 1200 };
      const curve = Float64Array.from({ length: 1500 }, (_, i) => powerModelAt(implausible, i + 1));
      expect(powerModelOf(curve)).toMatchObject({ cp_w: null, reason: 'implausible' });
      const real = Float64Array.from({ length: 1500 }, (_, i) => powerModelAt(MODEL, i + 1));
      expect(powerModelOf(real).reason).toBeNull();
    });

    it("finds a ride's intervals, climb and matches as workout-stats does on its streams", async () => {
      const h = await make();
      const r = await rider(h);
      const ride = intervalRide();
      const id = await r.ride(fitOf(at(10, 20), ride.power, ride));
      type Analysis = {
        model_source: string | null;
        cp_w: number;
        w_prime_j: number;
        ftp_w: number;
        intervals: {
          start_s: number;
          end_s: number;
          duration_s: number;
          avg_power_w: number;
          np_w: number;
          avg_hr: number;
          avg_cadence: number;
          w_bal_end_j: number;
        }[];
        climbs: {
          start_s: number;
          end_s: number;
          length_m: number;
          gain_m: number;
          avg_grade_pct: number;
          category: string | null;
          avg_power_w: number;
        }[];
        matches: { start_s: number; end_s: number; joules: number; min_j: number }[];
        w_bal_min_j: number;
        decoupling_pct: number;
        efficiency_factor: number;
      };
      // No rides in the 42 days before: the ride's FTP is CP, with W' 20 kJ.
      const first = await r.get<Analysis>(`/api/v2/workouts/${id}/analysis/`);
      expect(first).toMatchObject({
        model_source: 'ftp',
        cp_w: 250,
        w_prime_j: 20_000,
        ftp_w: 250,
        threshold_source: 'settings',
      });
      expect(first.intervals.map((i) => [i.start_s, i.end_s])).toHaveLength(EFFORTS.length);
      first.intervals.forEach((interval, k) => {
        expect(Math.abs(interval.start_s - EFFORTS[k]![0])).toBeLessThanOrEqual(2);
        expect(Math.abs(interval.end_s - EFFORTS[k]![1])).toBeLessThanOrEqual(2);
        expect(interval.avg_power_w).toBeCloseTo(330, 0);
        expect(interval.avg_cadence).toBe(90);
      });
      expect(first.climbs).toHaveLength(1);
      const climb = first.climbs[0]!;
      expect(Math.abs(climb.start_s - CLIMB[0])).toBeLessThanOrEqual(2 + 100 / 8);
      expect(Math.abs(climb.end_s - CLIMB[1])).toBeLessThanOrEqual(2 + 100 / 8);
      expect(climb.avg_grade_pct).toBeGreaterThan(5);
      expect(climb.category).toBe('4');
      // Each 330 W effort of 4-5 minutes spends 80 W × 240-300 s = 19-24 kJ above 250 W.
      expect(first.matches).toHaveLength(EFFORTS.length);
      expect(first.w_bal_min_j).toBeLessThan(0);
      expect(first.decoupling_pct).toBeGreaterThan(0);

      // The same figures as the package's functions on the streams the API stored.
      const stored = rideStreamsOf((await readStreams(h, id))!)!;
      const power = stored.power!;
      const wbal = wPrimeBalance(power, 250, 20_000);
      const intervals = findIntervals(power, 250, {
        heartRate: stored.heartRate!,
        cadence: stored.cadence!,
        wbal,
      });
      expect(first.intervals).toEqual(
        intervals.map((i) => ({
          start_s: i.startS,
          end_s: i.endS,
          duration_s: i.durationS,
          avg_power_w: i.avgPowerW,
          np_w: i.npW,
          avg_hr: i.avgHr,
          avg_cadence: i.avgCadence,
          w_bal_end_j: i.wbalEndJ,
        })),
      );
      expect(first.matches).toEqual(
        matchesBurnt(power, wbal, 250).map((m) => ({
          start_s: m.start,
          end_s: m.end + 1,
          joules: m.spentJ,
          min_j: m.minJ,
        })),
      );
      const [direct] = findClimbs(stored.distance!, stored.altitude!, stored.time, power);
      expect([climb.start_s, climb.end_s, climb.length_m, climb.gain_m]).toEqual([
        stored.time[direct!.startIndex],
        stored.time[direct!.endIndex],
        direct!.lengthM,
        direct!.gainM,
      ]);
      expect(first.decoupling_pct).toBeCloseTo(decoupling(power, stored.heartRate!)!, 9);

      // W' balance beside the other streams, sample for sample.
      const streams = await r.get<{ streams: { w_bal: number[]; time: number[] } }>(
        `/api/v2/workouts/${id}/streams/?streams=time,w_bal&points=20000`,
      );
      expect(streams.streams.w_bal).toEqual(Array.from(wbal, (value) => Math.round(value) + 0));
      // Heart-rate and pace curves beside power and speed, when asked.
      const curves = await r.get<{
        heart_rate: { values: number[] };
        pace: { values: number[] };
        power: { values: number[] };
      }>(`/api/v2/workouts/${id}/power-curve/?include=heart_rate,pace&at=60`);
      expect(curves.heart_rate.values[0]).toBeCloseTo(heartRateCurve(stored.heartRate!)[59]!, 9);
      expect(curves.pace.values[0]).toBeCloseTo(paceCurve(stored.speed!)[59]!, 9);
      // Kept once computed: the second call reads them (the streams are not read again).
      const [kept] = await h.db.query<{ extra_at: Date | null }>(
        'SELECT extra_at FROM workout_curves WHERE workout_id = $1',
        [id],
      );
      expect(kept!.extra_at).not.toBeNull();
      await h.db.query('UPDATE workout_curves SET heart_rate = NULL WHERE workout_id = $1', [id]);
      const again = await r.get<{ heart_rate: object | null; pace: object }>(
        `/api/v2/workouts/${id}/power-curve/?include=heart_rate,pace&at=60`,
      );
      expect(again.heart_rate).toBeNull();
      expect(again.pace).toEqual(curves.pace);
      await r.get(`/api/v2/workouts/${id}/power-curve/?include=cadence`, 400);

      // A model ride 10 days before: the ride is now measured against it.
      await r.ride(fitOf(at(10, 10), modelRide()));
      const second = await r.get<Analysis>(`/api/v2/workouts/${id}/analysis/`);
      expect(second.model_source).toBe('model');
      expect(Math.abs(second.cp_w - MODEL.cpW) / MODEL.cpW).toBeLessThan(0.02);
      expect(second.matches).toEqual(
        matchesBurnt(power, wPrimeBalance(power, second.cp_w, second.w_prime_j), second.cp_w).map(
          (m) => ({ start_s: m.start, end_s: m.end + 1, joules: m.spentJ, min_j: m.minJ }),
        ),
      );

      // Another rider's ride is not found.
      const other = await rider(h);
      await other.get(`/api/v2/workouts/${id}/analysis/`, 404);
    }); // imports and analyses: past 5 s when this 2-core machine is shared

    it('analyses a ride with power but no FTP against an estimate, and says where it comes from', async () => {
      const h = await make();
      const r = await rider(h, null);
      type Analysis = {
        model_source: string | null;
        threshold_source: string | null;
        cp_w: number | null;
        w_prime_j: number | null;
        ftp_w: number | null;
        intervals: { start_s: number; end_s: number }[];
        matches: { start_s: number; end_s: number; joules: number; min_j: number }[];
        w_bal_min_j: number | null;
      };
      /** 30 minutes (`seconds`): 150 W with 4-minute efforts at 330 W from 300 s, 8 minutes apart. */
      const shortRide = (seconds: number) =>
        Float64Array.from({ length: seconds }, (_, i) =>
          i >= 300 && (i - 300) % 480 < 240 && i < seconds - 120 ? 330 : 150,
        );
      /** The best mean over `d` seconds, window by window (independent of the curves). */
      const bestMean = (power: Float64Array, d: number) => {
        let sum = 0;
        let best = 0;
        for (let i = 0; i < power.length; i++) {
          sum += power[i]! - (i >= d ? power[i - d]! : 0);
          if (i >= d - 1) best = Math.max(best, sum / d);
        }
        return best;
      };

      // No FTP anywhere, nothing before it: the ride's own best 20 minutes (95 %).
      const power = shortRide(1800);
      const id = await r.ride(fitOf(at(10, 1), power));
      const own = await r.get<Analysis>(`/api/v2/workouts/${id}/analysis/`);
      const estimate = 0.95 * bestMean(power, 1200);
      expect(own).toMatchObject({
        model_source: 'estimate',
        threshold_source: 'ride',
        w_prime_j: 20_000,
      });
      expect(own.ftp_w).toBeCloseTo(estimate, 6);
      expect(own.cp_w).toBe(own.ftp_w);
      // Its three efforts (330 W, well above 88 % of about 245 W), W' balance and matches.
      expect(own.intervals).toHaveLength(3);
      own.intervals.forEach((interval, k) => {
        expect(Math.abs(interval.start_s - (300 + 480 * k))).toBeLessThanOrEqual(2);
        expect(Math.abs(interval.end_s - (540 + 480 * k))).toBeLessThanOrEqual(2);
      });
      const stored = rideStreamsOf((await readStreams(h, id))!)!;
      const wbal = wPrimeBalance(stored.power!, own.cp_w!, 20_000);
      expect(own.w_bal_min_j).toBeCloseTo(Math.min(...wbal), 6);
      expect(own.w_bal_min_j).toBeLessThan(10_000);
      expect(own.matches.length).toBeGreaterThan(0);
      expect(own.matches).toEqual(
        matchesBurnt(stored.power!, wbal, own.cp_w!).map((m) => ({
          start_s: m.start,
          end_s: m.end + 1,
          joules: m.spentJ,
          min_j: m.minJ,
        })),
      );
      const streams = await r.get<{ streams: { w_bal: number[] } }>(
        `/api/v2/workouts/${id}/streams/?streams=time,w_bal&points=20000`,
      );
      expect(streams.streams.w_bal).toEqual(Array.from(wbal, (value) => Math.round(value) + 0));
      // One ride of 4-minute efforts makes no power model.
      expect((await r.get<Model>('/api/v2/training/power-model/')).reason).not.toBeNull();

      // Five days later, a 20-minute ride: the FTP of the rides before it (the first one's).
      const next = await r.ride(fitOf(at(10, 6), shortRide(1200)));
      const history = await r.get<Analysis>(`/api/v2/workouts/${next}/analysis/`);
      expect(history).toMatchObject({ model_source: 'estimate', threshold_source: 'history' });
      expect(history.ftp_w).toBeCloseTo(estimate, 6);
      expect(history.intervals.length).toBeGreaterThan(0);

      // A ride whose file holds the device's FTP is measured against it.
      const file = await r.ride(fitOf(at(10, 8), shortRide(1200), { ftpWatts: 240 }));
      expect(await r.get<Analysis>(`/api/v2/workouts/${file}/analysis/`)).toMatchObject({
        model_source: 'ftp',
        threshold_source: 'file',
        cp_w: 240,
        ftp_w: 240,
      });

      // After a ride that makes a model: its eFTP, and its CP and W'.
      await r.ride(fitOf(at(10, 10), modelRide()));
      const later = await r.ride(fitOf(at(10, 12), shortRide(1800)));
      const modelled = await r.get<Analysis>(`/api/v2/workouts/${later}/analysis/`);
      expect(modelled).toMatchObject({ model_source: 'model', threshold_source: 'model' });
      expect(Math.abs(modelled.cp_w! - MODEL.cpW) / MODEL.cpW).toBeLessThan(0.05);
      expect(modelled.ftp_w).toBeLessThanOrEqual(modelled.cp_w!);

      // A new ride before it changes the rides it is measured against: analysed again.
      const [kept] = await h.db.query<{ key: string }>(
        'SELECT analysis_key AS key FROM workout_facts WHERE workout_id = $1',
        [id],
      );
      await r.ride(fitOf(at(9, 25), modelRide()));
      const again = await r.get<Analysis>(`/api/v2/workouts/${id}/analysis/`);
      expect(again).toMatchObject({ model_source: 'model', threshold_source: 'model' });
      const [redone] = await h.db.query<{ key: string }>(
        'SELECT analysis_key AS key FROM workout_facts WHERE workout_id = $1',
        [id],
      );
      expect(redone!.key).not.toBe(kept!.key);
    }); // six imports and analyses: past 5 s when this 2-core machine is shared

    it('has each ride analysed right after its import, and again when its 42 days change', async () => {
      const h = await make();
      const r = await rider(h);
      type Kept = { analysis: { model_source: string; cp_w: number } | null; key: string | null };
      const kept = async (id: number) =>
        (
          await h.db.query<Kept>(
            'SELECT analysis, analysis_key AS key FROM workout_facts WHERE workout_id = $1',
            [id],
          )
        )[0]!;
      const ride = intervalRide();
      const id = await r.ride(fitOf(at(10, 20), ride.power, ride));
      await analysisIdle();
      // Computed in the background: analysis, heart-rate and pace curves, before any call.
      const first = await kept(id);
      expect(first.analysis).toMatchObject({ model_source: 'ftp', cp_w: 250 });
      const [curves] = await h.db.query<{ extra_at: Date | null }>(
        'SELECT extra_at FROM workout_curves WHERE workout_id = $1',
        [id],
      );
      expect(curves!.extra_at).not.toBeNull();
      // The call reads what was kept.
      expect(await r.get(`/api/v2/workouts/${id}/analysis/`)).toEqual(first.analysis);
      expect((await kept(id)).key).toBe(first.key);

      // A ride imported afterwards but ridden 10 days before: the first is analysed again
      // against the model it makes, in the background too.
      const model = await r.ride(fitOf(at(10, 10), modelRide()));
      await analysisIdle();
      const second = await kept(id);
      expect(second.key).not.toBe(first.key);
      expect(second.analysis!.model_source).toBe('model');
      expect(Math.abs(second.analysis!.cp_w - MODEL.cpW) / MODEL.cpW).toBeLessThan(0.02);
      const fitted = await r.get<Model>('/api/v2/training/power-model/');
      expect(fitted.reason).toBeNull();
      const history = await r.get<{ points: Model[] }>(
        '/api/v2/training/power-model/history/?months=2',
      );
      expect(history.points.at(-1)).toMatchObject({ cp_w: fitted.cp_w, reason: null });

      // Left out of bests by its rider (a correction rewrites its streams): the models and
      // the first ride's analysis no longer count it.
      const patched = await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/workouts/${model}/`,
        headers: bearer(r.access),
        payload: { exclude_from_bests: true },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect((await r.get<Model>('/api/v2/training/power-model/')).reason).not.toBeNull();
      const history2 = await r.get<{ points: Model[] }>(
        '/api/v2/training/power-model/history/?months=2',
      );
      expect(history2.points.at(-1)!.reason).not.toBeNull();
      const third = await r.get<{ model_source: string }>(`/api/v2/workouts/${id}/analysis/`);
      expect(third.model_source).toBe('ftp');
    }); // imports, corrections and analyses: past 5 s when this 2-core machine is shared

    it('serves the efficiency trend and the best climbs, analysing older rides on first need', async () => {
      const h = await make();
      const r = await rider(h);
      const ride = intervalRide();
      const a = await r.ride(fitOf(at(10, 20), ride.power, ride));
      const b = await r.ride(fitOf(at(10, 22), modelRide(1500, 2400)));
      type Efficiency = {
        points: { workout_id: number; efficiency_factor: number; decoupling_pct: number | null }[];
        pending: number;
      };
      const url = '/api/v2/training/efficiency/?from=2026-10-01&to=2026-11-01';
      const trend = await r.get<Efficiency>(url);
      expect(trend.points.map((point) => point.workout_id)).toEqual([a, b]);
      expect(trend.pending).toBe(0);
      for (const point of trend.points) {
        const detail = await r.get<{ summary: { np: number; hr_avg: number } }>(
          `/api/v2/workouts/${point.workout_id}/`,
        );
        expect(point.efficiency_factor).toBeCloseTo(detail.summary.np / detail.summary.hr_avg, 6);
      }
      // Rides imported before the facts were kept have no row: computed when first asked.
      await h.db.query('DELETE FROM workout_facts');
      expect(await r.get<Efficiency>(url)).toEqual(trend);
      const climbs = await r.get<{ climbs: { workout_id: number; category: string }[] }>(
        '/api/v2/training/climbs/?limit=5',
      );
      expect(climbs.climbs.map((c) => [c.workout_id, c.category])).toEqual([[a, '4']]);
      const other = await rider(h);
      expect((await other.get<Efficiency>(url)).points).toEqual([]);
      await r.get('/api/v2/training/efficiency/?from=2026-10-01&to=2026-09-01', 400);
    }); // imports and analyses: past 5 s when this 2-core machine is shared
  });
}
