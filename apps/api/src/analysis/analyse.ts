// Over 300 lines: the analysis of one file in an import worker (decode, timeline, summary,
// sessions, laps, curves, bests, damage report) runs as one pass, kept together.
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import {
  FIT_MAX_BYTES,
  activityFromGpx,
  activityFromTcx,
  activityOverview,
  decodeFit,
  fitLegCount,
  fitLegs,
  fitRecordings,
  hasFitSignature,
  parseGpx,
  parseTcx,
  tcxRecordings,
  messageIdOf,
  type ActivityFileError,
  type ActivityLap,
  type ActivityOverview,
  type ErrorCodeOf,
  type ErrorFormat,
} from '@xoss/activity-files';
import type { DistanceUnitSetting } from '@xoss/data-fields';
import {
  BEST_DISTANCES_M,
  BEST_DISTANCE_MIN_S_PER_KM,
  bestPowers,
  cleanStreams,
  sportTopSpeedMs,
  estimateFtp,
  fastestDistances,
  gradeSeries,
  heartRateSecondsByBpm,
  normalizedGradedSpeed,
  oneHertzSeries,
  summarizeSessions,
  timeline,
  type CleaningCounts,
  type RideStreams,
  type TimerIntervals,
  type WorkoutSummary,
} from '@xoss/workout-stats';
import { bytesText } from '../platform/bytes.ts';
import { effortClock } from './effortClock.ts';
import { rideFacts, type RideFacts } from './rideAnalysis.ts';
import { clockCurve, STORED_STREAMS, type StoredStreams } from './series.ts';

/** The non-zero entries of a table by index, as `{ index: value }`. */
function sparse(table: Float64Array): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  table.forEach((value, index) => {
    if (value > 0) out[index] = value;
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The formats an activity import reads; `.gz` of each too. */
type ActivityFormat = 'fit' | 'tcx' | 'gpx';

/** One session of a multisport file: its window and our figures beside the device's. */
export interface SessionAnalysis {
  readonly sportType: number;
  readonly startS: number;
  readonly endS: number;
  readonly summary: WorkoutSummary;
  readonly device: Record<string, number | string | readonly number[]>;
}

/** What was wrong with a damaged file that was read up to the damage. */
export interface Damage {
  readonly code: string;
  readonly messageId: string;
  readonly message: string;
  /** Seconds of the ride the readable part covers. */
  readonly readTimeS: number;
}

/** What an import computes from an activity file, off the event loop. */
export interface Analysis {
  readonly format: ActivityFormat;
  readonly compressed: boolean;
  readonly sportType: number;
  readonly startTime: number;
  readonly indoor: boolean;
  /**
   * Figures without a threshold (IF and TSS need the ride's FTP: see `withThresholds`), and
   * what the cleaning took out of the file's streams before any figure (`cleaning`).
   */
  readonly summary: WorkoutSummary & {
    readonly cleaning?: CleaningCounts;
    /** Seconds from the recording's first sample to the first sample of the ride as kept. */
    readonly recordingOffsetS?: number;
    /** Seconds from the recording's first sample to its last: how far a crop may reach. */
    readonly recordingS?: number;
    /**
     * Timer seconds at each heart rate (bpm: seconds), kept so the ride's heart-rate load can
     * be scored against whichever maximum the rider sets (`thresholds.ts`).
     */
    readonly heartRateSeconds?: Readonly<Record<string, number>>;
    /** Normalized graded speed over the timer (m/s): a run's pace load (`thresholds.ts`). */
    readonly gradedSpeedMs?: number;
  };
  readonly sessions: readonly SessionAnalysis[];
  /** The device's own totals (its first session), as stored. */
  readonly deviceSummary: Record<string, number | string | readonly number[]>;
  /** The FTP and max heart rate the device was set to, when the file stores them. */
  readonly fileFtp: number | null;
  readonly fileMaxHr: number | null;
  readonly timer: TimerIntervals;
  /** The laps the device recorded, as it summed them up (none for a GPX or a lap-less file). */
  readonly laps: readonly ActivityLap[];
  readonly damage: Damage | null;
  readonly bounds: { min_lat: number; min_lon: number; max_lat: number; max_lon: number } | null;
  /** The cleaned streams (`cleanStreams`): what every figure of the ride is computed from. */
  readonly streams: StoredStreams;
  /**
   * The streams as stored (`packStreams`), made in the import worker so the API's thread
   * never packs tens of MB; handed over to the database once (empty after). The worker then
   * sends `streams` empty, with their length (`samples`) and whether they hold anything
   * besides the clock (`recorded`).
   */
  readonly packed?: Uint8Array;
  readonly samples?: number;
  readonly recorded?: boolean;
  readonly powerCurve: Float64Array | null;
  readonly speedCurve: Float64Array | null;
  readonly ftpEstimate: number | null;
  /**
   * The file's other recordings (a chained FIT file's other activities, a TCX file's other
   * `<Activity>` elements), each as a file of its own: imported as rides of their own.
   */
  readonly more?: readonly Uint8Array[];
  /**
   * The legs of a multisport file (a triathlon's swim, T1, bike, T2 and run: its sessions of
   * more than one sport), when it has more than one: this analysis is of leg `leg` (the
   * first unless asked), and each other leg is imported as an activity of its own.
   */
  readonly legs?: number;
  /** Personal-best efforts: best power per `BEST_POWER_DURATIONS_S`, fastest time per `BEST_DISTANCES_M`. */
  readonly bests: RideBests;
  /** The same as a run's (`runBests`): stored for a run instead of `bests`. */
  readonly runBests: RideBests;
  /** Efficiency factor, aerobic decoupling and climbs (`workout_facts`). */
  readonly facts: RideFacts;
}

/** A run's best efforts: running power (a running power meter) and pace over distances. */
export const RUN_BEST_POWER_DURATIONS_S = [60, 300, 1200] as const;
export const RUN_BEST_DISTANCES_M = [1000, 5000, 10_000, 21_097.5, 42_195] as const;

/**
 * A run's best efforts, as `rideBests` (power from its mean-max curve, fastest distances on
 * its effort clock) over a run's durations and distances (`RUN_BEST_…`); which are a
 * runner's is decided where they are stored (`training/days.ts`).
 */
export function runBests(
  streams: RideStreams,
  powerCurve: Float64Array | null,
  running: ArrayLike<number>,
): RideBests {
  return {
    powerW: RUN_BEST_POWER_DURATIONS_S.map((seconds) =>
      powerCurve && powerCurve.length >= seconds ? powerCurve[seconds - 1]! : null,
    ),
    timeS: streams.distance
      ? orNull(
          fastestDistances(
            effortClock(streams.time, streams.distance, running),
            streams.distance,
            RUN_BEST_DISTANCES_M,
          ),
        )
      : RUN_BEST_DISTANCES_M.map(() => null),
  };
}

/** A ride's best efforts (null where the ride is too short or lacks the channel). */
export interface RideBests {
  readonly powerW: readonly (number | null)[];
  readonly timeS: readonly (number | null)[];
}

const orNull = (values: (number | undefined)[]) => values.map((value) => value ?? null);

/**
 * A ride's best efforts: power from its mean-max curve (over its efforts), fastest distances
 * from its distance channel on `effortClock` (`running`: the timer seconds of each sample).
 * Only what a rider could do: power up to `BEST_POWER_MAX_W` (`bestPowers`), distances no
 * faster than `BEST_DISTANCE_MIN_S_PER_KM` (a clock or a position that jumped).
 */
export function rideBests(
  streams: RideStreams,
  powerCurve: Float64Array | null,
  running: ArrayLike<number>,
): RideBests {
  return {
    powerW: orNull(bestPowers(powerCurve)),
    timeS: streams.distance
      ? orNull(
          fastestDistances(
            effortClock(streams.time, streams.distance, running),
            streams.distance,
            BEST_DISTANCES_M,
          ).map((seconds, index) =>
            seconds !== undefined &&
            seconds >= (BEST_DISTANCES_M[index]! / 1000) * BEST_DISTANCE_MIN_S_PER_KM
              ? seconds
              : undefined,
          ),
        )
      : BEST_DISTANCES_M.map(() => null),
  };
}

/** What the import itself refuses before or after a decoder (docs/api.md, 10415 and 10413). */
type ArchiveCode = 'archive' | 'tooLarge' | 'unknownFormat';
type ImportLimitCode = 'tooLong' | 'tooManySamples';

/** Why an import refused a file: a decoder's error, or one of the import's own. */
type ImportFileError =
  | ActivityFileError
  | {
      readonly code: ArchiveCode;
      readonly messageId: `activityFiles.archive.${ArchiveCode}`;
      readonly message: string;
    }
  | {
      readonly code: ImportLimitCode;
      readonly messageId: `activityFiles.import.${ImportLimitCode}`;
      readonly message: string;
    }
  | {
      readonly code: 'tooManyActivities';
      readonly messageId: 'workouts.tooManyActivities';
      readonly message: string;
    };

export type AnalysisResult =
  | { readonly ok: true; readonly value: Analysis }
  | { readonly ok: false; readonly error: ImportFileError };

/** A file the import refuses, with the reason. */
type Refusal = Extract<AnalysisResult, { ok: false }>;

/** Refuses with a decoder's code for what the decoder read but the import cannot take. */
const refuse = <F extends ErrorFormat>(
  code: ErrorCodeOf<F>,
  format: F,
  message: string,
): Refusal => ({
  ok: false,
  error: { code, messageId: messageIdOf(format, code), message },
});

const refuseArchive = (code: ArchiveCode, message: string): Refusal => ({
  ok: false,
  error: { code, messageId: `activityFiles.archive.${code}`, message },
});

const refuseLimit = (code: ImportLimitCode, message: string): Refusal => ({
  ok: false,
  error: { code, messageId: `activityFiles.import.${code}`, message },
});

/**
 * Activities one file may hold (its recordings, a multisport file's legs, a TCX's
 * `<Activity>` elements): each becomes an import of its own.
 */
export const MAX_ACTIVITIES_PER_FILE = 32;

/** Refused before any activity of the file is read: it holds more than an import takes. */
export const tooManyActivities = (count: number) =>
  ({
    ok: false,
    error: {
      code: 'tooManyActivities',
      messageId: 'workouts.tooManyActivities',
      message:
        `The file holds ${count} activities; one file may hold at most ` +
        `${MAX_ACTIVITIES_PER_FILE}. Split it`,
    },
  }) as const satisfies Refusal;

/** The format of an activity file by its content: FIT by its signature, XML by its root. */
function sniffFormat(bytes: Uint8Array): ActivityFormat | undefined {
  if (hasFitSignature(bytes)) return 'fit';
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 4096));
  if (/<(?:\w+:)?TrainingCenterDatabase[\s>]/.test(head)) return 'tcx';
  if (/<(?:\w+:)?gpx[\s>]/.test(head)) return 'gpx';
  return undefined;
}

/**
 * Whether a file's first bytes are an activity's (FIT, TCX or GPX; inside gzip too), without
 * reading it: an archive's entry that is not one is skipped with its reason instead of
 * costing an import (`imports/archives.ts`). Of a gzip file only the first 8 KB are unpacked.
 */
export function looksLikeActivity(bytes: Uint8Array): boolean {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    let head: Uint8Array;
    try {
      head = gunzipSync(bytes.subarray(0, 8192), {
        finishFlush: zlibConstants.Z_SYNC_FLUSH,
        maxOutputLength: 1 << 20,
      });
    } catch {
      // More than 1 MB out of 8 KB in: a bomb or a large text, not a gzipped activity's start.
      return false;
    }
    return sniffFormat(head) !== undefined;
  }
  return sniffFormat(bytes) !== undefined;
}

/** Unpacks a gzip file within the size limit; `undefined` when it is not gzip. */
function gunzip(bytes: Uint8Array, maxBytes: number): Uint8Array | AnalysisResult | undefined {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return undefined;
  try {
    return new Uint8Array(gunzipSync(bytes, { maxOutputLength: maxBytes }));
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      ? refuseArchive('tooLarge', `The unpacked file is larger than ${bytesText(maxBytes)}`)
      : refuseArchive('archive', 'The .gz file is damaged and cannot be unpacked');
  }
}

/** The activity in a file of any format; an error when it holds none. */
function overviewOf(
  bytes: Uint8Array,
  format: ActivityFormat,
  maxSamples: number,
  leg = 0,
): { ok: true; value: ActivityOverview; more?: Uint8Array[]; legs?: number } | Refusal {
  if (format === 'fit') {
    const [first, ...others] = fitRecordings(bytes);
    const decoded = decodeFit(first!);
    if (!decoded.ok) return decoded;
    // Counted from the sessions, before any leg is cut from the records (a file of 5,000
    // sessions took 32 s to be refused after its analysis).
    const activities = fitLegCount(decoded.value) + others.length;
    if (activities > MAX_ACTIVITIES_PER_FILE) return tooManyActivities(activities);
    // A multisport recording: one leg per session, this analysis of the one asked for.
    const legs = fitLegs(decoded.value);
    const activity = legs[Math.min(leg, legs.length - 1)]!;
    // Refused before the costly part (the overview and the statistics).
    if (activity.records.length > maxSamples)
      return tooManySamples(activity.records.length, maxSamples);
    const overview = activityOverview(activity);
    if (overview.streams.time.length < 2 && decoded.value.damage)
      return { ok: false, error: decoded.value.damage };
    // Copies: a view would carry the whole file's buffer to the API's thread with each part.
    // A leg's analysis leaves the file's other recordings to its first leg.
    return {
      ok: true,
      value: overview,
      more: leg === 0 ? others.map((part) => part.slice()) : [],
      ...(legs.length > 1 ? { legs: legs.length } : {}),
    };
  }
  if (format === 'tcx') {
    const parsed = parseTcx(bytes);
    if (!parsed.ok) return parsed;
    const overview = activityFromTcx(parsed.value);
    if (!overview)
      return refuse('noActivity', 'tcx', 'The file is a course, not a recorded activity');
    if (parsed.value.activityCount > MAX_ACTIVITIES_PER_FILE)
      return tooManyActivities(parsed.value.activityCount);
    const more = parsed.value.activityCount > 1 ? tcxRecordings(bytes).slice(1) : [];
    return { ok: true, value: overview, more };
  }
  const parsed = parseGpx(bytes);
  if (!parsed.ok) return parsed;
  const overview = activityFromGpx(parsed.value);
  if (!overview)
    return refuse(
      'noTimes',
      'gpx',
      'The track has no times: it is a planned route. Upload it as a route instead',
    );
  return { ok: true, value: overview };
}

const tooManySamples = (samples: number, maxSamples: number): Refusal =>
  refuseLimit(
    'tooManySamples',
    `The ride has ${samples} samples; an import takes at most ${maxSamples} ` +
      `(${Math.floor(maxSamples / 3600)} hours recorded every second). ` +
      'Split the file, or record at a longer interval',
  );

/**
 * The activity from its sample `first` on, with `streams` (already cut to start there): the
 * clock, the timer, the sessions and the laps start at that sample, and the start time with
 * them.
 */
function startingAt(
  overview: ActivityOverview,
  streams: ActivityOverview['streams'],
): ActivityOverview {
  const shift = streams.time.length > 0 ? streams.time[0]! - (overview.streams.time[0] ?? 0) : 0;
  if (!(shift > 0)) return { ...overview, streams };
  const time = streams.time.map((t) => t - shift);
  const moved = (t: number) => Math.max(0, t - shift);
  return {
    ...overview,
    streams: { ...streams, time },
    ...(overview.startTime !== undefined ? { startTime: overview.startTime + shift } : {}),
    ...(overview.timer
      ? {
          timer: overview.timer
            .map(([a, b]) => [moved(a), moved(b)] as const)
            .filter(([a, b]) => b > a),
        }
      : {}),
    sessions: overview.sessions.map((session) => ({
      ...session,
      start: moved(session.start),
      end: moved(session.end),
    })),
    ...(overview.laps
      ? { laps: overview.laps.map((lap) => ({ ...lap, start: moved(lap.start) })) }
      : {}),
  };
}

/**
 * The file's activity with its streams cleaned (`cleanStreams`): when points before the
 * first one kept were dropped, the clock, the timer, the sessions and the laps start at the
 * first one kept. `keep`: the rider keeps what the cleaning would remove (counted, not taken).
 */
function cleaned(
  overview: ActivityOverview,
  keep = false,
): { overview: ActivityOverview; removed: CleaningCounts } {
  // A multisport file is held to its fastest sport's top speed.
  const sport = overview.sessions.reduce(
    (fastest, session) =>
      sportTopSpeedMs(session.sportType) > sportTopSpeedMs(fastest) ? session.sportType : fastest,
    overview.sportType,
  );
  const { streams, removed } = cleanStreams(overview.streams, { sport });
  // Kept: the counts still say what the cleaning would take out (the ride page offers it).
  return { overview: keep ? overview : startingAt(overview, streams), removed };
}

/**
 * What a rider kept of a ride: seconds from the file's first sample (whether or not the
 * cleaning kept it, so keeping the removed samples does not move the crop).
 */
export interface Crop {
  readonly startS: number;
  readonly endS: number;
}

/**
 * The activity within `crop`: the samples from `startS` to `endS` (seconds from `t0`, the
 * clock of the file's first sample), sessions and laps cut to them; the start time moves to
 * the first sample kept.
 */
function cropped(overview: ActivityOverview, crop: Crop, t0: number): ActivityOverview {
  const { time } = overview.streams;
  let first = 0;
  while (first < time.length && time[first]! - t0 < crop.startS) first++;
  let end = first;
  while (end < time.length && time[end]! - t0 <= crop.endS) end++;
  const streams: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(overview.streams) as [string, unknown][])
    streams[key] =
      ArrayBuffer.isView(column) && (column as Float64Array).length === time.length
        ? (column as Float64Array).slice(first, end)
        : Array.isArray(column) && column.length === time.length
          ? column.slice(first, end)
          : column;
  // A session is whole when the crop took no sample of its window (seconds since the first
  // sample, as the session's own start and end are).
  const origin = time[0] ?? 0;
  const whole = (session: ActivityOverview['sessions'][number]) =>
    (first === 0 || time[first - 1]! - origin < session.start) &&
    (end === time.length || time[end]! - origin >= session.end);
  const kept = startingAt(
    {
      ...overview,
      // The device's figures (its NP, TSS, climbing, calories) are the whole session's: a
      // session the crop cut into shows only what is computed from the samples kept.
      sessions: overview.sessions.map((session) =>
        whole(session) ? session : { ...session, device: {} },
      ),
    },
    streams as unknown as ActivityOverview['streams'],
  );
  const lastS = (kept.streams.time.at(-1) ?? 0) - (kept.streams.time[0] ?? 0);
  const within = (t: number) => Math.min(Math.max(t, 0), lastS);
  return {
    ...kept,
    ...(kept.timer
      ? {
          timer: kept.timer
            .map(([a, b]) => [within(a), within(b)] as const)
            .filter(([a, b]) => b > a),
        }
      : {}),
    sessions: kept.sessions
      .map((session) => ({ ...session, start: within(session.start), end: within(session.end) }))
      .filter((session) => session.end > session.start),
    // A lap that ended before the crop's start starts at 0 as the one it ran into: dropped.
    ...(kept.laps
      ? {
          laps: kept.laps.filter(
            (lap, index, laps) => lap.start < lastS && !((laps[index + 1]?.start ?? 1) <= 0),
          ),
        }
      : {}),
  };
}

/** The bounds of a ride's positions. */
function boundsOf(streams: {
  readonly latitude?: ArrayLike<number>;
  readonly longitude?: ArrayLike<number>;
}): Analysis['bounds'] {
  const { latitude, longitude } = streams;
  if (!latitude || !longitude) return null;
  let minLat = Infinity,
    minLon = Infinity,
    maxLat = -Infinity,
    maxLon = -Infinity;
  for (let i = 0; i < latitude.length; i++) {
    const lat = latitude[i]!;
    const lon = longitude[i]!;
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    minLat = Math.min(minLat, lat);
    maxLat = Math.max(maxLat, lat);
    minLon = Math.min(minLon, lon);
    maxLon = Math.max(maxLon, lon);
  }
  return minLat <= maxLat
    ? { min_lat: minLat, min_lon: minLon, max_lat: maxLat, max_lon: maxLon }
    : null;
}

/**
 * Reads an activity file (FIT, TCX or GPX with times, each possibly gzipped) and computes
 * everything an import stores. A damaged FIT file is read up to the damage and says so.
 * Pure apart from unzipping; runs in a worker.
 */
export function analyseActivity(
  input: Uint8Array,
  options: {
    readonly distanceUnit?: DistanceUnitSetting;
    readonly maxBytes?: number;
    readonly maxSamples?: number;
    readonly maxDurationS?: number;
    /** Which leg of a multisport file to analyse (0, the first, unless asked). */
    readonly leg?: number;
    /** The rider's corrections (`rides/revise.ts`): kept samples, crop, a shifted clock. */
    readonly keepRemoved?: boolean;
    readonly crop?: Crop;
    readonly timeShiftS?: number;
  } = {},
): AnalysisResult {
  const maxSamples = options.maxSamples ?? Number.POSITIVE_INFINITY;
  const maxDurationS = options.maxDurationS ?? Number.POSITIVE_INFINITY;
  const maxBytes = options.maxBytes ?? FIT_MAX_BYTES;
  const unpacked = gunzip(input, maxBytes);
  if (unpacked && !(unpacked instanceof Uint8Array)) return unpacked;
  const bytes = unpacked ?? input;
  const format = sniffFormat(bytes);
  if (!format)
    return refuseArchive(
      'unknownFormat',
      'This is not an activity file: FIT, TCX and GPX (also as .gz) can be imported',
    );
  const read = overviewOf(bytes, format, maxSamples, options.leg ?? 0);
  if (!read.ok) return read;
  if (read.value.streams.time.length > maxSamples)
    return tooManySamples(read.value.streams.time.length, maxSamples);
  // Every figure from here on is computed without what no rider produced (glitches, points
  // out of the ride); the file itself is kept as it was.
  const clean = cleaned(read.value, options.keepRemoved);
  const { removed } = clean;
  // The crop counts from the file's first sample: the cleaning may have moved the clock's 0
  // to the first sample it kept (`startingAt`: the start time moved with it).
  const moved = (clean.overview.startTime ?? 0) - (read.value.startTime ?? 0);
  const overview = options.crop
    ? cropped(clean.overview, options.crop, (read.value.streams.time[0] ?? 0) - moved)
    : clean.overview;
  const { streams } = overview;
  if (streams.time.length < 2 || overview.startTime === undefined)
    return refuse('noRecords', format, 'The file has no recorded samples: it is not an activity');
  const spanS = streams.time[streams.time.length - 1]! - streams.time[0]!;
  if (!(spanS <= maxDurationS))
    return refuseLimit(
      'tooLong',
      `The ride spans ${Math.round(spanS / 3600)} hours; an import may span at most ` +
        `${Math.round(maxDurationS / 86_400)} days. Split the file`,
    );
  const settings = {
    distanceUnit: options.distanceUnit ?? 0,
    ...(overview.ftpWatts ? { ftpWatts: overview.ftpWatts } : {}),
    ...(overview.maxHeartRate ? { maxHeartRate: overview.maxHeartRate } : {}),
  };
  const windows = overview.sessions.map(({ start, end }) => ({ start, end }));
  const { whole, sessions, timer } = summarizeSessions(
    streams,
    windows,
    settings,
    overview.timer ? { timer: overview.timer } : {},
  );
  const stored: StoredStreams = { time: streams.time };
  for (const [name, key] of STORED_STREAMS) {
    const column = streams[key];
    if (column) stored[name] = column;
  }
  if (streams.altitude && streams.distance)
    stored.grade = gradeSeries(streams.distance, streams.altitude);
  // Curves on the ride's clock at 1 Hz: each sample held for its real duration, a stop or a
  // pause at 0 (the field's mean-max, `clockSeries`).
  const line = timeline(streams, { timer });
  const powerCurve = streams.power ? clockCurve(streams.power, line, streams.time) : null;
  const speedCurve = streams.speed ? clockCurve(streams.speed, line, streams.time) : null;
  const bounds = boundsOf(streams);
  const bests = rideBests(streams, powerCurve, line.running);
  const ranBests = runBests(streams, powerCurve, line.running);
  // A run is scored by its normalized graded pace (`thresholds.ts`): kept for any ride, as
  // its sport may be changed later.
  const gradedSpeedMs = streams.speed
    ? normalizedGradedSpeed(
        oneHertzSeries(streams.speed, line, 'timer'),
        stored.grade ? oneHertzSeries(stored.grade, line, 'timer') : undefined,
      )
    : undefined;
  const heartRateSeconds = streams.heartRate
    ? sparse(heartRateSecondsByBpm(oneHertzSeries(streams.heartRate, line, 'timer')))
    : undefined;
  return {
    ok: true,
    value: {
      format,
      compressed: unpacked !== undefined,
      sportType: overview.sportType,
      startTime: overview.startTime + (options.timeShiftS ?? 0),
      indoor: bounds === null,
      summary: {
        ...whole,
        cleaning: removed,
        // Where the ride as kept begins in the recording (the crop and the cleaning's start).
        recordingOffsetS: Math.max(
          0,
          overview.startTime - (read.value.startTime ?? overview.startTime),
        ),
        recordingS:
          (read.value.streams.time[read.value.streams.time.length - 1] ?? 0) -
          (read.value.streams.time[0] ?? 0),
        ...(heartRateSeconds ? { heartRateSeconds } : {}),
        ...(gradedSpeedMs !== undefined ? { gradedSpeedMs } : {}),
      },
      sessions: overview.sessions.map((session, index) => ({
        sportType: session.sportType,
        startS: session.start,
        endS: session.end,
        summary: sessions[index]!,
        device: session.device,
      })),
      deviceSummary: overview.sessions[0]?.device ?? {},
      fileFtp: overview.ftpWatts ?? null,
      fileMaxHr: overview.maxHeartRate ?? null,
      timer,
      laps: overview.laps ?? [],
      damage: overview.damage
        ? {
            code: overview.damage.code,
            messageId: overview.damage.messageId,
            message: overview.damage.message,
            readTimeS: whole.totalTimeS,
          }
        : null,
      bounds,
      streams: stored,
      powerCurve: powerCurve && powerCurve.length > 0 ? powerCurve : null,
      speedCurve: speedCurve && speedCurve.length > 0 ? speedCurve : null,
      ftpEstimate: powerCurve ? (estimateFtp(powerCurve) ?? null) : null,
      bests,
      runBests: ranBests,
      facts: rideFacts(streams, line, whole),
      ...(read.more?.length ? { more: read.more } : {}),
      ...('legs' in read && read.legs ? { legs: read.legs } : {}),
    },
  };
}
