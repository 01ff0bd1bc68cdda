import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  ErrorCode,
  STREAM_DECIMALS,
  type StreamName,
  type WorkoutDetail,
  type WorkoutListItem,
  workoutImportFieldsSchema,
} from '@xoss/api-contract';
import {
  downsampleMinMax,
  estimateFtp,
  heartRateZoneTimes,
  oneHertzSeries,
  powerZoneTimes,
  summarizeRange,
  timeline,
  withFtp,
  type TimerIntervals,
  type WorkoutSummary,
} from '@xoss/workout-stats';
import type { ActivityLap } from '@xoss/activity-files';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound, parse } from '../http.ts';
import { deadlineSignal } from '../deadline.ts';
import { route } from '../route.ts';
import type { Services } from '../services.ts';
import {
  rideStreamsOf,
  type Analysis,
  type AnalysisResult,
  type Damage,
  type SessionAnalysis,
} from '../workouts/analyse.ts';
import { hasRecordedData } from '../workouts/recorded.ts';
import { curveDurations } from '../workouts/curveDurations.ts';
import {
  addRideToBestCurves,
  comparisonCurves,
  removeRideFromBestCurves,
} from '../workouts/bestCurves.ts';
import { AnalysisFailed } from '../workouts/pool.ts';
import {
  claimImportForStore,
  markImportDone,
  type ImportRequest,
  type ImportRow,
} from '../workouts/importJobs.ts';
import {
  forgetStreams,
  packCurve,
  packStreams,
  readStreams,
  unpackCurve,
} from '../workouts/streams.ts';
import { shownTss, thresholdHistory, thresholdsOn } from '../workouts/thresholds.ts';
import { addToDay, dayOf, lockRider, rideDelta, storeBests } from '../workouts/training.ts';
import { forgetPreview } from '../share/previewCache.ts';
import { paginate, readUpload, safeFileName, sendAttachment } from './common.ts';
import { assertStreamsFit } from './quota.ts';
import { assertSameUpload, idempotencyKeyOf, uploadDigest } from './idempotency.ts';

export interface WorkoutRow {
  id: number;
  user_id: number;
  name: string;
  sport_type: number;
  start_time: Date;
  indoor: boolean;
  distance_m: number;
  moving_time_s: number;
  timer_time_s: number;
  total_time_s: number;
  speed_avg_ms: number | null;
  hr_avg: number | null;
  power_avg: number | null;
  elevation_gain_m: number | null;
  tss: number | null;
  summary: WorkoutSummary;
  device_summary: Record<string, number | string | number[]>;
  bounds: WorkoutDetail['bounds'];
  share_id: string | null;
  file_key: string;
  idempotency_hash?: string | null;
  zones?: ZoneCache | null;
  timer: TimerIntervals | null;
  sessions: SessionAnalysis[];
  damage: Damage | null;
  file_format: WorkoutDetail['file_format'];
  ftp: number | null;
  ftp_source: 'file' | 'settings' | null;
  max_hr: number | null;
  max_hr_source: 'file' | 'settings' | null;
  share_heart_rate: boolean | null;
  share_power: boolean | null;
  notes: string;
  laps: readonly ActivityLap[] | null;
}

/** Zone times as last computed, keyed by the ride's thresholds (not the estimates) they used. */
interface ZoneCache {
  settings: { ftp: number | null; max_hr: number | null };
  ftp_source: WorkoutDetail['ftp_source'];
  max_hr_source: WorkoutDetail['max_hr_source'];
  ftp: number | null;
  max_hr: number | null;
  hr_zones: WorkoutDetail['hr_zones'];
  power_zones: WorkoutDetail['power_zones'];
}

const LIST_COLUMNS =
  'id, name, sport_type, start_time, indoor, distance_m, moving_time_s, timer_time_s, total_time_s, speed_avg_ms, hr_avg, power_avg, elevation_gain_m, tss, share_id';

const nullable = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? null : value;

export function listItem(row: WorkoutRow): WorkoutListItem {
  return {
    id: row.id,
    name: row.name,
    sport_type: row.sport_type,
    start_time: new Date(row.start_time).toISOString(),
    indoor: row.indoor,
    distance_m: row.distance_m,
    moving_time_s: row.moving_time_s,
    timer_time_s: row.timer_time_s,
    total_time_s: row.total_time_s,
    speed_avg_ms: row.speed_avg_ms,
    hr_avg: row.hr_avg,
    power_avg: row.power_avg,
    elevation_gain_m: row.elevation_gain_m,
    tss: row.tss,
    shared: row.share_id !== null,
  };
}

type DeviceSummary = Record<string, unknown>;

const deviceNumber = (device: DeviceSummary, field: string) => {
  const value = device[field];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

/**
 * The summary as the API sends it. For a whole ride, where the device stored its own
 * calories, climbing or NP/IF/TSS (with its FTP), those are shown and marked as the
 * device's: our figure and the device's differ by design (calories from heart rate, the
 * elevation filter, NP conventions). A range always shows ours.
 */
export function summaryReply(
  summary: WorkoutSummary,
  device: DeviceSummary = {},
): WorkoutDetail['summary'] {
  const calories = deviceNumber(device, 'totalCalories');
  const ascent = deviceNumber(device, 'totalAscent');
  const descent = deviceNumber(device, 'totalDescent');
  // The device's NP, IF and TSS as a set, when it had an FTP to compute them with.
  const deviceTss = deviceNumber(device, 'trainingStressScore');
  const np = deviceTss !== undefined ? deviceNumber(device, 'normalizedPower') : undefined;
  const ownNp = summary.normalizedPower !== undefined && Number.isFinite(summary.normalizedPower);
  return {
    distance_m: summary.distanceM,
    estimated_distance_m: summary.estimatedDistanceM ?? summary.distanceM,
    total_time_s: summary.totalTimeS,
    // Rides imported before the timer was read: their moving time is the best we have.
    timer_time_s: summary.timerTimeS ?? summary.movingTimeS,
    moving_time_s: summary.movingTimeS,
    paused_time_s: summary.pausedTimeS,
    stopped_time_s: summary.stoppedTimeS ?? 0,
    speed_avg_ms: nullable(summary.avgSpeedMs),
    speed_max_ms: nullable(summary.maxSpeedMs),
    hr_avg: nullable(summary.avgHeartRate),
    hr_max: nullable(summary.maxHeartRate),
    power_avg: nullable(summary.avgPower),
    power_max: nullable(summary.maxPower),
    ...(np !== undefined
      ? {
          np,
          if: deviceNumber(device, 'intensityFactor') ?? nullable(summary.intensityFactor),
          tss: deviceTss ?? nullable(summary.trainingStressScore),
          np_source: 'device' as const,
        }
      : {
          np: nullable(summary.normalizedPower),
          if: nullable(summary.intensityFactor),
          tss: nullable(summary.trainingStressScore),
          np_source: ownNp ? ('computed' as const) : null,
        }),
    cadence_avg: nullable(summary.avgCadence),
    cadence_max: nullable(summary.maxCadence),
    calories_kcal: calories ?? nullable(summary.calories),
    calories_source:
      calories !== undefined
        ? 'device'
        : summary.caloriesSource === 'heartRate'
          ? 'heart_rate'
          : (summary.caloriesSource ?? null),
    elevation_gain_m: ascent ?? nullable(summary.elevationGainM),
    elevation_loss_m: descent ?? nullable(summary.elevationLossM),
    elevation_source:
      ascent !== undefined ? 'device' : summary.elevationGainM !== undefined ? 'computed' : null,
    grade_max: nullable(summary.maxGradePercent),
    grade_min: nullable(summary.minGradePercent),
    lr_balance_left: nullable(summary.leftRightBalance),
    torque_effectiveness: nullable(summary.torqueEffectiveness),
    pedal_smoothness: nullable(summary.pedalSmoothness),
  };
}

async function settingsOf(services: Services, userId: number) {
  const [user] = await services.db.query<{
    ftp: number | null;
    max_hr: number | null;
    distance_unit: number;
  }>('SELECT ftp, max_hr, distance_unit FROM users WHERE id = $1', [userId]);
  return user ?? { ftp: null, max_hr: null, distance_unit: 0 };
}

/**
 * Zone times with the ride's FTP and max HR (see `thresholds.ts`; else estimates from the
 * ride). They need the whole streams, so they are computed once per change of those and
 * cached on the row.
 */
export async function zonesOf(services: Services, row: WorkoutRow): Promise<ZoneCache> {
  const cached = row.zones;
  if (
    cached &&
    cached.settings.ftp === row.ftp &&
    cached.settings.max_hr === row.max_hr &&
    cached.ftp_source !== undefined
  )
    return cached;
  const streams = (await readStreams(services.db, row.id)) ?? {};
  const [curves] = await services.db.query<{ power: Uint8Array | null }>(
    'SELECT power FROM workout_curves WHERE workout_id = $1',
    [row.id],
  );
  const powerCurve = unpackCurve(curves?.power ?? null);
  const estimate = row.ftp === null && powerCurve ? (estimateFtp(powerCurve) ?? null) : null;
  const ftp = row.ftp ?? estimate;
  const rideMax = row.summary.maxHeartRate ? Math.round(row.summary.maxHeartRate) : null;
  const maxHr = row.max_hr ?? rideMax;
  const ride = rideStreamsOf(streams);
  const line = ride ? timeline(ride, row.timer ? { timer: row.timer } : {}) : undefined;
  const zones = (distribution: ReturnType<typeof powerZoneTimes> | undefined) =>
    distribution?.zones.map((zone, index) => ({
      zone: index + 1,
      name: zone.name,
      low: zone.lowPercent,
      high: Number.isFinite(zone.highPercent) ? zone.highPercent : null,
      seconds: zone.seconds,
    })) ?? [];
  const computed: ZoneCache = {
    settings: { ftp: row.ftp, max_hr: row.max_hr },
    ftp,
    ftp_source: row.ftp_source ?? (estimate !== null ? 'estimate' : null),
    max_hr: maxHr,
    max_hr_source: row.max_hr_source ?? (rideMax !== null ? 'ride' : null),
    hr_zones: zones(
      streams.heart_rate && maxHr && line
        ? heartRateZoneTimes(streams.heart_rate, maxHr, line.running)
        : undefined,
    ),
    power_zones: zones(
      streams.power && ftp && line
        ? powerZoneTimes(oneHertzSeries(streams.power, line, 'timer'), ftp)
        : undefined,
    ),
  };
  await services.db.query('UPDATE workouts SET zones = $1 WHERE id = $2', [
    JSON.stringify(computed),
    row.id,
  ]);
  return computed;
}

const sessionReply = (session: SessionAnalysis): WorkoutDetail['sessions'][number] => ({
  sport_type: session.sportType,
  start_s: session.startS,
  end_s: session.endS,
  timer_time_s: session.summary.timerTimeS,
  moving_time_s: session.summary.movingTimeS,
  distance_m: session.summary.distanceM,
  device_timer_time_s: deviceNumber(session.device, 'totalTimerTime') ?? null,
  device_distance_m: deviceNumber(session.device, 'totalDistance') ?? null,
});

/** What a ride's share link shows: the ride's own choice, else the rider's default. */
export async function shareChoices(
  services: Services,
  row: WorkoutRow,
): Promise<{ heartRate: boolean; power: boolean }> {
  if (row.share_heart_rate !== null && row.share_power !== null)
    return { heartRate: row.share_heart_rate, power: row.share_power };
  const [user] = await services.db.query<{ share_heart_rate: boolean; share_power: boolean }>(
    'SELECT share_heart_rate, share_power FROM users WHERE id = $1',
    [row.user_id],
  );
  return {
    heartRate: row.share_heart_rate ?? user?.share_heart_rate ?? true,
    power: row.share_power ?? user?.share_power ?? true,
  };
}

/** The detail reply of one workout. */
/** A device lap as the API sends it (snake_case; absent values null). */
const lapReply = (lap: ActivityLap) => ({
  start_s: lap.start,
  timer_time_s: lap.timerS ?? null,
  elapsed_time_s: lap.elapsedS ?? null,
  distance_m: lap.distanceM ?? null,
  speed_avg_ms: lap.avgSpeedMs ?? null,
  speed_max_ms: lap.maxSpeedMs ?? null,
  hr_avg: lap.avgHeartRate ?? null,
  hr_max: lap.maxHeartRate ?? null,
  power_avg: lap.avgPower ?? null,
  power_max: lap.maxPower ?? null,
  cadence_avg: lap.avgCadence ?? null,
  elevation_gain_m: lap.ascentM ?? null,
});

async function detail(services: Services, row: WorkoutRow): Promise<WorkoutDetail> {
  const zones = await zonesOf(services, row);
  const shows = await shareChoices(services, row);
  return {
    ...listItem(row),
    share_id: row.share_id,
    notes: row.notes,
    laps: (row.laps ?? []).map(lapReply),
    share_heart_rate: shows.heartRate,
    share_power: shows.power,
    summary: summaryReply(row.summary, row.device_summary),
    device_summary: row.device_summary,
    hr_zones: zones.hr_zones,
    power_zones: zones.power_zones,
    ftp: zones.ftp,
    ftp_source: zones.ftp_source,
    max_hr: zones.max_hr,
    max_hr_source: zones.max_hr_source,
    sessions: (row.sessions ?? []).length > 1 ? row.sessions.map(sessionReply) : [],
    damage: row.damage
      ? {
          code: row.damage.code,
          message_id: row.damage.messageId,
          message: row.damage.message,
          read_time_s: row.damage.readTimeS,
        }
      : null,
    file_format: row.file_format ?? 'fit',
    bounds: row.bounds,
  };
}

async function ownWorkout(
  services: Services,
  userId: number | undefined,
  id: number,
): Promise<WorkoutRow> {
  const [row] = await services.db.query<WorkoutRow>(
    'SELECT * FROM workouts WHERE id = $1 AND user_id = $2',
    [id, userId],
  );
  // Another user's workout is "not found": ids of others are not confirmed to exist.
  if (!row) throw notFound('Workout');
  return row;
}

/** The workout behind a share link, while sharing is on (else 404). */
export async function sharedWorkout(services: Services, shareId: string): Promise<WorkoutRow> {
  const [row] = await services.db.query<WorkoutRow>('SELECT * FROM workouts WHERE share_id = $1', [
    shareId,
  ]);
  if (!row) throw notFound('Shared workout');
  return row;
}

/** A ride's streams, never more than `points` per stream (the query's default bounds it). */
async function streamsReply(services: Services, workoutId: number, query: StreamsQuery) {
  const streams = await readStreams(services.db, workoutId);
  return streams ? streamsFrom(streams, query) : { length: 0, streams: {} };
}

/** What a streams request asks: points per stream and, when given, which streams. */
export interface StreamsQuery {
  points: number;
  streams?: readonly StreamName[] | undefined;
}

/**
 * Stored streams as the API sends them: the ones asked for, downsampled to `points`, rounded
 * to `STREAM_DECIMALS` (17-digit doubles were most of the reply), NaN as null, time rebased.
 */
export function streamsFrom(streams: Record<string, Float64Array>, query: StreamsQuery) {
  const { points } = query;
  const length = Object.values(streams)[0]?.length ?? 0;
  let indices: ArrayLike<number> | undefined;
  if (length > points) {
    // Keep each bucket's extremes of the busiest channel so peaks survive the reduction.
    const reference = streams.power ?? streams.speed ?? streams.heart_rate ?? streams.time!;
    indices = downsampleMinMax(reference, points);
  }
  const reply: Partial<Record<StreamName, (number | null)[]>> = {};
  const first = streams.time?.[0] ?? 0;
  for (const [name, column] of Object.entries(streams)) {
    const stream = name as StreamName;
    if (query.streams && !query.streams.includes(stream)) continue;
    const values = indices ? Array.from(indices, (index) => column[index]!) : Array.from(column);
    const scale = 10 ** (STREAM_DECIMALS[stream] ?? 3);
    const offset = stream === 'time' ? first : 0;
    reply[stream] = values.map((value) =>
      Number.isFinite(value) ? Math.round((value - offset) * scale) / scale : null,
    );
  }
  return { length: indices ? indices.length : length, streams: reply };
}

/**
 * A curve as sent: its exact values at `at` alone, else at the log-spaced durations. No
 * value is interpolated: the chart reads the one the rider points at with `at`.
 */
const curveReply = (
  curve: Float64Array | null,
  query: { points: number; at?: number | undefined },
) => {
  if (!curve) return null;
  const durations =
    query.at === undefined
      ? curveDurations(curve.length, query.points)
      : query.at <= curve.length
        ? [query.at]
        : [];
  return {
    durations,
    values: durations.map((duration) => {
      const value = curve[duration - 1]!;
      return Number.isFinite(value) ? value : null;
    }),
  };
};

const MIME: Readonly<Record<WorkoutDetail['file_format'], string>> = {
  fit: 'application/vnd.ant.fit',
  tcx: 'application/vnd.garmin.tcx+xml',
  gpx: 'application/gpx+xml',
  'fit.gz': 'application/gzip',
  'tcx.gz': 'application/gzip',
  'gpx.gz': 'application/gzip',
};

/** Stores one analysed workout: file, row, streams and curves together or not at all. */
async function storeWorkout(
  services: Services,
  userId: number,
  bytes: Uint8Array,
  analysis: Analysis,
  options: {
    name?: string;
    idempotencyKey?: string;
    idempotencyHash?: string;
    fileSha256?: string;
    /** The queued import whose file this is: already stored, and marked done with the row. */
    importRow?: ImportRow;
  } = {},
): Promise<number> {
  const format = `${analysis.format}${analysis.compressed ? '.gz' : ''}` as const;
  const { importRow } = options;
  const fileKey = importRow?.file_key ?? `workouts/${randomUUID()}.${format}`;
  const start = new Date(analysis.startTime * 1000);
  const thresholds = thresholdsOn(await thresholdHistory(services.db, userId), start, {
    ftp: analysis.fileFtp,
    maxHr: analysis.fileMaxHr,
  });
  const summary = withFtp(analysis.summary, thresholds.ftp ?? undefined);
  const device = analysis.deviceSummary as Record<string, unknown>;
  const shown = summaryReply(summary, device);
  if (!importRow) await services.blobs.put(fileKey, bytes);
  try {
    return await services.db.transaction(async (tx) => {
      // Given up meanwhile (its request's deadline): nothing is stored. The row lock also
      // makes a second attempt at the same import wait for, then see, the first one's end.
      if (importRow) await claimImportForStore(tx, importRow.id);
      // The upload's reservation counts its file; its streams must fit beside it.
      const packed = packStreams(analysis.streams);
      await assertStreamsFit(tx, userId, packed.length);
      const name =
        options.name ??
        `${analysis.indoor ? 'Indoor ride' : 'Ride'} ${start.toISOString().slice(0, 10)}`;
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO workouts (user_id, name, sport_type, start_time, indoor, distance_m, moving_time_s, total_time_s,
           speed_avg_ms, hr_avg, power_avg, elevation_gain_m, tss, summary, device_summary, bounds, file_key, file_bytes,
           idempotency_key, timer_time_s, timer, sessions, damage, file_format, file_ftp, file_max_hr, ftp, ftp_source,
           max_hr, max_hr_source, idempotency_hash, file_sha256, laps, import_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
           $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34) RETURNING id`,
        [
          userId,
          name,
          analysis.sportType,
          start,
          analysis.indoor,
          summary.distanceM,
          summary.movingTimeS,
          summary.totalTimeS,
          nullable(summary.avgSpeedMs),
          nullable(summary.avgHeartRate),
          nullable(summary.avgPower),
          shown.elevation_gain_m,
          shownTss(summary, device),
          JSON.stringify(summary),
          JSON.stringify(analysis.deviceSummary),
          analysis.bounds ? JSON.stringify(analysis.bounds) : null,
          fileKey,
          bytes.length,
          options.idempotencyKey ?? null,
          summary.timerTimeS,
          JSON.stringify(analysis.timer),
          JSON.stringify(analysis.sessions),
          analysis.damage ? JSON.stringify(analysis.damage) : null,
          format,
          analysis.fileFtp,
          analysis.fileMaxHr,
          thresholds.ftp,
          thresholds.ftpSource,
          thresholds.maxHr,
          thresholds.maxHrSource,
          options.idempotencyHash ?? null,
          options.fileSha256 ?? null,
          JSON.stringify(analysis.laps),
          importRow?.id ?? null,
        ],
      );
      const id = row!.id;
      await tx.query('INSERT INTO workout_streams (workout_id, length, data) VALUES ($1, $2, $3)', [
        id,
        analysis.streams.time!.length,
        packed,
      ]);
      await tx.query('INSERT INTO workout_curves (workout_id, power, speed) VALUES ($1, $2, $3)', [
        id,
        packCurve(analysis.powerCurve),
        packCurve(analysis.speedCurve),
      ]);
      await storeBests(tx, id, userId, start, analysis.bests);
      await addToDay(
        tx,
        userId,
        dayOf(start),
        rideDelta({
          tss: shownTss(summary, device),
          moving_time_s: summary.movingTimeS,
          distance_m: summary.distanceM,
          elevation_gain_m: shown.elevation_gain_m,
        }),
      );
      await addRideToBestCurves(tx, userId, start, analysis.powerCurve, analysis.speedCurve);
      if (importRow) await markImportDone(tx, importRow.id, id);
      return id;
    });
  } catch (error) {
    // No row, so no file: the stored file goes too. A queued import's file stays for its
    // next attempt; the queue deletes it when the import fails for good.
    if (!importRow) await services.blobs.delete(fileKey).catch(() => undefined);
    throw error;
  }
}

/** What the rider is told when the worker gave no result: never a bare 500. */
function analysisError(error: unknown): unknown {
  if (!(error instanceof AnalysisFailed)) return error; // the request's own deadline (503)
  switch (error.reason) {
    case 'timeout':
    case 'memory':
      // The file itself costs more than an import may: retrying will not help. 415 with the
      // reason, as for the file limits (samples, span): the portal shows 413 as the byte limit.
      return new ApiError(
        ErrorCode.UnsupportedFile,
        `This file cannot be imported: ${error.message}`,
        {
          errors: [{ path: 'file', message: `activityFiles.import.${error.reason}` }],
        },
      );
    case 'busy':
      return new ApiError(ErrorCode.Unavailable, error.message, {
        headers: { 'retry-after': '30' },
      });
    default:
      return new ApiError(
        ErrorCode.Unavailable,
        'The file could not be analysed just now; please try again',
        { headers: { 'retry-after': '5' } },
      );
  }
}

/**
 * The same file imported again (byte for byte): 409 naming the ride that holds it, so the
 * rider is taken there instead of getting a second copy.
 */
async function refuseDuplicate(services: Services, userId: number, fileSha256: string) {
  const [existing] = await services.db.query<{ id: number; name: string }>(
    'SELECT id, name FROM workouts WHERE user_id = $1 AND file_sha256 = $2',
    [userId, fileSha256],
  );
  if (existing)
    throw new ApiError(
      ErrorCode.Conflict,
      `You have imported this file already: "${existing.name}"`,
      { errors: [{ path: 'file', message: 'workouts.duplicate' }], existingId: existing.id },
    );
}

/** Whether a failed insert lost to a row with the same unique key (SQLSTATE 23505). */
const uniqueViolation = (error: unknown) => (error as { code?: unknown }).code === '23505';

/** Whether a failed insert lost to a row with the same key of `index` in particular. */
const lostUniqueRace = (error: unknown, index: string) => {
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  const where =
    typeof constraint === 'string' ? constraint : typeof message === 'string' ? message : '';
  return uniqueViolation(error) && where.includes(index);
};

/**
 * Runs one queued import (in whichever process took its job): reads its file, analyses it in
 * this process's worker threads and stores the workout, marking the import done in the same
 * transaction. A file that cannot be imported is an `ApiError` (the import fails for good);
 * a failure of ours (a crashed worker thread, the database gone) is retried by the queue.
 */
export async function runImport(
  services: Services,
  row: ImportRow,
  signal: AbortSignal,
): Promise<number> {
  const { user_id: userId, options } = row;
  const settings = await settingsOf(services, userId);
  const bytes = await services.blobs.get(row.file_key).catch((error: unknown) => {
    if ((error as { code?: string }).code === 'ENOENT' || /not found|404/i.test(String(error)))
      throw new ApiError(ErrorCode.Unavailable, 'The uploaded file is gone; please send it again');
    throw error;
  });
  let result: AnalysisResult;
  try {
    result = await services.pool.analyse(
      bytes,
      {
        distanceUnit: settings.distance_unit,
        // A .gz file may unpack to no more than an upload may be.
        maxBytes: services.config.maxFitBytes,
        maxSamples: services.config.importMaxSamples,
        maxDurationS: services.config.importMaxDurationS,
      },
      { owner: userId, signal },
    );
  } catch (error) {
    // Too costly (time, memory): for good. A crashed or busy worker thread: tried again.
    if (
      error instanceof AnalysisFailed &&
      (error.reason === 'timeout' || error.reason === 'memory')
    )
      throw analysisError(error);
    throw error;
  }
  if (!result.ok)
    throw new ApiError(
      ErrorCode.UnsupportedFile,
      `This file cannot be read: ${result.error.message}`,
      {
        errors: [{ path: 'file', message: result.error.messageId }],
      },
    );
  // Given up while the file was analysed: store nothing.
  signal.throwIfAborted();
  if (!hasRecordedData(result.analysis))
    throw new ApiError(
      ErrorCode.UnsupportedFile,
      'This file has no records: no time, position or sensor values to import',
      { errors: [{ path: 'file', message: 'activityFiles.fit.noRecords' }] },
    );
  try {
    return await storeWorkout(services, userId, bytes, result.analysis, {
      ...options,
      importRow: row,
    });
  } catch (error) {
    // A twin of this file (or a retry with the same Idempotency-Key) landed first: the
    // import fails for good, naming the ride that holds it.
    if (lostUniqueRace(error, 'workouts_user_file') && options.fileSha256)
      await refuseDuplicate(services, userId, options.fileSha256);
    if (uniqueViolation(error) && options.idempotencyKey)
      throw new ApiError(ErrorCode.Conflict, 'An upload with this Idempotency-Key landed first', {
        errors: [{ path: 'file', message: 'workouts.idempotencyRace' }],
      });
    throw error;
  }
}

/** Stores the upload, queues its import and waits for it (see `ImportJobs`). */
async function importActivity(
  services: Services,
  userId: number,
  bytes: Uint8Array,
  options: ImportRequest & { signal?: AbortSignal | undefined },
): Promise<number> {
  const { signal, ...request } = options;
  // A retry of an upload whose import is queued (its request was cut: a process died, a
  // connection dropped) waits for that import instead of queueing the file again. (One
  // still `uploading` may belong to a process that died: the retry queues its own.)
  const [pending] = request.idempotencyKey
    ? await services.db.query<{ id: string; hash: string | null }>(
        `SELECT id, options->>'idempotencyHash' AS hash FROM imports
          WHERE user_id = $1 AND options->>'idempotencyKey' = $2 AND status = 'queued'
          ORDER BY created_at LIMIT 1`,
        [userId, request.idempotencyKey],
      )
    : [];
  if (pending) assertSameUpload(pending.hash, request.idempotencyHash!);
  const importId = pending?.id ?? (await services.imports.enqueue(userId, bytes, request));
  // Only the request that queued an import gives it up at its deadline.
  const outcome = await services.imports.wait(importId, signal, { own: !pending });
  if (outcome.status === 'done') return outcome.workoutId;
  throw outcome.error;
}

/** The statistics of the samples of a ride with times in `[from, to)` seconds from its start. */
export async function rangeReply(services: Services, row: WorkoutRow, from: number, to: number) {
  const stored = await readStreams(services.db, row.id);
  const streams = stored ? rideStreamsOf(stored) : undefined;
  if (!streams) return { from_s: from, to_s: to, samples: 0, summary: summaryReply(row.summary) };
  const { time } = streams;
  const index = (seconds: number) => {
    let lo = 0;
    let hi = time.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (time[mid]! < seconds) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const start = index(from);
  const end = index(to);
  const summary = summarizeRange(
    streams,
    start,
    end,
    {
      distanceUnit: row.summary.distance?.unit === 'mi' ? 1 : 0,
      ...(row.ftp ? { ftpWatts: row.ftp } : {}),
    },
    row.timer ? { timer: row.timer } : {},
  );
  const whole = start === 0 && end === time.length;
  return {
    from_s: from,
    to_s: to,
    samples: end - start,
    // Over the whole ride, the same figures as the ride's summary: the device's included,
    // and a multisport file's distance added up by session.
    summary: whole
      ? summaryReply(
          (row.sessions ?? []).length > 1
            ? { ...summary, distanceM: row.summary.distanceM }
            : summary,
          row.device_summary,
        )
      : summaryReply(summary),
  };
}

/** What the activity import takes, by file name (the content decides the format). */
const ACTIVITY_EXTENSIONS = ['.fit', '.tcx', '.gpx', '.fit.gz', '.tcx.gz', '.gpx.gz'];

/** The list's and the totals' WHERE clause: the rider's workouts by sport and UTC dates. */
function workoutFilter(
  userId: number,
  query: {
    sport_type?: number | undefined;
    from?: string | undefined;
    to?: string | undefined;
    shared?: 'true' | 'false' | undefined;
  },
) {
  const where = ['user_id = $1'];
  const params: unknown[] = [userId];
  if (query.shared !== undefined)
    where.push(query.shared === 'true' ? 'share_id IS NOT NULL' : 'share_id IS NULL');
  if (query.sport_type !== undefined) {
    params.push(query.sport_type);
    where.push(`sport_type = $${params.length}`);
  }
  if (query.from) {
    params.push(new Date(`${query.from}T00:00:00Z`));
    where.push(`start_time >= $${params.length}`);
  }
  if (query.to) {
    params.push(new Date(`${query.to}T00:00:00Z`));
    where.push(`start_time < $${params.length}`);
  }
  return { filter: where.join(' AND '), params };
}

export function workoutRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  route(app, services, 'listWorkouts', async ({ userId, query, request }) => {
    const { filter, params } = workoutFilter(userId!, query);
    return paginate(
      db,
      request,
      query,
      {
        select: `SELECT ${LIST_COLUMNS} FROM workouts WHERE ${filter}`,
        params,
        orderBy: 'start_time DESC, id DESC',
        count: `SELECT count(*)::int AS count FROM workouts WHERE ${filter}`,
      },
      listItem,
    );
  });

  route(app, services, 'workoutTotals', async ({ userId, query }) => {
    const { filter, params } = workoutFilter(userId!, query);
    const [row] = await db.query<{
      count: number;
      distance_m: number | null;
      moving_time_s: number | null;
      elevation_gain_m: number | null;
    }>(
      `SELECT count(*)::int AS count, sum(distance_m)::float8 AS distance_m,
              sum(moving_time_s)::float8 AS moving_time_s,
              sum(elevation_gain_m)::float8 AS elevation_gain_m
         FROM workouts WHERE ${filter}`,
      params,
    );
    return {
      count: row?.count ?? 0,
      distance_m: row?.distance_m ?? 0,
      moving_time_s: row?.moving_time_s ?? 0,
      elevation_gain_m: row?.elevation_gain_m ?? 0,
    };
  });

  route(app, services, 'importWorkout', async ({ userId, request, reply }) => {
    const upload = await readUpload(request, services, userId!, {
      maxBytes: services.config.maxFitBytes,
      extension: ACTIVITY_EXTENSIONS,
      kind: 'activity (.fit, .tcx, .gpx)',
    });
    const file = upload.bytes;
    const fields = parse(workoutImportFieldsSchema, upload.fields, 'fields');
    const idempotencyKey = idempotencyKeyOf(request);
    const idempotencyHash = idempotencyKey ? uploadDigest(file, upload.fields) : undefined;
    const fileSha256 = createHash('sha256').update(file).digest('hex');
    if (idempotencyKey) {
      const [existing] = await db.query<WorkoutRow>(
        'SELECT * FROM workouts WHERE user_id = $1 AND idempotency_key = $2',
        [userId, idempotencyKey],
      );
      if (existing) {
        assertSameUpload(existing.idempotency_hash ?? null, idempotencyHash!);
        return detail(services, existing);
      }
    }
    await refuseDuplicate(services, userId!, fileSha256);
    let id: number;
    try {
      id = await importActivity(services, userId!, file, {
        fileSha256,
        signal: deadlineSignal(request),
        ...(fields.name ? { name: fields.name } : {}),
        ...(idempotencyKey ? { idempotencyKey, idempotencyHash: idempotencyHash! } : {}),
      });
    } catch (error) {
      // A concurrent retry with the same key won the insert (on either of the ride's unique
      // keys: the same key carries the same file): answer with its workout.
      if (idempotencyKey && error instanceof ApiError && error.code === ErrorCode.Conflict) {
        const [existing] = await db.query<WorkoutRow>(
          'SELECT * FROM workouts WHERE user_id = $1 AND idempotency_key = $2',
          [userId, idempotencyKey],
        );
        if (existing) {
          assertSameUpload(existing.idempotency_hash ?? null, idempotencyHash!);
          return detail(services, existing);
        }
      }
      throw error;
    }
    reply.status(201);
    return detail(services, await ownWorkout(services, userId, id));
  });

  route(app, services, 'getWorkout', async ({ userId, params }) =>
    detail(services, await ownWorkout(services, userId, params.id)),
  );

  route(app, services, 'patchWorkout', async ({ userId, params, body }) => {
    const row = await ownWorkout(services, userId, params.id);
    const shareId =
      body.shared === undefined
        ? row.share_id
        : body.shared
          ? (row.share_id ?? randomBytes(16).toString('base64url'))
          : null;
    // Sharing on: the ride keeps the rider's current defaults unless it chose its own.
    const defaults = shareId !== null ? await shareChoices(services, row) : undefined;
    await db.query(
      `UPDATE workouts SET name = $1, share_id = $2, share_heart_rate = $3, share_power = $4,
         sport_type = $6, notes = $7
       WHERE id = $5`,
      [
        body.name ?? row.name,
        shareId,
        body.share_heart_rate ?? row.share_heart_rate ?? defaults?.heartRate ?? null,
        body.share_power ?? row.share_power ?? defaults?.power ?? null,
        row.id,
        body.sport_type ?? row.sport_type,
        body.notes ?? row.notes,
      ],
    );
    forgetPreview(row.share_id);
    return detail(services, await ownWorkout(services, userId, params.id));
  });

  route(app, services, 'deleteWorkout', async ({ userId, params }) => {
    const row = await ownWorkout(services, userId, params.id);
    await db.transaction(async (tx) => {
      await lockRider(tx, row.user_id);
      const [gone] = await tx.query<WorkoutRow>('DELETE FROM workouts WHERE id = $1 RETURNING *', [
        row.id,
      ]);
      // Its day's totals and the fitness of the days after lose it in the same transaction.
      if (gone)
        await addToDay(tx, gone.user_id, dayOf(new Date(gone.start_time)), rideDelta(gone, -1));
      if (gone) await removeRideFromBestCurves(tx, gone.user_id, new Date(gone.start_time));
    });
    forgetPreview(row.share_id);
    forgetStreams(db, row.id);
    await services.blobs.delete(row.file_key).catch(() => undefined);
    return {};
  });

  route(app, services, 'workoutStreams', async ({ userId, params, query }) => {
    const row = await ownWorkout(services, userId, params.id);
    return streamsReply(services, row.id, query);
  });

  route(app, services, 'workoutFile', async ({ userId, params, reply }) => {
    const row = await ownWorkout(services, userId, params.id);
    const bytes = await services.blobs.get(row.file_key);
    const format = row.file_format ?? 'fit';
    return sendAttachment(reply, bytes, {
      type: MIME[format],
      asciiName: `workout-${row.id}.${format}`,
      name: `${safeFileName(row.name, 'workout')}.${format}`,
    });
  });

  route(app, services, 'workoutRange', async ({ userId, params, query }) =>
    rangeReply(services, await ownWorkout(services, userId, params.id), query.from, query.to),
  );

  route(app, services, 'powerCurve', async ({ userId, params, query }) => {
    const row = await ownWorkout(services, userId, params.id);
    const [curves] = await db.query<{ power: Uint8Array | null; speed: Uint8Array | null }>(
      'SELECT power, speed FROM workout_curves WHERE workout_id = $1',
      [row.id],
    );
    const power = unpackCurve(curves?.power ?? null);
    const speed = unpackCurve(curves?.speed ?? null);
    // Each period's best curves are kept on import and delete (`bestCurves.ts`): a
    // comparison reads a row per period, never the rider's whole history.
    let comparison = null;
    if (query.compare !== 'none') {
      const best = await comparisonCurves(db, userId!, query.compare, services.now());
      comparison = {
        power: curveReply(best.power, query),
        speed: curveReply(best.speed, query),
        workouts: best.workouts,
      };
    }
    // One row per year ridden (the year rows of the per-period best curves).
    const thisYear = new Date(services.now()).getUTCFullYear();
    const years = await db.query<{ period: string }>(
      `SELECT period FROM best_curves WHERE user_id = $1 AND period LIKE 'Y%' ORDER BY period DESC`,
      [userId],
    );
    return {
      power: curveReply(power, query),
      speed: curveReply(speed, query),
      compare: query.compare,
      comparison,
      ftp_estimate: power ? (estimateFtp(power) ?? null) : null,
      years_with_rides: years
        .map((row) => Number(row.period.slice(1)))
        .filter((year) => Number.isInteger(year) && year < thisYear),
    };
  });

  route(app, services, 'unshareAll', async ({ userId }) => {
    const rows = await db.query<{ share_id: string }>(
      'UPDATE workouts w SET share_id = NULL FROM (SELECT id, share_id FROM workouts WHERE user_id = $1 AND share_id IS NOT NULL FOR UPDATE) old WHERE w.id = old.id RETURNING old.share_id',
      [userId],
    );
    for (const row of rows) forgetPreview(row.share_id);
    return { unshared: rows.length };
  });
}
