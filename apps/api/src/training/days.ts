import {
  ATL_DAYS,
  addDays,
  dayOf,
  daysBetween,
  timeline,
  BEST_DISTANCES_M,
  BEST_DISTANCE_MIN_S_PER_KM,
  BEST_POWER_DURATIONS_S,
  BEST_POWER_MAX_W,
  CTL_DAYS,
  decayLoad,
  fitnessSeries,
  loadGain,
  type FitnessDay,
  type TimerIntervals,
} from '@xoss/workout-stats';
import type { BlobStore } from '../platform/blobStore.ts';
import type { Queryable } from '../platform/db/db.ts';
import {
  RUN_BEST_DISTANCES_M,
  RUN_BEST_POWER_DURATIONS_S,
  rideBests,
  runBests,
  type RideBests,
} from '../analysis/analyse.ts';
import { countsForRideBests, isRun } from '../analysis/bestCurves.ts';
import { rideStreamsOf } from '../analysis/series.ts';
import { readStreams, unpackCurve } from '../rides/streams.ts';

// A ride counts on the UTC day it started (`dayOf`, workout-stats' training days).
export { dayOf };

/** What one ride (or a change of one) adds to its day's totals. */
export interface DayDelta {
  readonly tss: number;
  readonly movingTimeS: number;
  readonly distanceM: number;
  readonly elevationGainM: number;
  readonly rides: number;
}

/** A ride's contribution to its day, as stored on its row. */
export function rideDelta(
  row: {
    tss: number | null;
    moving_time_s: number;
    distance_m: number;
    elevation_gain_m: number | null;
  },
  sign: 1 | -1 = 1,
): DayDelta {
  return {
    tss: sign * (row.tss ?? 0),
    movingTimeS: sign * row.moving_time_s,
    distanceM: sign * row.distance_m,
    elevationGainM: sign * (row.elevation_gain_m ?? 0),
    rides: sign,
  };
}

/**
 * One writer of a rider's daily totals at a time (their `users` row, until the transaction
 * ends), so a new row's starting state cannot miss another's TSS. A transaction that changes
 * existing rides takes it before touching them, so two such never wait on each other.
 */
export async function lockRider(tx: Queryable, userId: number): Promise<void> {
  await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
}

/**
 * `value · e^(−x)` in SQL, 0 once it is negligible (x past 100, or |value| below 1e-100):
 * PostgreSQL raises "value out of range: underflow" where a result rounds to zero, which
 * rides years apart (or a device whose clock was never set) reached.
 */
const decayed = (value: string, x: string) =>
  `(CASE WHEN ${x} > 100 OR abs(${value}) < 1e-100 THEN 0 ELSE ${value} * exp(-(${x})) END)`;

/**
 * Adds `delta` to the rider's totals of `day` and carries its TSS into the fitness and
 * fatigue of that day and every later stored day: a day's TSS adds `TSS·(1 − e^(−1/τ))·
 * e^(−n/τ)` to the average n days later (the same recurrence as `fitnessSeries`), so one
 * UPDATE keeps every later row exact. A new row starts from the state of the last day with
 * rides before it, decayed to its day. Call inside the transaction that changes the ride.
 */
export async function addToDay(
  tx: Queryable,
  userId: number,
  day: string,
  delta: DayDelta,
): Promise<void> {
  await lockRider(tx, userId);
  await tx.query(
    `INSERT INTO daily_load (user_id, day, tss, moving_time_s, distance_m, elevation_gain_m, rides, ctl, atl)
     SELECT $1, $2::date, 0, 0, 0, 0, 0,
            coalesce(${decayed('p.ctl', '($2::date - p.day) / $3::float8')}, 0),
            coalesce(${decayed('p.atl', '($2::date - p.day) / $4::float8')}, 0)
       FROM (SELECT 1) one LEFT JOIN LATERAL (
         SELECT day, ctl, atl FROM daily_load WHERE user_id = $1 AND day < $2::date
          ORDER BY day DESC LIMIT 1) p ON true
     ON CONFLICT (user_id, day) DO NOTHING`,
    [userId, day, CTL_DAYS, ATL_DAYS],
  );
  await tx.query(
    `UPDATE daily_load SET
        tss = tss + CASE WHEN day = $2::date THEN $3::float8 ELSE 0 END,
        moving_time_s = moving_time_s + CASE WHEN day = $2::date THEN $4::float8 ELSE 0 END,
        distance_m = distance_m + CASE WHEN day = $2::date THEN $5::float8 ELSE 0 END,
        elevation_gain_m = elevation_gain_m + CASE WHEN day = $2::date THEN $6::float8 ELSE 0 END,
        rides = rides + CASE WHEN day = $2::date THEN $7::int ELSE 0 END,
        ctl = ctl + ${decayed('$3::float8 * $8::float8', '(day - $2::date) / $9::float8')},
        atl = atl + ${decayed('$3::float8 * $10::float8', '(day - $2::date) / $11::float8')}
      WHERE user_id = $1 AND day >= $2::date`,
    [
      userId,
      day,
      delta.tss,
      delta.movingTimeS,
      delta.distanceM,
      delta.elevationGainM,
      delta.rides,
      loadGain(CTL_DAYS),
      CTL_DAYS,
      loadGain(ATL_DAYS),
      ATL_DAYS,
    ],
  );
}

/** No run faster than 2:00 per km (the 1,000 m world record is 2:12), no running power over 1,000 W. */
const RUN_MIN_S_PER_KM = 120;
const RUN_POWER_MAX_W = 1000;

/** Whose best an effort is. */
export type BestSport = 'ride' | 'run';

interface EffortDefinition {
  readonly name: string;
  readonly kind: 'power' | 'time';
  readonly size: number;
  readonly sport: BestSport;
}

/**
 * Whether a rider could have produced `value` (W over a duration, or s over a distance):
 * at most `BEST_POWER_MAX_W`, at least `BEST_DISTANCE_MIN_S_PER_KM` (a run's: 1,000 W and
 * 2:00 per km). What a stored ride's streams from before the cleaning still give (a glitch,
 * a jumping clock) is no best.
 */
function humanEffort(effort: EffortDefinition, value: number): boolean {
  if (!Number.isFinite(value) || !(value > 0)) return false;
  const run = effort.sport === 'run';
  return effort.kind === 'power'
    ? value <= (run ? RUN_POWER_MAX_W : BEST_POWER_MAX_W)
    : value >= (effort.size / 1000) * (run ? RUN_MIN_S_PER_KM : BEST_DISTANCE_MIN_S_PER_KM);
}

/**
 * Effort names, in the order the bests list them: a ride's power ones, then distance ones,
 * then a run's (`run_…`; a half marathon is named by its whole metres, 21098).
 */
export const EFFORTS: readonly EffortDefinition[] = [
  ...BEST_POWER_DURATIONS_S.map((seconds) => ({
    name: `power_${seconds}s`,
    kind: 'power' as const,
    size: seconds,
    sport: 'ride' as const,
  })),
  ...BEST_DISTANCES_M.map((metres) => ({
    name: `time_${metres}m`,
    kind: 'time' as const,
    size: metres,
    sport: 'ride' as const,
  })),
  ...RUN_BEST_POWER_DURATIONS_S.map((seconds) => ({
    name: `run_power_${seconds}s`,
    kind: 'power' as const,
    size: seconds,
    sport: 'run' as const,
  })),
  ...RUN_BEST_DISTANCES_M.map((metres) => ({
    name: `run_time_${Math.round(metres)}m`,
    kind: 'time' as const,
    size: metres,
    sport: 'run' as const,
  })),
];

/**
 * Stores a ride's best efforts of `sport` (score: watts, or minus seconds: higher is
 * better): `bests` holds its values in the order of that sport's efforts in `EFFORTS`.
 */
export async function storeBests(
  tx: Queryable,
  workoutId: number,
  userId: number,
  start: Date,
  bests: RideBests,
  sport: BestSport = 'ride',
): Promise<void> {
  const values = [...bests.powerW, ...bests.timeS];
  for (const [index, effort] of EFFORTS.filter((one) => one.sport === sport).entries()) {
    const value = values[index];
    if (value === null || value === undefined || !humanEffort(effort, value)) continue;
    await tx.query(
      `INSERT INTO workout_bests (workout_id, user_id, effort, value, score, start_time)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [workoutId, userId, effort.name, value, effort.kind === 'power' ? value : -value, start],
    );
  }
}

/**
 * The performance management chart of the days `[from, to)`: the day rows inside the range
 * (plus the 7 days before, for the ramp rate) and one row before them (the state the range
 * starts from, decayed over the days without rides). Its cost grows with the days asked.
 */
export async function fitnessRange(
  db: Queryable,
  userId: number,
  from: string,
  to: string,
): Promise<(FitnessDay & { day: string })[]> {
  const start = addDays(from, -7);
  const [before] = await db.query<{ day: string; ctl: number; atl: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, ctl, atl FROM daily_load
      WHERE user_id = $1 AND day < $2::date ORDER BY day DESC LIMIT 1`,
    [userId, start],
  );
  const rows = await db.query<{ day: string; tss: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, tss FROM daily_load
      WHERE user_id = $1 AND day >= $2::date AND day < $3::date ORDER BY day`,
    [userId, start, to],
  );
  const length = daysBetween(start, to);
  const tss = new Float64Array(length);
  for (const row of rows) tss[daysBetween(start, row.day)] = row.tss;
  const seed = before ? decayLoad(before, daysBetween(before.day, start) - 1) : { ctl: 0, atl: 0 };
  // The 7 days before `from` are computed only for the ramp rate of the first days shown.
  return fitnessSeries(tss, seed)
    .slice(7)
    .map((value, index) => ({ day: addDays(from, index), ...value }));
}

/**
 * Computes the best efforts of rides stored before they were kept (`bests_pending`), a
 * batch at a time, from their stored streams and power curve; returns how many it did.
 * The API runs it in the background after start; each ride is its own transaction.
 */
export async function backfillBests(
  source: {
    readonly db: Queryable & { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> };
    readonly blobs: BlobStore;
  },
  options: { batch?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const { db } = source;
  let done = 0;
  while (!options.signal?.aborted) {
    const rides = await db.query<{
      id: number;
      user_id: number;
      start_time: Date;
      timer: TimerIntervals | null;
      sport_type: number;
      counted: boolean;
    }>(
      `SELECT id, user_id, start_time, timer, sport_type,
              NOT exclude_from_bests AND date_warning IS NULL AS counted
         FROM workouts WHERE bests_pending ORDER BY id LIMIT $1`,
      [options.batch ?? 20],
    );
    if (rides.length === 0) return done;
    for (const ride of rides) {
      if (options.signal?.aborted) break;
      const stored = await readStreams(source, ride.id);
      const streams = stored ? rideStreamsOf(stored) : undefined;
      const [curves] = await db.query<{ power: Uint8Array | null }>(
        'SELECT power FROM workout_curves WHERE workout_id = $1',
        [ride.id],
      );
      // A run's are a runner's; a swim or a transition makes none; nor a ride that counts
      // nowhere (left out, a doubtful date).
      const run = isRun(ride.sport_type);
      const makes = ride.counted && (run || countsForRideBests(ride.sport_type));
      const bests =
        streams && makes
          ? (run ? runBests : rideBests)(
              streams,
              unpackCurve(curves?.power ?? null),
              timeline(streams, ride.timer ? { timer: ride.timer } : {}).running,
            )
          : { powerW: [], timeS: [] };
      await db.transaction(async (tx) => {
        // Still pending (not deleted or done by another replica meanwhile).
        const [pending] = await tx.query(
          'UPDATE workouts SET bests_pending = false WHERE id = $1 AND bests_pending RETURNING id',
          [ride.id],
        );
        if (pending)
          await storeBests(
            tx,
            ride.id,
            ride.user_id,
            new Date(ride.start_time),
            bests,
            run ? 'run' : 'ride',
          );
      });
      done++;
    }
  }
  return done;
}
