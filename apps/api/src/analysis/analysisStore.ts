// The ride analysis as the API serves it: each ride's analysis (kept per ride and what it
// depends on), its W' balance stream, heart-rate and pace curves, and the facts kept per
// ride (`workout_facts`: EF, decoupling, climbs), computed at import and, for rides imported
// before, on first need. The power models of a window: `powerModels.ts`.
import type { Climb, WorkoutAnalysis } from '@xoss/api-contract';
import type { Queryable } from '../platform/db/db.ts';
import type { Services } from '../services.ts';
import { comparisonCurves } from './bestCurves.ts';
import { powerModelOf } from './powerModels.ts';
import { ftpFromCurve } from './estimatedFtp.ts';
import { INLINE_SAMPLES } from './figures.ts';
import {
  analysisFigures,
  extraCurveFigures,
  factsFigures,
  wbalFigures,
  type RideFacts,
} from './rideAnalysis.ts';
import type { WorkoutRow } from '../rides/rows.ts';
import { packCurve, readCurves, readStreams, unpackCurve } from '../rides/streams.ts';

/** W' of a ride whose CP is its FTP (no model): GoldenCheetah's default, 20 kJ. */
const DEFAULT_W_PRIME_J = 20_000;
/** Rides analysed for their facts per request of the efficiency or climbs endpoint. */
const FACTS_PER_REQUEST = 50;

const DAY_MS = 86_400_000;

/** The CP and W' a ride is analysed with, its FTP, and where each comes from. */
interface RideModel {
  source: WorkoutAnalysis['model_source'];
  cpW: number | null;
  wPrimeJ: number | null;
  /** The FTP intervals are found against. */
  ftpW: number | null;
  thresholdSource: WorkoutAnalysis['threshold_source'];
}

/**
 * What a ride is analysed with (docs/api.md, the analysis endpoint). CP and W': the power
 * model of the 42 days before the ride (its own ride left out) when plausible; else the
 * ride's FTP as CP with W' 20 kJ; else an estimated FTP as CP. The FTP of its intervals: the
 * ride's own (the rider's setting, else the file's); else the model's eFTP; else estimated
 * (`ftpFromCurve`) from the best curve of the rides of those 42 days (`history`), else from
 * the ride's own curve (`ride`). Null only without power.
 */
async function rideModel(services: Services, row: WorkoutRow): Promise<RideModel> {
  const none = { source: null, cpW: null, wPrimeJ: null, ftpW: null, thresholdSource: null };
  if (row.summary.avgPower === undefined) return none;
  const start = new Date(row.start_time).getTime();
  const before = await comparisonCurves(services.db, row.user_id, 'last6weeks', start);
  const model = powerModelOf(before.power);
  let estimate: { ftpW: number; source: 'history' | 'ride' } | null = null;
  const history = ftpFromCurve(before.power);
  if (history !== undefined) estimate = { ftpW: history, source: 'history' };
  else if (row.ftp === null && model.eftp_w === null) {
    const [curves] = await services.db.query<{ power: Uint8Array | null }>(
      'SELECT power FROM workout_curves WHERE workout_id = $1',
      [row.id],
    );
    const own = ftpFromCurve(unpackCurve(curves?.power ?? null));
    if (own !== undefined) estimate = { ftpW: own, source: 'ride' };
  }
  const threshold: Pick<RideModel, 'ftpW' | 'thresholdSource'> =
    row.ftp !== null
      ? { ftpW: row.ftp, thresholdSource: row.ftp_source ?? 'settings' }
      : model.eftp_w !== null
        ? { ftpW: model.eftp_w, thresholdSource: 'model' }
        : estimate
          ? { ftpW: estimate.ftpW, thresholdSource: estimate.source }
          : { ftpW: null, thresholdSource: null };
  if (model.cp_w !== null && model.w_prime_j !== null)
    return { source: 'model', cpW: model.cp_w, wPrimeJ: model.w_prime_j, ...threshold };
  if (row.ftp !== null)
    return { source: 'ftp', cpW: row.ftp, wPrimeJ: DEFAULT_W_PRIME_J, ...threshold };
  if (estimate)
    return { source: 'estimate', cpW: estimate.ftpW, wPrimeJ: DEFAULT_W_PRIME_J, ...threshold };
  return none;
}

/** Keeps a ride's facts (in the import's transaction, or after a lazy analysis). */
export async function storeFacts(
  db: Queryable,
  workoutId: number,
  userId: number,
  start: Date,
  facts: RideFacts,
): Promise<void> {
  await db.query(
    `INSERT INTO workout_facts (workout_id, user_id, start_time, efficiency_factor, decoupling_pct, climbs)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (workout_id) DO UPDATE SET efficiency_factor = EXCLUDED.efficiency_factor,
       decoupling_pct = EXCLUDED.decoupling_pct, climbs = EXCLUDED.climbs`,
    [
      workoutId,
      userId,
      start,
      facts.efficiencyFactor,
      facts.decouplingPct,
      JSON.stringify(facts.climbs),
    ],
  );
}

/**
 * Analyses the facts of a rider's rides imported before they were kept (no `workout_facts`
 * row), at most `FACTS_PER_REQUEST` per call, within `[from, to)` when given; returns how
 * many are still pending after it.
 */
export async function ensureFacts(
  services: Services,
  userId: number,
  range: { from?: Date; to?: Date } = {},
): Promise<number> {
  const { db } = services;
  const where = `w.user_id = $1 AND f.workout_id IS NULL
     AND ($2::timestamptz IS NULL OR w.start_time >= $2) AND ($3::timestamptz IS NULL OR w.start_time < $3)`;
  const params = [userId, range.from ?? null, range.to ?? null];
  const rides = await db.query<Pick<WorkoutRow, 'id' | 'start_time' | 'summary' | 'timer'>>(
    `SELECT w.id, w.start_time, w.summary, w.timer FROM workouts w
       LEFT JOIN workout_facts f ON f.workout_id = w.id WHERE ${where}
      ORDER BY w.start_time DESC LIMIT ${FACTS_PER_REQUEST}`,
    params,
  );
  for (const ride of rides) {
    const streams = (await readStreams(services, ride.id)) ?? {};
    const task = { streams, timer: ride.timer, summary: ride.summary };
    const facts =
      (streams.time?.length ?? 0) > INLINE_SAMPLES
        ? await services.pool.figures('facts', task, userId)
        : factsFigures(task);
    // The ride may have gone meanwhile: its row is then not written (no parent to refer to).
    await db.query(
      `INSERT INTO workout_facts (workout_id, user_id, start_time, efficiency_factor, decoupling_pct, climbs)
       SELECT id, user_id, start_time, $2, $3, $4 FROM workouts WHERE id = $1
       ON CONFLICT (workout_id) DO NOTHING`,
      [ride.id, facts.efficiencyFactor, facts.decouplingPct, JSON.stringify(facts.climbs)],
    );
  }
  if (rides.length < FACTS_PER_REQUEST) return 0;
  const [left] = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM workouts w LEFT JOIN workout_facts f ON f.workout_id = w.id WHERE ${where}`,
    params,
  );
  return left?.count ?? 0;
}

/** Bumped when an analysis or what it is computed with changes: every kept one is redone. */
const ANALYSIS_VERSION = 3;

/**
 * A ride's kept analysis, when still current, and the key of what it depends on besides the
 * ride's own streams and curve: its FTP (and where it comes from) and the rides of the 42
 * days before it, whose curves make the power model and the history estimate. Those rides
 * are told by their count, the sum of their ids and the sum of the versions (`xmin`) of
 * their streams rows: an import adds a ride with a larger id than any before it, a delete
 * takes one away, a correction rewrites its streams row in a later transaction, so each
 * change makes the sums larger or the count different. One query, without reading a curve.
 */
async function keptAnalysis(
  services: Services,
  row: WorkoutRow,
): Promise<{ key: string; analysis: WorkoutAnalysis | null }> {
  const start = new Date(row.start_time).getTime();
  const [kept] = await services.db.query<{
    rides: number;
    ids: string | null;
    versions: string | null;
    analysis: WorkoutAnalysis | null;
    key: string | null;
  }>(
    `SELECT r.rides, r.ids, r.versions, f.analysis, f.analysis_key AS key
       FROM (SELECT count(*)::int AS rides, sum(w.id)::text AS ids,
                    sum(s.xmin::text::bigint)::text AS versions
               FROM workouts w LEFT JOIN workout_streams s ON s.workout_id = w.id
              WHERE w.user_id = $2 AND w.start_time >= $3 AND w.start_time < $4) r
       LEFT JOIN workout_facts f ON f.workout_id = $1`,
    [row.id, row.user_id, new Date(start - 42 * DAY_MS), new Date(start)],
  );
  const key = JSON.stringify([
    ANALYSIS_VERSION,
    row.ftp,
    row.ftp_source,
    kept?.rides ?? 0,
    kept?.ids ?? null,
    kept?.versions ?? null,
  ]);
  return { key, analysis: kept?.analysis && kept.key === key ? kept.analysis : null };
}

/** Analyses computing, by ride and key: a second asker (the ride page's two calls) shares one. */
const analysing = new Map<string, Promise<WorkoutAnalysis>>();

/**
 * A ride's analysis. Its figures need the whole streams and its model the rider's 42 days
 * before it, so it is computed once per key (`keptAnalysis`) and kept beside the ride's
 * facts: right after the import (`precomputeAnalysis`), else on first need. A long ride's,
 * and every one computed in the background, go to the figures worker.
 */
export async function workoutAnalysisReply(
  services: Services,
  row: WorkoutRow,
  options: { background?: boolean } = {},
): Promise<WorkoutAnalysis> {
  const { key, analysis } = await keptAnalysis(services, row);
  if (analysis) return analysis;
  const computing = `${row.id} ${key}`;
  let pending = analysing.get(computing);
  if (!pending) {
    pending = computeAnalysis(services, row, key, options.background ?? false).finally(() =>
      analysing.delete(computing),
    );
    analysing.set(computing, pending);
  }
  return pending;
}

async function computeAnalysis(
  services: Services,
  row: WorkoutRow,
  key: string,
  background: boolean,
): Promise<WorkoutAnalysis> {
  const model = await rideModel(services, row);
  const head = {
    model_source: model.source,
    cp_w: model.cpW,
    w_prime_j: model.wPrimeJ,
    ftp_w: model.ftpW,
    threshold_source: model.thresholdSource,
  };
  const streams = (await readStreams(services, row.id)) ?? {};
  const task = { streams, timer: row.timer, summary: row.summary, laps: row.laps, ...model };
  const figures =
    background || (streams.time?.length ?? 0) > INLINE_SAMPLES
      ? await services.pool.figures('analysis', task, background ? 'background' : row.user_id)
      : analysisFigures(task);
  const analysis: WorkoutAnalysis = { ...head, ...figures };
  await services.db.query(
    `INSERT INTO workout_facts (workout_id, user_id, start_time, efficiency_factor, decoupling_pct, climbs, analysis, analysis_key)
     SELECT id, user_id, start_time, $2, $3, $4, $5, $6 FROM workouts WHERE id = $1
     ON CONFLICT (workout_id) DO UPDATE SET analysis = EXCLUDED.analysis, analysis_key = EXCLUDED.analysis_key`,
    [
      row.id,
      figures.efficiency_factor,
      figures.decoupling_pct,
      JSON.stringify(figures.climbs satisfies Climb[]),
      JSON.stringify(analysis),
      key,
    ],
  );
  return analysis;
}

/**
 * The last W' balance computed per ride's streams (the streams cache's own object, which
 * goes with them), with the CP and W' it used: the ride page asks for it on every visit.
 */
const wbalKept = new WeakMap<object, { key: string; wbal: Float64Array }>();

/** The W' balance stream of a ride with power (with the CP and W' of its analysis). */
export async function wbalStream(
  services: Services,
  row: WorkoutRow,
  options: { background?: boolean } = {},
): Promise<Float64Array | undefined> {
  if (row.summary.avgPower === undefined) return undefined;
  const { cp_w: cpW, w_prime_j: wPrimeJ } = await workoutAnalysisReply(services, row, options);
  if (cpW === null || wPrimeJ === null) return undefined;
  const streams = await readStreams(services, row.id);
  if (!streams?.power) return undefined;
  const key = `${cpW} ${wPrimeJ}`;
  const kept = wbalKept.get(streams);
  if (kept?.key === key) return kept.wbal;
  const task = { streams, timer: row.timer, cpW, wPrimeJ };
  const wbal =
    options.background || streams.time!.length > INLINE_SAMPLES
      ? await services.pool.figures('wbal', task, options.background ? 'background' : row.user_id)
      : wbalFigures(task);
  if (wbal) wbalKept.set(streams, { key, wbal });
  return wbal;
}

/** Computes and keeps a ride's W' balance after its import (`precompute.ts`). */
export async function warmWbal(services: Services, row: WorkoutRow): Promise<void> {
  await wbalStream(services, row, { background: true });
}

/** Computations of heart-rate and pace curves under way, by ride: a second asker shares one. */
const computing = new Map<number, Promise<ExtraCurves>>();

type ExtraCurves = { heart_rate?: Float64Array; pace?: Float64Array };

/**
 * Heart-rate and pace curves of a ride: computed from its streams the first time they are
 * asked for (seconds on the longest legal ride: heart rate defeats the mean-max pruning that
 * makes power fast), then kept beside its power curve, so every later call reads a row.
 * Simultaneous first calls share one computation, in the rider's turn of the figures worker.
 */
export async function extraCurves(
  services: Services,
  row: WorkoutRow,
  kinds: readonly ('heart_rate' | 'pace')[],
  options: { background?: boolean } = {},
): Promise<ExtraCurves> {
  const pick = (curves: ExtraCurves): ExtraCurves => ({
    ...(kinds.includes('heart_rate') && curves.heart_rate ? { heart_rate: curves.heart_rate } : {}),
    ...(kinds.includes('pace') && curves.pace ? { pace: curves.pace } : {}),
  });
  const kept = await readCurves(services.db, row.id);
  if (kept?.extra) {
    const { heart_rate: heartRate, pace } = kept;
    return pick({ ...(heartRate ? { heart_rate: heartRate } : {}), ...(pace ? { pace } : {}) });
  }
  let pending = computing.get(row.id);
  if (!pending) {
    pending = computeExtraCurves(services, row, options.background ?? false).finally(() =>
      computing.delete(row.id),
    );
    computing.set(row.id, pending);
  }
  return pick(await pending);
}

async function computeExtraCurves(
  services: Services,
  row: WorkoutRow,
  background: boolean,
): Promise<ExtraCurves> {
  const streams = await readStreams(services, row.id);
  if (!streams) return {};
  const task = { streams, timer: row.timer, kinds: ['heart_rate', 'pace'] as const };
  const curves: ExtraCurves =
    background || (streams.time?.length ?? 0) > INLINE_SAMPLES
      ? await services.pool.figures('curves', task, background ? 'background' : row.user_id)
      : extraCurveFigures(task);
  const packed = [packCurve(curves.heart_rate ?? null), packCurve(curves.pace ?? null)];
  const [updated] = await services.db.query(
    `UPDATE workout_curves SET heart_rate = $2, pace = $3, extra_at = now()
      WHERE workout_id = $1 RETURNING workout_id`,
    [row.id, ...packed],
  );
  if (!updated)
    await services.db.query(
      `INSERT INTO workout_curves (workout_id, heart_rate, pace, extra_at)
       SELECT $1, $2, $3, now() WHERE EXISTS (SELECT 1 FROM workouts WHERE id = $1)
       ON CONFLICT (workout_id) DO NOTHING`,
      [row.id, ...packed],
    );
  return curves;
}

/**
 * The stored EF and decoupling of a rider's rides started in `[from, to)`, oldest first; not
 * of rides left out of bests and training, or with a doubtful date.
 */
export function efficiencyPoints(db: Queryable, userId: number, range: { from: Date; to: Date }) {
  return db.query<{
    workout_id: number;
    start_time: Date;
    efficiency_factor: number | null;
    decoupling_pct: number | null;
  }>(
    `SELECT f.workout_id, f.start_time, f.efficiency_factor, f.decoupling_pct
       FROM workout_facts f JOIN workouts w ON w.id = f.workout_id
      WHERE f.user_id = $1 AND f.start_time >= $2 AND f.start_time < $3
        AND (f.efficiency_factor IS NOT NULL OR f.decoupling_pct IS NOT NULL)
        AND NOT w.exclude_from_bests AND w.date_warning IS NULL
      ORDER BY f.start_time, f.workout_id`,
    [userId, range.from, range.to],
  );
}

/**
 * A rider's hardest climbs (by score) of rides started in `[from, to)` when given: climbs
 * that lie in no other (a nested steep part is its climb's), of rides that count.
 */
export function hardestClimbs(
  db: Queryable,
  userId: number,
  range: { from?: Date; to?: Date },
  limit: number,
) {
  return db.query<{ workout_id: number; name: string; start_time: Date; climb: Climb }>(
    `SELECT f.workout_id, w.name, w.start_time, c.value AS climb
       FROM workout_facts f JOIN workouts w ON w.id = f.workout_id,
            jsonb_array_elements(f.climbs) AS c
      WHERE f.user_id = $1 AND c.value->>'parent' IS NULL
        AND NOT w.exclude_from_bests AND w.date_warning IS NULL
        AND ($2::timestamptz IS NULL OR f.start_time >= $2)
        AND ($3::timestamptz IS NULL OR f.start_time < $3)
      ORDER BY (c.value->>'score')::float8 DESC, f.workout_id
      LIMIT $4`,
    [userId, range.from ?? null, range.to ?? null, limit],
  );
}
