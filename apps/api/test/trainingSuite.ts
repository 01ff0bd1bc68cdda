import { fitnessSeries } from '@xoss/workout-stats';
import { describe, expect, it } from 'vitest';
import { migrations } from '../src/platform/db/migrations.ts';
import { backfillBests } from '../src/training/days.ts';
import { bearer, fitFile, upload, type Harness } from './harness.ts';

const DAY_S = 86_400;
/** 06:00 UTC of a day of 2026 (the harness's clock is 2026-11-01). */
const at = (month: number, day: number) => Date.UTC(2026, month - 1, day, 6) / 1000;

interface FitnessDay {
  day: string;
  tss: number;
  ctl: number;
  atl: number;
  form: number;
  ramp: number;
}

/** The training-over-time endpoints: fitness chart, log, totals, bests, FTP estimate. */
export function defineTrainingSuite(make: () => Promise<Harness>): void {
  describe('training over time', () => {
    async function rider(h: Harness, ftp = 250) {
      const user = await h.user();
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${user.id}/`,
        headers: bearer(user.access),
        payload: { settings: { ftp, max_hr: 185 }, thresholds_from: '2020-01-01' },
      });
      const get = async <T>(url: string) => {
        const reply = await h.server.inject({ method: 'GET', url, headers: bearer(user.access) });
        expect(reply.statusCode, reply.body).toBe(200);
        return reply.json<{ data: T }>().data;
      };
      const ride = async (seconds: number, seed: number, start: number) => {
        const reply = await upload(h, '/api/v2/workouts/', user.access, {
          filename: 'ride.fit',
          bytes: fitFile(seconds, seed, start),
        });
        expect(reply.statusCode, reply.body).toBe(201);
        return reply.json<{ data: { id: number; tss: number; start_time: string } }>().data;
      };
      return { ...user, get, ride };
    }

    /** The fitness chart recomputed from the rides' own TSS, day by day from `from`. */
    function expectedFitness(
      rides: { tss: number; start_time: string }[],
      from: string,
      n: number,
    ) {
      const tss = new Array<number>(n).fill(0);
      const first = Date.parse(`${from}T00:00:00Z`);
      for (const ride of rides) {
        const index = Math.floor((Date.parse(ride.start_time) - first) / (DAY_S * 1000));
        if (index >= 0 && index < n) tss[index]! += ride.tss;
      }
      return fitnessSeries(tss);
    }

    it('answers the fitness chart of any range from the daily totals, following imports, deletes and FTP changes', async () => {
      const h = await make();
      const r = await rider(h);
      const rides = [
        await r.ride(1500, 31, at(9, 2)),
        await r.ride(1200, 32, at(9, 2) + 3 * 3600),
        await r.ride(1800, 33, at(9, 20)),
        // Imported out of order: an older ride still moves every later day.
        await r.ride(1200, 34, at(8, 28)),
      ];
      for (const ride of rides) expect(ride.tss).toBeGreaterThan(0);
      const all = await r.get<{ from: string; to: string; first_day: string; days: FitnessDay[] }>(
        '/api/v2/training/fitness/',
      );
      expect(all.first_day).toBe('2026-08-28');
      expect(all.from).toBe('2026-08-28');
      expect(all.to).toBe('2026-11-02'); // up to today
      const expected = expectedFitness(rides, all.from, all.days.length);
      all.days.forEach((day, i) => {
        expect(day.tss).toBeCloseTo(expected[i]!.tss, 6);
        expect(day.ctl).toBeCloseTo(expected[i]!.ctl, 6);
        expect(day.atl).toBeCloseTo(expected[i]!.atl, 6);
        expect(day.form).toBeCloseTo(expected[i]!.form, 6);
        expect(day.ramp).toBeCloseTo(expected[i]!.ramp, 6);
      });
      // Two rides on one day add up; days without rides are zero and decay.
      const sept2 = all.days.find((day) => day.day === '2026-09-02')!;
      expect(sept2.tss).toBeCloseTo(rides[0]!.tss + rides[1]!.tss, 6);
      expect(all.days.find((day) => day.day === '2026-09-03')!.tss).toBe(0);

      // A range inside the history starts from the state before it: the same days.
      const part = await r.get<{ days: FitnessDay[] }>(
        '/api/v2/training/fitness/?from=2026-09-15&to=2026-10-01',
      );
      expect(part.days.map((day) => day.day)[0]).toBe('2026-09-15');
      expect(part.days).toHaveLength(16);
      const offset = all.days.findIndex((day) => day.day === '2026-09-15');
      part.days.forEach((day, i) => {
        expect(day.ctl).toBeCloseTo(all.days[offset + i]!.ctl, 9);
        expect(day.atl).toBeCloseTo(all.days[offset + i]!.atl, 9);
        expect(day.ramp).toBeCloseTo(all.days[offset + i]!.ramp, 9);
      });

      // Deleting a ride takes its TSS out of its day and of every later day's fitness.
      const deleted = await h.server.inject({
        method: 'DELETE',
        url: `/api/v2/workouts/${rides[1]!.id}/`,
        headers: bearer(r.access),
      });
      expect(deleted.statusCode).toBe(200);
      const kept = [rides[0]!, rides[2]!, rides[3]!];
      const afterDelete = await r.get<{ days: FitnessDay[] }>(
        '/api/v2/training/fitness/?from=2026-08-28&to=2026-11-02',
      );
      const expectedAfter = expectedFitness(kept, '2026-08-28', afterDelete.days.length);
      afterDelete.days.forEach((day, i) => expect(day.ctl).toBeCloseTo(expectedAfter[i]!.ctl, 6));

      // A new FTP from 10 September recomputes the TSS of the ride after it, and the chart.
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${r.id}/`,
        headers: bearer(r.access),
        payload: { settings: { ftp: 300 }, thresholds_from: '2026-09-10' },
      });
      const list = await r.get<{ results: { id: number; tss: number; start_time: string }[] }>(
        '/api/v2/workouts/',
      );
      const changed = list.results.find((ride) => ride.id === rides[2]!.id)!;
      expect(changed.tss).toBeLessThan(rides[2]!.tss);
      const afterFtp = await r.get<{ days: FitnessDay[] }>(
        '/api/v2/training/fitness/?from=2026-08-28&to=2026-11-02',
      );
      const expectedFtp = expectedFitness(list.results, '2026-08-28', afterFtp.days.length);
      afterFtp.days.forEach((day, i) => {
        expect(day.tss).toBeCloseTo(expectedFtp[i]!.tss, 6);
        expect(day.ctl).toBeCloseTo(expectedFtp[i]!.ctl, 6);
      });

      // The migration's backfill of rides stored before the daily totals existed gives the
      // same rows as the import, delete and FTP-change path.
      type DayRow = { user_id: number; day: string; tss: number; ctl: number; atl: number };
      const dailyRows = () =>
        h.db.query<DayRow>(
          `SELECT user_id, to_char(day, 'YYYY-MM-DD') AS day, tss, ctl, atl FROM daily_load
            WHERE rides > 0 ORDER BY user_id, day`,
        );
      const incremental = await dailyRows();
      const backfill = migrations
        .find((sql) => sql.includes('CREATE TABLE daily_load'))!
        .split(/;\s*\n/)
        .filter((statement) => /^\s*(INSERT INTO|UPDATE) daily_load/.test(statement));
      expect(backfill).toHaveLength(2);
      await h.db.query('DELETE FROM daily_load');
      for (const statement of backfill) await h.db.query(statement);
      const migrated = await dailyRows();
      expect(migrated.map((row) => row.day)).toEqual(incremental.map((row) => row.day));
      migrated.forEach((row, i) => {
        expect(row.tss).toBeCloseTo(incremental[i]!.tss, 6);
        expect(row.ctl).toBeCloseTo(incremental[i]!.ctl, 6);
        expect(row.atl).toBeCloseTo(incremental[i]!.atl, 6);
      });

      // Another rider's rides never show; a rider without rides gets zeros.
      const other = await rider(h);
      const empty = await other.get<{ first_day: null; days: FitnessDay[] }>(
        '/api/v2/training/fitness/?from=2026-09-01&to=2026-09-08',
      );
      expect(empty.first_day).toBeNull();
      expect(empty.days.map((day) => day.ctl)).toEqual(new Array(7).fill(0));
    });

    it('refuses bad dates and ranges with 400', async () => {
      const h = await make();
      const r = await rider(h);
      for (const url of [
        '/api/v2/training/fitness/?from=2026-09-10&to=2026-09-01',
        '/api/v2/training/fitness/?from=2026-02-30',
        '/api/v2/training/fitness/?from=1990-01-01&to=2026-01-01',
        '/api/v2/training/log/?from=2026-01-01&to=2026-06-01',
        '/api/v2/training/log/?from=2026-01-01',
        '/api/v2/training/totals/?year=20x6&period=week',
        '/api/v2/training/totals/?year=2026&period=day',
        '/api/v2/training/bests/?year=1066',
      ]) {
        const reply = await h.server.inject({ method: 'GET', url, headers: bearer(r.access) });
        expect(reply.statusCode, url).toBe(400);
        expect(reply.json<{ code: number }>().code).toBe(10400);
      }
      const tooLong = await h.server.inject({
        method: 'GET',
        url: '/api/v2/training/fitness/?from=1990-01-01&to=2026-01-01',
        headers: bearer(r.access),
      });
      expect(tooLong.json<{ detail: string }>().detail).toContain('at most 7320 days');
      expect(
        (await h.server.inject({ method: 'GET', url: '/api/v2/training/fitness/' })).statusCode,
      ).toBe(401);
    });

    it('lists each day of the log with its rides and weekly totals, and weekly or monthly totals of a year', async () => {
      const h = await make();
      const r = await rider(h);
      const a = await r.ride(1200, 41, at(9, 29)); // Tuesday
      const b = await r.ride(900, 42, at(9, 29) + 7200);
      const c = await r.ride(1500, 43, at(10, 5)); // Monday of the next week
      const log = await r.get<{
        days: {
          start: string;
          rides: number;
          tss: number;
          distance_m: number;
          rides_list: { id: number }[];
        }[];
        weeks: { start: string; rides: number; tss: number; moving_time_s: number }[];
      }>('/api/v2/training/log/?from=2026-09-28&to=2026-10-12');
      expect(log.days).toHaveLength(14);
      const day = log.days.find((d) => d.start === '2026-09-29')!;
      expect(day.rides_list.map((ride) => ride.id)).toEqual([a.id, b.id]);
      expect(day.rides).toBe(2);
      expect(day.tss).toBeCloseTo(a.tss + b.tss, 6);
      expect(log.days.filter((d) => d.rides === 0)).toHaveLength(12);
      expect(log.weeks.map((week) => [week.start, week.rides])).toEqual([
        ['2026-09-28', 2],
        ['2026-10-05', 1],
      ]);
      expect(log.weeks[1]!.tss).toBeCloseTo(c.tss, 6);

      const totals = await r.get<{ count: number; distance_m: number; moving_time_s: number }>(
        '/api/v2/workouts/totals/?from=2026-01-01&to=2027-01-01',
      );
      const months = await r.get<{
        periods: { start: string; rides: number; distance_m: number; moving_time_s: number }[];
      }>('/api/v2/training/totals/?year=2026&period=month');
      expect(months.periods).toHaveLength(12);
      expect(months.periods.map((month) => month.rides)).toEqual([
        0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0,
      ]);
      const sum = (values: number[]) => values.reduce((x, y) => x + y, 0);
      expect(sum(months.periods.map((m) => m.distance_m))).toBeCloseTo(totals.distance_m, 6);
      expect(sum(months.periods.map((m) => m.moving_time_s))).toBeCloseTo(totals.moving_time_s, 6);
      const weeks = await r.get<{ periods: { start: string; rides: number }[] }>(
        '/api/v2/training/totals/?year=2026&period=week',
      );
      // 2026 starts on a Thursday: its first week is Monday 29 December 2025.
      expect(weeks.periods[0]!.start).toBe('2025-12-29');
      expect(weeks.periods).toHaveLength(53);
      expect(weeks.periods.filter((week) => week.rides > 0)).toEqual([
        expect.objectContaining({ start: '2026-09-28', rides: 2 }),
        expect.objectContaining({ start: '2026-10-05', rides: 1 }),
      ]);
    });

    it("stores each ride's best efforts and ranks them per year and of all time, with an FTP estimate and suggestion", async () => {
      const h = await make();
      const r = await rider(h, 150);
      // Three hour-long rides: two in 2026, one in 2025.
      const rides = [
        await r.ride(4500, 51, at(3, 1)),
        await r.ride(4500, 52, at(6, 1)),
        await r.ride(4500, 53, Date.UTC(2025, 5, 1, 6) / 1000),
      ];
      type Bests = {
        year: number;
        efforts: { effort: string; value: number; year_rank: number; all_time_rank: number }[];
        ftp_suggestion: number | null;
      };
      const bestsOf = await Promise.all(
        rides.map((ride) => r.get<Bests>(`/api/v2/workouts/${ride.id}/bests/`)),
      );
      expect(bestsOf[0]!.efforts.map((e) => e.effort)).toEqual([
        'power_5s',
        'power_60s',
        'power_300s',
        'power_1200s',
        'power_3600s',
        'time_10000m',
        'time_20000m',
      ]);
      for (const bests of bestsOf) {
        const value = (effort: string) => bests.efforts.find((e) => e.effort === effort)!.value;
        // Longer efforts are never stronger; 20 km takes longer than 10 km.
        expect(value('power_5s')).toBeGreaterThanOrEqual(value('power_60s'));
        expect(value('power_1200s')).toBeGreaterThanOrEqual(value('power_3600s'));
        expect(value('time_20000m')).toBeGreaterThan(value('time_10000m'));
      }
      // The ranks agree with the values: per effort, in the year and of all time.
      for (const effort of bestsOf[0]!.efforts.map((e) => e.effort)) {
        const entries = bestsOf.map((bests, i) => ({
          i,
          ...bests.efforts.find((e) => e.effort === effort)!,
        }));
        const better = (x: { value: number }, y: { value: number }) =>
          effort.startsWith('power') ? x.value > y.value : x.value < y.value;
        for (const entry of entries) {
          const allTime = 1 + entries.filter((other) => better(other, entry)).length;
          expect(entry.all_time_rank, effort).toBe(allTime);
          const sameYear = entries.filter((other) => other.i < 2 === entry.i < 2);
          expect(entry.year_rank, effort).toBe(
            1 + sameYear.filter((other) => better(other, entry)).length,
          );
        }
      }

      // A ride stored before best efforts were kept gets the same ones from its stored
      // streams and curve, after start.
      await h.db.query('DELETE FROM workout_bests WHERE workout_id = $1', [rides[0]!.id]);
      await h.db.query('UPDATE workouts SET bests_pending = true WHERE id = $1', [rides[0]!.id]);
      expect(await backfillBests(h)).toBe(1);
      expect(await backfillBests(h)).toBe(0);
      const backfilled = await r.get<Bests>(`/api/v2/workouts/${rides[0]!.id}/bests/`);
      expect(backfilled.efforts.map((e) => e.effort)).toEqual(
        bestsOf[0]!.efforts.map((e) => e.effort),
      );
      backfilled.efforts.forEach((effort, i) =>
        expect(effort.value).toBeCloseTo(bestsOf[0]!.efforts[i]!.value, 6),
      );

      type BestsPage = {
        year: number | null;
        efforts: { effort: string; bests: { rank: number; value: number; workout_id: number }[] }[];
      };
      const allTime = await r.get<BestsPage>('/api/v2/training/bests/');
      expect(allTime.efforts).toHaveLength(8);
      const fiveMin = allTime.efforts.find((e) => e.effort === 'power_300s')!.bests;
      expect(fiveMin.map((b) => b.rank)).toEqual([1, 2, 3]);
      expect(fiveMin[0]!.value).toBeGreaterThanOrEqual(fiveMin[1]!.value);
      const tenK = allTime.efforts.find((e) => e.effort === 'time_10000m')!.bests;
      expect(tenK[0]!.value).toBeLessThanOrEqual(tenK[1]!.value);
      expect(allTime.efforts.find((e) => e.effort === 'time_40000m')!.bests).toEqual([]);
      const in2025 = await r.get<BestsPage>('/api/v2/training/bests/?year=2025&limit=5');
      expect(in2025.efforts[0]!.bests.map((b) => b.workout_id)).toEqual([rides[2]!.id]);

      // FTP: the spec's best hour, or 95 % of the best 20 minutes, over the season.
      const power = (bests: Bests, effort: string) =>
        bests.efforts.find((e) => e.effort === effort)!.value;
      const season = bestsOf.slice(0, 2);
      const hour = Math.max(...season.map((b) => power(b, 'power_3600s')));
      const twenty = Math.max(...season.map((b) => power(b, 'power_1200s')));
      type Ftp = {
        rule: string;
        estimate: number;
        estimate_hour: number;
        estimate_twenty: number;
        suggestion: number | null;
        ftp: number;
        weight_kg: number | null;
        history: { from: string; ftp: number }[];
      };
      const ftp = await r.get<Ftp>('/api/v2/training/ftp/?days=300');
      expect(ftp).toMatchObject({
        rule: 'hour',
        estimate_hour: Math.round(hour),
        estimate_twenty: Math.round(twenty * 0.95),
        estimate: Math.round(hour),
        ftp: 150,
      });
      expect(ftp.suggestion).toBe(ftp.estimate > 150 ? ftp.estimate : null);
      expect(ftp.history).toEqual([{ from: '1970-01-01', ftp: 150, max_hr: 185 }]);
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${r.id}/`,
        headers: bearer(r.access),
        payload: { settings: { ftp_rule: 'twenty', weight_kg: 68.5, ftp: 700 } },
      });
      const twentyRule = await r.get<Ftp>('/api/v2/training/ftp/?days=300');
      expect(twentyRule).toMatchObject({
        rule: 'twenty',
        estimate: Math.round(twenty * 0.95),
        ftp: 700,
        suggestion: null,
        weight_kg: 68.5,
      });
      expect(twentyRule.history.map((row) => row.ftp)).toEqual([150, 700]);
      expect((await r.get<Bests>(`/api/v2/workouts/${rides[0]!.id}/bests/`)).ftp_suggestion).toBe(
        null,
      );
      // Deleting a ride removes its efforts from the lists.
      await h.server.inject({
        method: 'DELETE',
        url: `/api/v2/workouts/${rides[2]!.id}/`,
        headers: bearer(r.access),
      });
      const afterDelete = await r.get<BestsPage>('/api/v2/training/bests/?year=2025');
      expect(afterDelete.efforts.every((e) => e.bests.length === 0)).toBe(true);
      // Another rider's ride is not found.
      const other = await rider(h);
      const foreign = await h.server.inject({
        method: 'GET',
        url: `/api/v2/workouts/${rides[0]!.id}/bests/`,
        headers: bearer(other.access),
      });
      expect(foreign.statusCode).toBe(404);
    });
  });
}
