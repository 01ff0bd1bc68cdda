// From stored rows to the contract's shapes: a ride's detail, summary, sessions, laps, zones,
// streams, curve and range statistics, shared by the rider's routes and the share link's.
// Over 300 lines because the detail reply is one mapping (summary, device figures, sessions,
// laps, zones and thresholds) that reads best whole.
import { STREAM_DECIMALS, type StreamName, type WorkoutDetail } from '@xoss/api-contract';
import {
  downsampleMinMax,
  estimateFtp,
  type powerZoneTimes,
  type WorkoutSummary,
} from '@xoss/workout-stats';
import type { ActivityLap } from '@xoss/activity-files';
import { distanceUnitSetting } from '@xoss/data-fields';
import type { Services } from '../services.ts';
import { type SessionAnalysis } from '../analysis/analyse.ts';
import { INLINE_SAMPLES, rangeFigures, zoneFigures } from '../analysis/figures.ts';
import { curveDurations } from '../analysis/curveDurations.ts';
import { readStreams, unpackCurve } from './streams.ts';
import { usesDevicePower } from '../analysis/thresholds.ts';
import { listItem, nullable, type WorkoutRow, type ZoneCache } from './rows.ts';

export type DeviceSummary = Record<string, unknown>;

const deviceNumber = (device: DeviceSummary, field: string) => {
  const value = device[field];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

/** What a whole ride's summary holds beyond its streams' figures (`rangeReply`). */
function wholeRideExtras(summary: WorkoutSummary): Partial<WorkoutSummary> {
  const stored = summary as { cleaning?: unknown; tssMethod?: string };
  return {
    ...(stored.cleaning ? ({ cleaning: stored.cleaning } as Partial<WorkoutSummary>) : {}),
    ...(stored.tssMethod === 'heartRate' || stored.tssMethod === 'pace'
      ? ({
          trainingStressScore: summary.trainingStressScore,
          tssMethod: stored.tssMethod,
        } as Partial<WorkoutSummary>)
      : {}),
  };
}

/** What a summary's TSS measures (`thresholds.ts`, `measuredSummary`); null without one. */
function tssMethodOf(summary: WorkoutSummary): WorkoutDetail['summary']['tss_method'] {
  if (summary.trainingStressScore === undefined || !Number.isFinite(summary.trainingStressScore))
    return null;
  const method = (summary as { tssMethod?: string }).tssMethod;
  return method === 'heartRate' ? 'heart_rate' : method === 'pace' ? 'pace' : 'power';
}

/** Where the ride as kept begins in its recording (`summary.recordingOffsetS`), if known. */
function recordingOffsetOf(summary: unknown): number | null {
  const offset = (summary as { recordingOffsetS?: unknown } | null)?.recordingOffsetS;
  return typeof offset === 'number' && Number.isFinite(offset) ? offset : null;
}

/** What the import's cleaning took out (`summary.cleaning`), as sent; null without it. */
function removedSamples(summary: WorkoutSummary): WorkoutDetail['summary']['removed_samples'] {
  const counts = (summary as { cleaning?: Partial<Record<string, number>> }).cleaning;
  if (!counts) return null;
  const count = (value: number | undefined) => (Number.isFinite(value) ? value! : 0);
  return {
    points: count(counts.points),
    power: count(counts.power),
    heart_rate: count(counts.heartRate),
    cadence: count(counts.cadence),
    speed: count(counts.speed),
    distance: count(counts.distance),
  };
}

/**
 * The summary as the API sends it. For a whole ride, where the device stored its own
 * distance, calories, climbing or NP/IF/TSS (with its FTP, when the ride uses that FTP and the cleaning
 * took no power sample out), those are
 * shown and marked as the device's: our figure and the device's differ by design (calories from heart rate, the
 * elevation filter, NP conventions). A range always shows ours.
 */
export function summaryReply(
  summary: WorkoutSummary,
  device: DeviceSummary = {},
  ftpSource: WorkoutDetail['ftp_source'] = 'file',
): WorkoutDetail['summary'] {
  const calories = deviceNumber(device, 'totalCalories');
  const ascent = deviceNumber(device, 'totalAscent');
  const descent = deviceNumber(device, 'totalDescent');
  // The device's NP, IF and TSS as a set, when it had an FTP to compute them with and the
  // ride is measured against that FTP (a rider's own FTP overrules the device's, and the
  // device's IF and TSS with it).
  const deviceTss = usesDevicePower(summary, ftpSource, device)
    ? deviceNumber(device, 'trainingStressScore')
    : undefined;
  const np = deviceTss !== undefined ? deviceNumber(device, 'normalizedPower') : undefined;
  const ownNp = summary.normalizedPower !== undefined && Number.isFinite(summary.normalizedPower);
  // Nothing measured distance (no distance, position or speed: no average speed either).
  const unmeasured =
    summary.distanceM === 0 &&
    summary.estimatedDistanceM === undefined &&
    summary.avgSpeedMs === undefined;
  // The device's distance, as Garmin Connect, Strava and intervals.icu show it: the rider's
  // device counted it (wheel sensor or its own GPS filter), and our cleaning of a position
  // or clock glitch must not move it (a run's GPS jumps took 1-3 % off ours).
  const deviceDistance = deviceNumber(device, 'totalDistance');
  const distance = deviceDistance !== undefined && deviceDistance > 0 ? deviceDistance : undefined;
  return {
    distance_m: distance ?? (unmeasured ? null : summary.distanceM),
    distance_source: distance !== undefined ? 'device' : unmeasured ? null : 'computed',
    estimated_distance_m: unmeasured ? null : (summary.estimatedDistanceM ?? summary.distanceM),
    total_time_s: summary.totalTimeS,
    // Rides imported before the timer was read: their moving time is the best we have.
    timer_time_s: summary.timerTimeS ?? summary.movingTimeS,
    moving_time_s: summary.movingTimeS,
    paused_time_s: summary.pausedTimeS,
    stopped_time_s: summary.stoppedTimeS ?? 0,
    // Distance over moving time, whichever distance is shown.
    speed_avg_ms:
      distance !== undefined && summary.movingTimeS > 0
        ? distance / summary.movingTimeS
        : nullable(summary.avgSpeedMs),
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
          tss_method: 'power' as const,
        }
      : {
          np: nullable(summary.normalizedPower),
          if: nullable(summary.intensityFactor),
          tss: nullable(summary.trainingStressScore),
          np_source: ownNp ? ('computed' as const) : null,
          tss_method: tssMethodOf(summary),
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
    removed_samples: removedSamples(summary),
  };
}

export async function settingsOf(services: Services, userId: number) {
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
  const streams = (await readStreams(services, row.id)) ?? {};
  const [curves] = await services.db.query<{ power: Uint8Array | null }>(
    'SELECT power FROM workout_curves WHERE workout_id = $1',
    [row.id],
  );
  const powerCurve = unpackCurve(curves?.power ?? null);
  const estimate = row.ftp === null && powerCurve ? (estimateFtp(powerCurve) ?? null) : null;
  const ftp = row.ftp ?? estimate;
  const rideMax = row.summary.maxHeartRate ? Math.round(row.summary.maxHeartRate) : null;
  const maxHr = row.max_hr ?? rideMax;
  const task = { streams, maxHr, ftp, timer: row.timer };
  const figures =
    (streams.time?.length ?? 0) > INLINE_SAMPLES
      ? await services.pool.figures('zones', task, row.user_id)
      : zoneFigures(task);
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
    hr_zones: zones(figures.heartRate),
    power_zones: zones(figures.power),
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
async function shareChoices(
  services: Services,
  row: WorkoutRow,
): Promise<{ heartRate: boolean; power: boolean }> {
  if (row.share_heart_rate !== null && row.share_power !== null) return choicesOf(row, undefined);
  const [user] = await services.db.query<{ share_heart_rate: boolean; share_power: boolean }>(
    'SELECT share_heart_rate, share_power FROM users WHERE id = $1',
    [row.user_id],
  );
  return choicesOf(row, user);
}

/** What a shared ride shows: the ride's own choice, else its rider's, else everything. */
export function choicesOf(
  row: Pick<WorkoutRow, 'share_heart_rate' | 'share_power'>,
  rider: { share_heart_rate: boolean | null; share_power: boolean | null } | undefined,
): { heartRate: boolean; power: boolean } {
  return {
    heartRate: row.share_heart_rate ?? rider?.share_heart_rate ?? true,
    power: row.share_power ?? rider?.share_power ?? true,
  };
}

/** The detail reply of one workout. */
/** A device lap as the API sends it (snake_case; absent values null). */
// A device often starts its first lap a second (or more) before its first record: the lap is
// sent from the ride's start, as no sample lies before it, so a range over it (the portal
// zooms to a lap) is never refused for a negative start.
const lapReply = (lap: ActivityLap) => ({
  start_s: Math.max(0, lap.start),
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

export async function detail(services: Services, row: WorkoutRow): Promise<WorkoutDetail> {
  const zones = await zonesOf(services, row);
  const shows = await shareChoices(services, row);
  return {
    ...listItem(row),
    share_id: row.share_id,
    notes: row.notes,
    laps: (row.laps ?? []).map(lapReply),
    share_heart_rate: shows.heartRate,
    share_power: shows.power,
    summary: summaryReply(row.summary, row.device_summary, row.ftp_source),
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
    gear: row.gear ?? null,
    exclude_from_bests: row.exclude_from_bests ?? false,
    crop: row.crop ?? null,
    keep_removed: row.keep_removed ?? false,
    recording_offset_s: recordingOffsetOf(row.summary),
    date_warning: row.date_warning ?? null,
    time_shift_s: row.time_shift_s ?? 0,
    file_ftp: row.file_ftp ?? null,
    ftp_choice: row.ftp_choice === 'file' ? 'file' : 'settings',
    legs: await legsOf(services, row),
  };
}

/**
 * The legs of the multisport file a ride is one of, in order (they share the file's SHA-256:
 * the first leg holds it as it is, the others with `:leg<k>`); empty for a file of one sport.
 */
async function legsOf(services: Services, row: WorkoutRow): Promise<WorkoutDetail['legs']> {
  const file = row.file_sha256?.split(':')[0];
  if (!file || !(row.legs > 1)) return [];
  const legs = await services.db.query<{
    id: number;
    name: string;
    sport_type: number;
    start_time: Date;
  }>(
    `SELECT id, name, sport_type, start_time FROM workouts
      WHERE user_id = $1 AND legs > 1 AND split_part(file_sha256, ':', 1) = $2
      ORDER BY leg, start_time LIMIT 64`,
    [row.user_id, file],
  );
  return legs.length > 1
    ? legs.map((leg) => ({ ...leg, start_time: new Date(leg.start_time).toISOString() }))
    : [];
}

/** A ride's streams, never more than `points` per stream (the query's default bounds it). */
export async function streamsReply(
  services: Services,
  workoutId: number,
  query: StreamsQuery,
  /** Computed streams sent beside the stored ones (the W' balance), sample for sample. */
  computed?: Record<string, Float64Array>,
) {
  const streams = await readStreams(services, workoutId);
  return streams ? streamsFrom({ ...streams, ...computed }, query) : { length: 0, streams: {} };
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
export function streamsFrom(
  streams: Record<string, Float64Array>,
  query: StreamsQuery,
  options: {
    /** The time that counts as 0 (default: the first sample's). */
    origin?: number;
    /** Values sent as null: of streams `names`, at the samples `mask` marks (privacy). */
    withheld?: { readonly mask: ArrayLike<number>; readonly names: ReadonlySet<string> };
  } = {},
) {
  const { points } = query;
  const length = Object.values(streams)[0]?.length ?? 0;
  let indices: ArrayLike<number> | undefined;
  if (length > points) {
    // Keep each bucket's extremes of the busiest channel so peaks survive the reduction (a
    // muscle-oxygen sensor's file may have no other channel than its SmO2).
    const reference =
      streams.power ?? streams.speed ?? streams.heart_rate ?? streams.smo2 ?? streams.time!;
    indices = downsampleMinMax(reference, points);
  }
  const reply: Partial<Record<StreamName, (number | null)[]>> = {};
  const first = options.origin ?? streams.time?.[0] ?? 0;
  for (const [name, column] of Object.entries(streams)) {
    const stream = name as StreamName;
    if (query.streams && !query.streams.includes(stream)) continue;
    const mask = options.withheld?.names.has(name) ? options.withheld.mask : undefined;
    const count = indices ? indices.length : length;
    const scale = 10 ** (STREAM_DECIMALS[stream] ?? 3);
    const offset = stream === 'time' ? first : 0;
    const values = new Array<number | null>(count);
    for (let k = 0; k < count; k++) {
      const index = indices ? indices[k]! : k;
      const value = column[index]!;
      values[k] =
        Number.isFinite(value) && !mask?.[index]
          ? Math.round((value - offset) * scale) / scale
          : null;
    }
    reply[stream] = values;
  }
  return { length: indices ? indices.length : length, streams: reply };
}

/**
 * A curve as sent: its exact values at `at` alone, else at the log-spaced durations. No
 * value is interpolated: the chart reads the one the rider points at with `at`.
 */
export const curveReply = (
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

/** The statistics of the samples of a ride with times in `[from, to)` seconds from its start. */
export async function rangeReply(services: Services, row: WorkoutRow, from: number, to: number) {
  const streams = await readStreams(services, row.id);
  const task = {
    streams: streams ?? {},
    from,
    to,
    distanceUnit: distanceUnitSetting(row.summary.distance?.unit ?? 'km'),
    ftpWatts: row.ftp,
    timer: row.timer,
  };
  const figures =
    (streams?.time?.length ?? 0) > INLINE_SAMPLES
      ? await services.pool.figures('range', task, row.user_id)
      : rangeFigures(task);
  if (!figures) return { from_s: from, to_s: to, samples: 0, summary: summaryReply(row.summary) };
  const { samples, whole, summary } = figures;
  return {
    from_s: from,
    to_s: to,
    samples,
    // Over the whole ride, the same figures as the ride's summary: the device's included,
    // and a multisport file's distance added up by session.
    summary: whole
      ? summaryReply(
          {
            ...summary,
            ...((row.sessions ?? []).length > 1 ? { distanceM: row.summary.distanceM } : {}),
            // What the import cleaned, and a load scored from heart rate, are the ride's.
            ...wholeRideExtras(row.summary),
          },
          row.device_summary,
          row.ftp_source,
        )
      : summaryReply(summary),
  };
}
