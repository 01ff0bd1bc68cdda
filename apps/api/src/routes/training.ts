// Over 300 lines: the training pages' routes (log, fitness, bests, FTP estimate, weight) share
// their period and day helpers; splitting them would spread one set of rules.
import { ErrorCode, type Effort, type PeriodTotals } from '@xoss/api-contract';
import { addDays, dayOf, daysBetween, mondayOf } from '@xoss/workout-stats';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound } from '../http.ts';
import { route } from '../route.ts';
import type { Services } from '../services.ts';
import { thresholdHistory, thresholdsOn } from '../workouts/thresholds.ts';
import { EFFORTS, fitnessRange } from '../workouts/training.ts';

/** The longest fitness chart: 20 years of days. */
const FITNESS_MAX_DAYS = 7_320;
/** The longest training log: two months (a month calendar needs six weeks). */
const LOG_MAX_DAYS = 62;
/** The share of the best 20-minute power the `twenty` rule takes as FTP. */
const TWENTY_MINUTE_FACTOR = 0.95;

const badRange = (detail: string, path = 'query') =>
  new ApiError(ErrorCode.ValidationFailed, detail, { errors: [{ path, message: detail }] });

function checkRange(from: string, to: string, maxDays: number): number {
  const days = daysBetween(from, to);
  if (!(days >= 1)) throw badRange('`to` must be after `from`', 'to');
  if (days > maxDays)
    throw badRange(`A range may span at most ${maxDays} days; this one spans ${days}`, 'to');
  return days;
}

interface DayRow {
  day: string;
  rides: number;
  moving_time_s: number;
  distance_m: number;
  elevation_gain_m: number;
  tss: number;
}

const emptyTotals = (start: string): PeriodTotals => ({
  start,
  rides: 0,
  moving_time_s: 0,
  distance_m: 0,
  elevation_gain_m: 0,
  tss: 0,
});

function addTo(totals: PeriodTotals, row: DayRow): void {
  totals.rides += row.rides;
  totals.moving_time_s += row.moving_time_s;
  totals.distance_m += row.distance_m;
  totals.elevation_gain_m += row.elevation_gain_m;
  totals.tss += row.tss;
}

const DAY_COLUMNS = `to_char(day, 'YYYY-MM-DD') AS day, rides, moving_time_s, distance_m,
  elevation_gain_m, tss`;

export function trainingRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;
  const today = () => dayOf(new Date(services.now()));
  /** The rider's FTP in force today (the latest change on or before it). */
  const ftpToday = (history: Awaited<ReturnType<typeof thresholdHistory>>) =>
    thresholdsOn(history, new Date(services.now()), { ftp: null, maxHr: null }).ftp;

  route(app, services, 'trainingFitness', async ({ userId, query }) => {
    const [first] = await db.query<{ day: string }>(
      `SELECT to_char(min(day), 'YYYY-MM-DD') AS day FROM daily_load WHERE user_id = $1 AND rides > 0`,
      [userId],
    );
    const firstDay = first?.day ?? null;
    const to = query.to ?? addDays(today(), 1);
    // All time: from the first ride, at most the longest range back.
    const earliest = addDays(to, -FITNESS_MAX_DAYS);
    const from =
      query.from ??
      (firstDay === null ? addDays(to, -1) : firstDay < earliest ? earliest : firstDay);
    checkRange(from, to, FITNESS_MAX_DAYS);
    const days = await fitnessRange(db, userId!, from, to);
    return { from, to, first_day: firstDay, days };
  });

  route(app, services, 'trainingLog', async ({ userId, query }) => {
    const { from, to } = query;
    const length = checkRange(from, to, LOG_MAX_DAYS);
    const [rows, rides] = await Promise.all([
      db.query<DayRow>(
        `SELECT ${DAY_COLUMNS} FROM daily_load
          WHERE user_id = $1 AND day >= $2::date AND day < $3::date AND rides > 0`,
        [userId, from, to],
      ),
      db.query<{
        id: number;
        name: string;
        sport_type: number;
        start_time: Date;
        moving_time_s: number;
        distance_m: number;
        elevation_gain_m: number | null;
        tss: number | null;
      }>(
        `SELECT id, name, sport_type, start_time, moving_time_s, distance_m, elevation_gain_m, tss
           FROM workouts WHERE user_id = $1 AND start_time >= $2 AND start_time < $3
          ORDER BY start_time, id`,
        [userId, new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`)],
      ),
    ]);
    const days = Array.from({ length }, (_, i) => ({
      ...emptyTotals(addDays(from, i)),
      rides_list: [] as {
        id: number;
        name: string;
        sport_type: number;
        start_time: string;
        moving_time_s: number;
        distance_m: number;
        elevation_gain_m: number | null;
        tss: number | null;
      }[],
    }));
    for (const row of rows) addTo(days[daysBetween(from, row.day)]!, row);
    for (const ride of rides) {
      const start = new Date(ride.start_time);
      days[daysBetween(from, dayOf(start))]!.rides_list.push({
        ...ride,
        start_time: start.toISOString(),
      });
    }
    const weeks = new Map<string, PeriodTotals>();
    for (const day of days) {
      const monday = mondayOf(day.start);
      let week = weeks.get(monday);
      if (!week) weeks.set(monday, (week = emptyTotals(monday)));
      addTo(week, { ...day, day: day.start });
    }
    return { from, to, days, weeks: [...weeks.values()] };
  });

  route(app, services, 'trainingTotals', async ({ userId, query }) => {
    const { year, period } = query;
    const from = `${year}-01-01`;
    const to = `${year + 1}-01-01`;
    const rows = await db.query<DayRow>(
      `SELECT ${DAY_COLUMNS} FROM daily_load
        WHERE user_id = $1 AND day >= $2::date AND day < $3::date AND rides > 0 ORDER BY day`,
      [userId, from, to],
    );
    const periods = new Map<string, PeriodTotals>();
    if (period === 'month') {
      for (let month = 1; month <= 12; month++) {
        const start = `${year}-${String(month).padStart(2, '0')}-01`;
        periods.set(start, emptyTotals(start));
      }
    } else {
      for (let monday = mondayOf(from); monday < to; monday = addDays(monday, 7))
        periods.set(monday, emptyTotals(monday));
    }
    for (const row of rows) {
      const key = period === 'month' ? `${row.day.slice(0, 7)}-01` : mondayOf(row.day);
      addTo(periods.get(key)!, row);
    }
    return { year, period, periods: [...periods.values()] };
  });

  route(app, services, 'personalBests', async ({ userId, query }) => {
    const year = query.year ?? null;
    const since = year === null ? null : new Date(Date.UTC(year, 0, 1));
    const until = year === null ? null : new Date(Date.UTC(year + 1, 0, 1));
    // Each effort's best rides straight from the ranking index: cost grows with `limit`.
    const rows = await db.query<{
      effort: Effort;
      value: number;
      workout_id: number;
      name: string;
      start_time: Date;
    }>(
      `SELECT e.effort, r.value, r.workout_id, r.name, r.start_time, r.score
         FROM unnest($2::text[]) WITH ORDINALITY AS e(effort, position)
         CROSS JOIN LATERAL (
           SELECT b.value, b.score, b.workout_id, w.name, b.start_time FROM workout_bests b
             JOIN workouts w ON w.id = b.workout_id
            WHERE b.user_id = $1 AND b.effort = e.effort
              AND ($3::timestamptz IS NULL OR b.start_time >= $3::timestamptz)
              AND ($4::timestamptz IS NULL OR b.start_time < $4::timestamptz)
            ORDER BY b.score DESC, b.start_time, b.workout_id LIMIT $5) r
        ORDER BY e.position, r.score DESC, r.start_time, r.workout_id`,
      [userId, EFFORTS.map((effort) => effort.name), since, until, query.limit],
    );
    return {
      year,
      efforts: EFFORTS.map((effort) => {
        const bests = rows.filter((row) => row.effort === effort.name);
        return {
          effort: effort.name as Effort,
          bests: bests.map((row, index) => ({
            rank: index + 1,
            value: row.value,
            workout_id: row.workout_id,
            name: row.name,
            start_time: new Date(row.start_time).toISOString(),
          })),
        };
      }),
    };
  });

  route(app, services, 'ftpEstimate', async ({ userId, query }) => {
    const to = addDays(today(), 1);
    const from = addDays(to, -query.days);
    const [user] = await db.query<{ weight_kg: number | null; ftp_rule: 'hour' | 'twenty' }>(
      'SELECT weight_kg, ftp_rule FROM users WHERE id = $1',
      [userId],
    );
    const seasonBest = async (effort: string) => {
      const [row] = await db.query<{ value: number; workout_id: number; start_time: Date }>(
        `SELECT value, workout_id, start_time FROM workout_bests
          WHERE user_id = $1 AND effort = $2 AND start_time >= $3 AND start_time < $4
          ORDER BY score DESC, start_time LIMIT 1`,
        [userId, effort, new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`)],
      );
      return row
        ? {
            value: row.value,
            workout_id: row.workout_id,
            start_time: new Date(row.start_time).toISOString(),
          }
        : null;
    };
    const [hour, twenty, history] = await Promise.all([
      seasonBest('power_3600s'),
      seasonBest('power_1200s'),
      thresholdHistory(db, userId!),
    ]);
    const rule = user?.ftp_rule ?? 'hour';
    const estimateHour = hour ? Math.round(hour.value) : null;
    const estimateTwenty = twenty ? Math.round(twenty.value * TWENTY_MINUTE_FACTOR) : null;
    const estimate = rule === 'hour' ? estimateHour : estimateTwenty;
    const ftp = ftpToday(history);
    return {
      from,
      to,
      rule,
      best_60min: hour,
      best_20min: twenty,
      estimate_hour: estimateHour,
      estimate_twenty: estimateTwenty,
      estimate,
      ftp,
      suggestion: estimate !== null && (ftp === null || estimate > ftp) ? estimate : null,
      weight_kg: user?.weight_kg ?? null,
      history: history.map((row) => ({
        from: String(row.effective_from),
        ftp: row.ftp,
        max_hr: row.max_hr,
      })),
    };
  });

  route(app, services, 'workoutBests', async ({ userId, params }) => {
    const [ride] = await db.query<{ start_time: Date }>(
      'SELECT start_time FROM workouts WHERE id = $1 AND user_id = $2',
      [params.id, userId],
    );
    if (!ride) throw notFound('Workout');
    const start = new Date(ride.start_time);
    const year = start.getUTCFullYear();
    // Rank: rides with a better score, or the same score earlier, come first.
    const rows = await db.query<{
      effort: Effort;
      value: number;
      year_rank: number;
      all_time_rank: number;
    }>(
      `SELECT b.effort, b.value,
              1 + (SELECT count(*)::int FROM workout_bests o
                    WHERE o.user_id = b.user_id AND o.effort = b.effort
                      AND o.start_time >= $3 AND o.start_time < $4
                      AND (o.score > b.score OR (o.score = b.score
                           AND (o.start_time, o.workout_id) < (b.start_time, b.workout_id)))) AS year_rank,
              1 + (SELECT count(*)::int FROM workout_bests o
                    WHERE o.user_id = b.user_id AND o.effort = b.effort
                      AND (o.score > b.score OR (o.score = b.score
                           AND (o.start_time, o.workout_id) < (b.start_time, b.workout_id)))) AS all_time_rank
         FROM workout_bests b WHERE b.workout_id = $1 AND b.user_id = $2`,
      [params.id, userId, new Date(Date.UTC(year, 0, 1)), new Date(Date.UTC(year + 1, 0, 1))],
    );
    const order = new Map(EFFORTS.map((effort, index) => [effort.name, index]));
    rows.sort((a, b) => order.get(a.effort)! - order.get(b.effort)!);
    const [[user], history] = await Promise.all([
      db.query<{ ftp_rule: 'hour' | 'twenty' }>('SELECT ftp_rule FROM users WHERE id = $1', [
        userId,
      ]),
      thresholdHistory(db, userId!),
    ]);
    const ftp = ftpToday(history);
    const power = (effort: string) => rows.find((row) => row.effort === effort)?.value;
    const hour = power('power_3600s');
    const twenty = power('power_1200s');
    const estimate =
      (user?.ftp_rule ?? 'hour') === 'hour'
        ? hour !== undefined
          ? Math.round(hour)
          : null
        : twenty !== undefined
          ? Math.round(twenty * TWENTY_MINUTE_FACTOR)
          : null;
    return {
      year,
      efforts: rows.map((row) => ({
        effort: row.effort,
        value: row.value,
        year_rank: row.year_rank,
        all_time_rank: row.all_time_rank,
      })),
      // A ride whose efforts beat the FTP in force now suggests the new one.
      ftp_suggestion: estimate !== null && (ftp === null || estimate > ftp) ? estimate : null,
    };
  });
}
