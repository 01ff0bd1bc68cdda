import type { Comparison } from '@xoss/api-contract';
import { mergeCurves } from '@xoss/workout-stats';
import type { Database, Queryable } from '../platform/db/db.ts';
import { packCurve, unpackCurve } from '../rides/streams.ts';

/**
 * Sports (FIT's numbers) whose efforts are not a rider's on a bike: running, transitions,
 * swimming, walking, hiking. Their power (a running power meter) and speed never make
 * cycling bests or best curves; a multisport file's legs are counted by their own sport.
 */
const NOT_RIDING = [1, 3, 5, 11, 17];

/** Whether a ride of `sportType` counts for the rider's cycling bests and best curves. */
export const countsForRideBests = (sportType: number) => !NOT_RIDING.includes(sportType);

/** FIT sports scored and ranked as running (bests of their own, load by pace). */
export const RUN_SPORTS: readonly number[] = [1];
export const isRun = (sportType: number) => RUN_SPORTS.includes(sportType);

/**
 * Each rider's best power and speed curves per period (`best_curves`): the best-of envelope
 * of the stored curves of the rides that started in a UTC year (`Y2026`), a UTC week from
 * Monday (`W2026-11-23`) or on a UTC day (`D2026-11-23`). An import merges its curves into
 * its year, week and day; a delete rebuilds those three from the rides left in them. A
 * comparison then reads one row for a year and at most 5 week rows and 12 day rows (plus the
 * rides of the two days the window cuts) for the last six weeks, whatever the rider's
 * history. Mean-max curves do not depend on FTP or max heart
 * rate, so a change of thresholds leaves every row as it is.
 *
 * A row marked `stale` (the migration that made the table marks every period that already
 * had rides) is rebuilt the first time a comparison or an import needs it.
 */

export interface PeriodCurves {
  power: Float64Array | null;
  speed: Float64Array | null;
  /** Rides in the period (with or without curves). */
  workouts: number;
}

const DAY_MS = 86_400_000;
const LAST_WEEKS_DAYS = 42;

const WEEK_MS = 7 * DAY_MS;
/** 1970-01-05, the first Monday of the epoch: weeks start on Mondays (UTC). */
const FIRST_MONDAY_MS = 4 * DAY_MS;

const startOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const startOfWeek = (ms: number) =>
  Math.floor((ms - FIRST_MONDAY_MS) / WEEK_MS) * WEEK_MS + FIRST_MONDAY_MS;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const yearPeriod = (start: Date) => `Y${start.getUTCFullYear()}`;
/** A UTC week, named by its Monday. */
const weekPeriod = (start: Date) => `W${isoDate(startOfWeek(start.getTime()))}`;
const dayPeriod = (start: Date) => `D${isoDate(start.getTime())}`;
const periodsOf = (start: Date) => [yearPeriod(start), weekPeriod(start), dayPeriod(start)];

/** `[from, to)` of a period key. */
function periodRange(period: string): [Date, Date] {
  if (period.startsWith('Y')) {
    const year = Number(period.slice(1));
    return [new Date(Date.UTC(year, 0, 1)), new Date(Date.UTC(year + 1, 0, 1))];
  }
  const from = new Date(`${period.slice(1)}T00:00:00Z`);
  return [from, new Date(from.getTime() + (period.startsWith('W') ? WEEK_MS : DAY_MS))];
}

const present = (curve: Float64Array | null): curve is Float64Array =>
  curve !== null && curve.length > 0;

/** The best-of two curves (either may be missing). */
function best(a: Float64Array | null, b: Float64Array | null): Float64Array | null {
  const curves = [a, b].filter(present);
  if (curves.length === 0) return null;
  return curves.length === 1 ? curves[0]! : mergeCurves(curves);
}

const BATCH = 200;

/** Merges the stored curves of a rider's rides that started in `[from, to)`, in batches. */
async function curvesOfRides(
  db: Queryable,
  userId: number,
  from: Date,
  to: Date,
): Promise<PeriodCurves> {
  const result: PeriodCurves = { power: null, speed: null, workouts: 0 };
  let after = 0;
  for (;;) {
    const rows = await db.query<{ id: number; power: Uint8Array | null; speed: Uint8Array | null }>(
      `SELECT w.id, c.power, c.speed FROM workouts w LEFT JOIN workout_curves c ON c.workout_id = w.id
        WHERE w.user_id = $1 AND w.start_time >= $2 AND w.start_time < $3 AND w.id > $4
          AND NOT (w.sport_type = ANY($5::int[])) AND NOT w.exclude_from_bests
          AND w.date_warning IS NULL
        ORDER BY w.id LIMIT ${BATCH}`,
      [userId, from, to, after, NOT_RIDING],
    );
    for (const row of rows) {
      result.power = best(result.power, unpackCurve(row.power));
      result.speed = best(result.speed, unpackCurve(row.speed));
      result.workouts++;
    }
    if (rows.length < BATCH) return result;
    after = rows.at(-1)!.id;
  }
}

/** Rebuilds one period of a rider from its rides (none left: the row goes). */
async function rebuildPeriod(db: Queryable, userId: number, period: string): Promise<PeriodCurves> {
  const [from, to] = periodRange(period);
  const curves = await curvesOfRides(db, userId, from, to);
  if (curves.workouts === 0) {
    await db.query('DELETE FROM best_curves WHERE user_id = $1 AND period = $2', [userId, period]);
  } else {
    await db.query(
      `INSERT INTO best_curves (user_id, period, power, speed, workouts, stale)
       VALUES ($1, $2, $3, $4, $5, false)
       ON CONFLICT (user_id, period) DO UPDATE
         SET power = EXCLUDED.power, speed = EXCLUDED.speed, workouts = EXCLUDED.workouts, stale = false`,
      [userId, period, packCurve(curves.power), packCurve(curves.speed), curves.workouts],
    );
  }
  return curves;
}

/**
 * Merges a ride just stored (in the same transaction, `tx`) into its year, week and day. The
 * row is locked first, so imports of one rider running together each add their ride.
 */
export async function addRideToBestCurves(
  tx: Queryable,
  userId: number,
  start: Date,
  power: Float64Array | null,
  speed: Float64Array | null,
): Promise<void> {
  for (const period of periodsOf(start)) {
    await tx.query(
      `INSERT INTO best_curves (user_id, period, workouts, stale) VALUES ($1, $2, 0, false)
       ON CONFLICT (user_id, period) DO NOTHING`,
      [userId, period],
    );
    const [row] = await tx.query<{
      power: Uint8Array | null;
      speed: Uint8Array | null;
      stale: boolean;
    }>(
      'SELECT power, speed, stale FROM best_curves WHERE user_id = $1 AND period = $2 FOR UPDATE',
      [userId, period],
    );
    if (row!.stale) {
      // Its rides (this one included: it is in the transaction) read once.
      await rebuildPeriod(tx, userId, period);
      continue;
    }
    await tx.query(
      `UPDATE best_curves SET power = $3, speed = $4, workouts = workouts + 1
        WHERE user_id = $1 AND period = $2`,
      [
        userId,
        period,
        packCurve(best(unpackCurve(row!.power), power)),
        packCurve(best(unpackCurve(row!.speed), speed)),
      ],
    );
  }
}

/**
 * A ride stored as one of many imported together (an archive): its year, week and day are
 * marked stale, to be rebuilt once from their rides when next read, instead of merging each
 * of hundreds of rides into the year's curve in turn.
 */
export async function markBestCurvesStale(
  tx: Queryable,
  userId: number,
  start: Date,
): Promise<void> {
  for (const period of periodsOf(start))
    await tx.query(
      `INSERT INTO best_curves (user_id, period, workouts, stale) VALUES ($1, $2, 0, true)
       ON CONFLICT (user_id, period) DO UPDATE SET stale = true`,
      [userId, period],
    );
}

/** After a ride was deleted: its year, week and day rebuilt from the rides left in them. */
export async function removeRideFromBestCurves(
  tx: Queryable,
  userId: number,
  start: Date,
): Promise<void> {
  for (const period of periodsOf(start)) {
    await tx.query('SELECT 1 FROM best_curves WHERE user_id = $1 AND period = $2 FOR UPDATE', [
      userId,
      period,
    ]);
    await rebuildPeriod(tx, userId, period);
  }
}

/** Period rows of a rider (rebuilding any marked stale), merged. */
async function readPeriods(
  db: Database,
  userId: number,
  where: string,
  params: unknown[],
): Promise<PeriodCurves> {
  const rows = await db.query<{
    period: string;
    power: Uint8Array | null;
    speed: Uint8Array | null;
    workouts: number;
    stale: boolean;
  }>(
    `SELECT period, power, speed, workouts, stale FROM best_curves WHERE user_id = $1 AND ${where}`,
    [userId, ...params],
  );
  const result: PeriodCurves = { power: null, speed: null, workouts: 0 };
  for (const row of rows) {
    const curves = row.stale
      ? // Locked, so an import of the same period waits for the rebuild (and sees it done).
        await db.transaction(async (tx) => {
          await tx.query(
            'SELECT 1 FROM best_curves WHERE user_id = $1 AND period = $2 FOR UPDATE',
            [userId, row.period],
          );
          return rebuildPeriod(tx, userId, row.period);
        })
      : {
          power: unpackCurve(row.power),
          speed: unpackCurve(row.speed),
          workouts: row.workouts,
        };
    result.power = best(result.power, curves.power);
    result.speed = best(result.speed, curves.speed);
    result.workouts += curves.workouts;
  }
  return result;
}

/**
 * The best curves of a comparison period: a year is one row; the last six weeks (`[now - 42
 * days, now)`) are the rows of the whole UTC weeks inside it, of the whole days around
 * those, and the rides of the two days it cuts, read one by one: at most 5 week rows, 12
 * day rows and two days of rides, whatever the rider's history. Those are kept in memory by
 * the window's key (`lastWeeksKeys`, one small query), so the power model, its history and
 * the power curve's comparison read them once per change of the rider's rides.
 */
export async function comparisonCurves(
  db: Database,
  userId: number,
  compare: Exclude<Comparison, 'none'>,
  now: number,
  /** The window's key (`lastWeeksKeys`), when the caller has read it already. */
  known?: string,
): Promise<PeriodCurves> {
  if (compare !== 'last6weeks') {
    const year =
      compare === 'currentYear' ? new Date(now).getUTCFullYear() : Number(compare.slice(5));
    return readPeriods(db, userId, 'period = $2', [`Y${year}`]);
  }
  return (await keptLastWeeks(db, userId, now, known)).curves;
}

/**
 * The curves of the last six weeks before `now`, kept by the window's key, and the key they
 * are kept under: read after computing them, since computing rebuilds the window's period
 * rows marked stale (which the key counts).
 */
export async function keptLastWeeks(
  db: Database,
  userId: number,
  now: number,
  known?: string,
): Promise<{ curves: PeriodCurves; key: string }> {
  const key = known ?? (await lastWeeksKeys(db, userId, [now]))[0]!;
  const cache = windowCaches.get(db) ?? new WindowCache(WINDOW_CACHE_BYTES);
  windowCaches.set(db, cache);
  const kept = cache.get(`${userId} ${key}`);
  if (kept) return { curves: kept, key };
  const curves = await lastWeeksCurves(db, userId, now);
  // Read again only when the window had stale rows (the last figure of the key).
  const after = key.endsWith(' 0') ? key : (await lastWeeksKeys(db, userId, [now]))[0]!;
  cache.set(`${userId} ${after}`, curves);
  return { curves, key: after };
}

/**
 * The key of each window of the last six weeks ending at `ends` (`[end - 42 days, end)`),
 * in one query: the count of the rider's rides in it, the sum of their ids and the sum of
 * the versions (`xmin`) of their streams rows. An import adds a ride with a larger id than
 * any before it, a delete takes one away, a correction rewrites a ride's streams and curves
 * in a later transaction: each change of what the window's curves are made of makes a sum
 * larger or the count different, so two windows with one key hold the same curves. The
 * window's period rows marked stale (rebuilt when read) are counted in, so they are read and
 * rebuilt.
 */
export async function lastWeeksKeys(
  db: Queryable,
  userId: number,
  ends: readonly number[],
): Promise<string[]> {
  const iso = (ms: number) => new Date(ms).toISOString();
  const day = (ms: number) => isoDate(ms);
  const froms = ends.map((end) => end - LAST_WEEKS_DAYS * DAY_MS);
  // The window's day and week rows marked stale count too (a few around it at most): reading
  // the window rebuilds them.
  const rows = await db.query<{
    i: number;
    rides: number;
    ids: string;
    versions: string;
    stale: number;
  }>(
    `SELECT k.i::int AS i, count(w.id)::int AS rides, coalesce(sum(w.id), 0)::text AS ids,
            coalesce(sum(s.xmin::text::bigint), 0)::text AS versions,
            (SELECT count(*)::int FROM best_curves b WHERE b.user_id = $1 AND b.stale
                AND ((b.period >= k.dl AND b.period <= k.dh)
                  OR (b.period >= k.wl AND b.period <= k.wh))) AS stale
       FROM unnest($2::timestamptz[], $3::timestamptz[], $4::text[], $5::text[], $6::text[],
                   $7::text[]) WITH ORDINALITY AS k(a, b, dl, dh, wl, wh, i)
       LEFT JOIN workouts w ON w.user_id = $1 AND w.start_time >= k.a AND w.start_time < k.b
       LEFT JOIN workout_streams s ON s.workout_id = w.id
      GROUP BY k.i, k.dl, k.dh, k.wl, k.wh ORDER BY k.i`,
    [
      userId,
      froms.map(iso),
      ends.map(iso),
      froms.map((from) => `D${day(from - DAY_MS)}`),
      ends.map((end) => `D${day(end)}`),
      froms.map((from) => `W${day(from - WEEK_MS)}`),
      ends.map((end) => `W${day(end)}`),
    ],
  );
  return rows.map((row) => `${row.rides} ${row.ids} ${row.versions} ${row.stale}`);
}

/** Curves of the last six weeks kept per database, by rider and window key, up to a budget. */
const WINDOW_CACHE_BYTES = 64 * 1024 * 1024;

class WindowCache {
  readonly #budget: number;
  #bytes = 0;
  readonly #entries = new Map<string, PeriodCurves>();

  constructor(budget: number) {
    this.#budget = budget;
  }

  static #size(curves: PeriodCurves): number {
    return (curves.power?.byteLength ?? 0) + (curves.speed?.byteLength ?? 0) + 64;
  }

  get(key: string): PeriodCurves | undefined {
    const curves = this.#entries.get(key);
    if (curves) {
      // Most recently used last.
      this.#entries.delete(key);
      this.#entries.set(key, curves);
    }
    return curves;
  }

  set(key: string, curves: PeriodCurves): void {
    const size = WindowCache.#size(curves);
    if (size > this.#budget || this.#entries.has(key)) return;
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes + size <= this.#budget) break;
      this.#entries.delete(oldest);
      this.#bytes -= WindowCache.#size(old);
    }
    this.#entries.set(key, curves);
    this.#bytes += size;
  }
}

const windowCaches = new WeakMap<object, WindowCache>();

/** The curves of `[now - 42 days, now)` read from the period rows and the cut days' rides. */
async function lastWeeksCurves(db: Database, userId: number, now: number): Promise<PeriodCurves> {
  const from = now - LAST_WEEKS_DAYS * DAY_MS;
  const parts: PeriodCurves[] = [];
  const rides = async (a: number, b: number) => {
    if (a < b) parts.push(await curvesOfRides(db, userId, new Date(a), new Date(b)));
  };
  const rows = async (kind: 'D' | 'W', a: number, b: number) => {
    if (a < b)
      parts.push(
        await readPeriods(db, userId, 'period >= $2 AND period < $3', [
          `${kind}${isoDate(a)}`,
          `${kind}${isoDate(b)}`,
        ]),
      );
  };
  // Whole days: from the first midnight at or after `from` to the last one at or before now.
  const firstDay = startOfDay(from) === from ? from : startOfDay(from) + DAY_MS;
  const endDay = startOfDay(now);
  if (firstDay >= endDay) {
    await rides(from, now);
  } else {
    await rides(from, firstDay);
    await rides(endDay, now);
    const firstWeek =
      startOfWeek(firstDay) === firstDay ? firstDay : startOfWeek(firstDay) + WEEK_MS;
    const endWeek = startOfWeek(endDay);
    if (firstWeek < endWeek) {
      await rows('D', firstDay, firstWeek);
      await rows('W', firstWeek, endWeek);
      await rows('D', endWeek, endDay);
    } else {
      await rows('D', firstDay, endDay);
    }
  }
  return parts.reduce(
    (sum, part) => ({
      power: best(sum.power, part.power),
      speed: best(sum.speed, part.speed),
      workouts: sum.workouts + part.workouts,
    }),
    { power: null, speed: null, workouts: 0 },
  );
}

/** A rider's best curves of all time: every year row merged. */
export function allTimeCurves(db: Database, userId: number): Promise<PeriodCurves> {
  return readPeriods(db, userId, 'period LIKE $2', ['Y%']);
}
