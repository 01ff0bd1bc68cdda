// The power model of a window of the rider's best curves, as the API sends it: of the last
// 42 days, this season or all time, and month by month, each fitted once per change of the
// window's rides and kept (`lastWeeksModels`).
import { POWER_MODEL_HISTORY_MONTHS_MAX } from '@xoss/api-contract';
import { fitRiderPowerModel } from '@xoss/workout-stats';
import type { Services } from '../services.ts';
import { allTimeCurves, comparisonCurves, keptLastWeeks, lastWeeksKeys } from './bestCurves.ts';

type PowerModelReason = 'no_power' | 'too_little_data' | 'implausible';

/** A model as sent: every figure null, with the reason, when there is none. */
export interface PowerModelFigures {
  cp_w: number | null;
  w_prime_j: number | null;
  pmax_w: number | null;
  eftp_w: number | null;
  fitted_from: number | null;
  fitted_to: number | null;
  points_used: number | null;
  reason: PowerModelReason | null;
}

const none = (reason: PowerModelReason): PowerModelFigures => ({
  cp_w: null,
  w_prime_j: null,
  pmax_w: null,
  eftp_w: null,
  fitted_from: null,
  fitted_to: null,
  points_used: null,
  reason,
});

/**
 * Fits the model to a best curve and checks it against the rider's own bests (workout-stats'
 * `fitRiderPowerModel`: Pmax within the best 5 s and 1.3 x the best 1 s, CP between the
 * best hour and the best 10 minutes, W' 3-60 kJ); nulls with the reason otherwise. A window
 * without hard efforts of 2-20 minutes reads as too little data: the fit would only describe
 * easy riding.
 */
export function powerModelOf(curve: Float64Array | null): PowerModelFigures {
  if (!curve || curve.length === 0) return none('no_power');
  const { model, reason } = fitRiderPowerModel(curve);
  if (!model) return none(reason === 'implausible' ? 'implausible' : 'too_little_data');
  return {
    cp_w: model.cpW,
    w_prime_j: model.wPrimeJ,
    pmax_w: model.pmaxW,
    eftp_w: model.eftpW,
    fitted_from: model.fittedFrom,
    fitted_to: model.fittedTo,
    points_used: model.pointsUsed,
    reason: null,
  };
}

const DAY_MS = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The days `[from, to)` the last six weeks before `now` cover. */
export const lastWeeksRange = (now: number) => ({
  from: isoDate(now - 42 * DAY_MS),
  to: isoDate(Math.floor(now / DAY_MS) * DAY_MS + DAY_MS),
});

/** The best curves of a window and the days `[from, to)` it covers. */
export async function windowCurves(
  services: Services,
  userId: number,
  window: '42d' | 'season' | 'all',
  now: number,
) {
  const { db } = services;
  const tomorrow = isoDate(Math.floor(now / DAY_MS) * DAY_MS + DAY_MS);
  if (window === '42d')
    return {
      ...lastWeeksRange(now),
      curves: await comparisonCurves(db, userId, 'last6weeks', now),
    };
  if (window === 'season') {
    const year = new Date(now).getUTCFullYear();
    return {
      from: `${year}-01-01`,
      to: `${year + 1}-01-01`,
      curves: await comparisonCurves(db, userId, 'currentYear', now),
    };
  }
  const [first] = await db.query<{ start: Date | null }>(
    'SELECT min(start_time) AS start FROM workouts WHERE user_id = $1 AND date_warning IS NULL',
    [userId],
  );
  return {
    from: first?.start ? isoDate(new Date(first.start).getTime()) : isoDate(now),
    to: tomorrow,
    curves: await allTimeCurves(db, userId),
  };
}

/**
 * Models of the last six weeks kept per database, by rider and window key (`lastWeeksKeys`),
 * in memory and in `window_models` (read by a restarted process or another replica).
 */
const modelsKept = new WeakMap<
  object,
  Map<string, { model: PowerModelFigures; workouts: number }>
>();
const MODELS_KEPT = 10_000;
/** The kept models of one rider in `window_models`, newest first: 24 months and more. */
const MODELS_KEPT_PER_RIDER = 100;

/**
 * The power model of the last six weeks before each of `ends`, with the rides it counts:
 * the windows' keys in one query, each model fitted once per key and kept.
 */
export async function lastWeeksModels(
  services: Services,
  userId: number,
  ends: readonly number[],
): Promise<{ model: PowerModelFigures; workouts: number }[]> {
  const { db } = services;
  const keys = await lastWeeksKeys(db, userId, ends);
  const kept =
    modelsKept.get(db) ?? new Map<string, { model: PowerModelFigures; workouts: number }>();
  modelsKept.set(db, kept);
  const keep = (key: string, entry: { model: PowerModelFigures; workouts: number }) => {
    // The oldest goes first (a Map keeps insertion order).
    if (kept.size >= MODELS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(`${userId} ${key}`, entry);
  };
  // What this process does not hold, another (or this one before a restart) may have kept.
  const missing = keys.filter((key) => !kept.has(`${userId} ${key}`));
  if (missing.length > 0) {
    const rows = await db.query<{ key: string; model: PowerModelFigures; workouts: number }>(
      'SELECT key, model, workouts FROM window_models WHERE user_id = $1 AND key = ANY($2::text[])',
      [userId, [...new Set(missing)]],
    );
    for (const row of rows) keep(row.key, { model: row.model, workouts: row.workouts });
  }
  const out = [];
  let fitted = false;
  for (const [index, end] of ends.entries()) {
    let entry = kept.get(`${userId} ${keys[index]!}`);
    if (!entry) {
      // Kept under the key read after the curves: reading them rebuilds stale period rows.
      const { curves, key } = await keptLastWeeks(db, userId, end, keys[index]);
      entry = { model: powerModelOf(curves.power), workouts: curves.workouts };
      keep(key, entry);
      await db.query(
        `INSERT INTO window_models (user_id, key, model, workouts) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, key) DO NOTHING`,
        [userId, key, JSON.stringify(entry.model), entry.workouts],
      );
      fitted = true;
    }
    out.push(entry);
  }
  // Keys of windows whose rides changed are never asked again: the newest are kept.
  if (fitted)
    await db.query(
      `DELETE FROM window_models WHERE user_id = $1 AND key NOT IN (
         SELECT key FROM window_models WHERE user_id = $1 ORDER BY made_at DESC, key
          LIMIT ${MODELS_KEPT_PER_RIDER})`,
      [userId],
    );
  return out;
}

/** Forgets the models this process holds (tests: a restarted process, or another replica). */
export function forgetKeptModels(db: object): void {
  modelsKept.delete(db);
}

/** The end of each point of the model history, oldest first, and its date. */
function historyEnds(months: number, now: number): { end: number; date: string }[] {
  const today = new Date(now);
  const points = [];
  for (let back = months - 1; back >= 0; back--) {
    // The first midnight after the month's last day (or now, for this month).
    const end =
      back === 0 ? now : Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back + 1, 1);
    points.push({ end, date: isoDate(back === 0 ? now : end - DAY_MS) });
  }
  return points;
}

/**
 * The 42-day model at the end of each of the last `months` months (the current one: now),
 * oldest first: one query for the windows' keys, then each model kept since its rides last
 * changed, or fitted (at most 5 week rows, 12 day rows and two days of rides each).
 */
export async function powerModelHistory(
  services: Services,
  userId: number,
  months: number,
  now: number,
) {
  const ends = historyEnds(months, now);
  const models = await lastWeeksModels(
    services,
    userId,
    ends.map((point) => point.end),
  );
  return ends.map((point, index) => ({ date: point.date, ...models[index]!.model }));
}

/** Fits and keeps a rider's models after an import (`precompute.ts`): the page reads them. */
export async function warmPowerModels(services: Services, userId: number): Promise<void> {
  const now = services.now();
  await lastWeeksModels(services, userId, [
    ...historyEnds(POWER_MODEL_HISTORY_MONTHS_MAX, now).map((point) => point.end),
  ]);
}
