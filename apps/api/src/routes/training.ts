// HTTP for the training pages (log, fitness, bests, FTP estimate): ranges checked, days
// and periods summed; storage is in ../training/store.ts.
import { ErrorCode, FITNESS_MAX_DAYS, type Effort, type PeriodTotals } from '@xoss/api-contract';
import { addDays, dayOf, daysBetween, mondayOf } from '@xoss/workout-stats';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound } from '../http/envelope.ts';
import { route } from '../http/route.ts';
import type { Services } from '../services.ts';
import { thresholdHistory, thresholdsOn } from '../analysis/thresholds.ts';
import { EFFORTS, fitnessRange } from '../training/days.ts';
import {
  bestOfSpan,
  bestRides,
  dayTotals,
  firstRideDay,
  ftpSettings,
  rideEffortRanks,
  rideStart,
  ridesBetween,
  type DayRow,
  type LogRide,
} from '../training/store.ts';
import { analysisRoutes } from './analysis.ts';

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

export function trainingRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;
  // The power model, a ride's analysis, efficiency and climbs (`./analysis.ts`).
  analysisRoutes(app, services);
  const today = () => dayOf(new Date(services.now()));
  /** The rider's FTP in force today (the latest change on or before it). */
  const ftpToday = (history: Awaited<ReturnType<typeof thresholdHistory>>) =>
    thresholdsOn(history, new Date(services.now()), { ftp: null, maxHr: null }).ftp;

  route(app, services, 'trainingFitness', async ({ userId, query }) => {
    const firstDay = await firstRideDay(db, userId);
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
      dayTotals(db, userId, from, to),
      ridesBetween(db, userId, from, to),
    ]);
    const days = Array.from({ length }, (_, i) => ({
      ...emptyTotals(addDays(from, i)),
      rides_list: [] as (Omit<LogRide, 'start_time'> & { start_time: string })[],
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
    const rows = await dayTotals(db, userId, from, to);
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
    // A run's efforts or a ride's, never mixed (runs rank among runs).
    const efforts = EFFORTS.filter((effort) => effort.sport === query.sport);
    const rows = await bestRides(
      db,
      userId,
      efforts.map((effort) => effort.name),
      { since, until },
      query.limit,
    );
    return {
      year,
      efforts: efforts.map((effort) => {
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
    const user = await ftpSettings(db, userId);
    const seasonBest = async (effort: string) => {
      const row = await bestOfSpan(db, userId, effort, from, to);
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
    const start = await rideStart(db, userId, params.id);
    if (!start) throw notFound('Workout');
    const year = start.getUTCFullYear();
    const rows = await rideEffortRanks(db, userId, params.id, year);
    const order = new Map(EFFORTS.map((effort, index) => [effort.name, index]));
    rows.sort((a, b) => order.get(a.effort)! - order.get(b.effort)!);
    const [user, history] = await Promise.all([
      ftpSettings(db, userId),
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
