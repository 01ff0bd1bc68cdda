import { gunzipSync } from 'node:zlib';
import {
  FIT_MAX_BYTES,
  activityFromGpx,
  activityFromTcx,
  activityOverview,
  decodeFit,
  parseGpx,
  parseTcx,
  type ActivityFileError,
  type ActivityOverview,
} from '@xoss/activity-files';
import {
  estimateFtp,
  gradeSeries,
  meanMaxCurve,
  oneHertzSeries,
  summarizeSessions,
  timeline,
  type RideStreams,
  type TimerIntervals,
  type WorkoutSummary,
} from '@xoss/workout-stats';

/** Stream columns as stored, named as the API sends them. */
export type StoredStreams = Record<string, Float64Array>;

/** The formats an activity import reads; `.gz` of each too. */
export type ActivityFormat = 'fit' | 'tcx' | 'gpx';

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
  /** Figures without a threshold (IF and TSS need the ride's FTP: see `withThresholds`). */
  readonly summary: WorkoutSummary;
  readonly sessions: readonly SessionAnalysis[];
  /** The device's own totals (its first session), as stored. */
  readonly deviceSummary: Record<string, number | string | readonly number[]>;
  /** The FTP and max heart rate the device was set to, when the file stores them. */
  readonly fileFtp: number | null;
  readonly fileMaxHr: number | null;
  readonly timer: TimerIntervals;
  readonly damage: Damage | null;
  readonly bounds: { min_lat: number; min_lon: number; max_lat: number; max_lon: number } | null;
  readonly streams: StoredStreams;
  readonly powerCurve: Float64Array | null;
  readonly speedCurve: Float64Array | null;
  readonly ftpEstimate: number | null;
}

export type AnalysisResult =
  | { readonly ok: true; readonly analysis: Analysis }
  | { readonly ok: false; readonly error: ActivityFileError };

const refuse = (code: string, format: string, message: string): AnalysisResult => ({
  ok: false,
  error: { code, messageId: `activityFiles.${format}.${code}`, message },
});

const FIT_SIGNATURE = [0x2e, 0x46, 0x49, 0x54];

/** The streams a ride keeps: the API's name and the statistics' (`RideStreams`) name. */
const STORED_STREAMS = [
  ['distance', 'distance'],
  ['speed', 'speed'],
  ['power', 'power'],
  ['heart_rate', 'heartRate'],
  ['cadence', 'cadence'],
  ['altitude', 'altitude'],
  ['latitude', 'latitude'],
  ['longitude', 'longitude'],
  ['temperature', 'temperature'],
  ['lr_balance', 'leftRightBalance'],
  ['torque_effectiveness', 'torqueEffectiveness'],
  ['pedal_smoothness', 'pedalSmoothness'],
] as const satisfies readonly (readonly [string, keyof RideStreams])[];

/** Stored streams as the statistics read them (time rebased to the first sample). */
export function rideStreamsOf(stored: StoredStreams): RideStreams | undefined {
  const time = stored.time;
  if (!time || time.length === 0) return undefined;
  const first = time[0]!;
  const streams: Record<string, Float64Array> = { time: time.map((t) => t - first) };
  for (const [name, key] of STORED_STREAMS) if (stored[name]) streams[key] = stored[name];
  return streams as unknown as RideStreams;
}

/** The format of an activity file by its content: FIT by its signature, XML by its root. */
export function sniffFormat(bytes: Uint8Array): ActivityFormat | undefined {
  if (bytes.length >= 12 && FIT_SIGNATURE.every((byte, i) => bytes[8 + i] === byte)) return 'fit';
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 4096));
  if (/<(?:\w+:)?TrainingCenterDatabase[\s>]/.test(head)) return 'tcx';
  if (/<(?:\w+:)?gpx[\s>]/.test(head)) return 'gpx';
  return undefined;
}

/** Unpacks a gzip file within the size limit; `undefined` when it is not gzip. */
function gunzip(bytes: Uint8Array, maxBytes: number): Uint8Array | AnalysisResult | undefined {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return undefined;
  try {
    return new Uint8Array(gunzipSync(bytes, { maxOutputLength: maxBytes }));
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      ? refuse('tooLarge', 'archive', `The unpacked file is larger than ${maxBytes} bytes`)
      : refuse('archive', 'archive', 'The .gz file is damaged and cannot be unpacked');
  }
}

/** The activity in a file of any format; an error when it holds none. */
function overviewOf(
  bytes: Uint8Array,
  format: ActivityFormat,
): { ok: true; overview: ActivityOverview } | { ok: false; result: AnalysisResult } {
  if (format === 'fit') {
    const decoded = decodeFit(bytes);
    if (!decoded.ok) return { ok: false, result: decoded };
    const overview = activityOverview(decoded.value);
    if (overview.streams.time.length < 2 && decoded.value.damage)
      return { ok: false, result: { ok: false, error: decoded.value.damage } };
    return { ok: true, overview };
  }
  if (format === 'tcx') {
    const parsed = parseTcx(bytes);
    if (!parsed.ok) return { ok: false, result: parsed };
    const overview = activityFromTcx(parsed.value);
    if (!overview)
      return {
        ok: false,
        result: refuse('noActivity', 'tcx', 'The file is a course, not a recorded activity'),
      };
    return { ok: true, overview };
  }
  const parsed = parseGpx(bytes);
  if (!parsed.ok) return { ok: false, result: parsed };
  const overview = activityFromGpx(parsed.value);
  if (!overview)
    return {
      ok: false,
      result: refuse(
        'noTimes',
        'gpx',
        'The track has no times: it is a planned route. Upload it as a route instead',
      ),
    };
  return { ok: true, overview };
}

function boundsOf(streams: ActivityOverview['streams']): Analysis['bounds'] {
  if (!streams.latitude || !streams.longitude) return null;
  let minLat = Infinity,
    minLon = Infinity,
    maxLat = -Infinity,
    maxLon = -Infinity;
  for (let i = 0; i < streams.latitude.length; i++) {
    const lat = streams.latitude[i]!;
    const lon = streams.longitude[i]!;
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
  options: { readonly distanceUnit?: number; readonly maxBytes?: number } = {},
): AnalysisResult {
  const maxBytes = options.maxBytes ?? FIT_MAX_BYTES;
  const unpacked = gunzip(input, maxBytes);
  if (unpacked && !(unpacked instanceof Uint8Array)) return unpacked;
  const bytes = unpacked ?? input;
  const format = sniffFormat(bytes);
  if (!format)
    return refuse(
      'unknownFormat',
      'archive',
      'This is not an activity file: FIT, TCX and GPX (also as .gz) can be imported',
    );
  const read = overviewOf(bytes, format);
  if (!read.ok) return read.result;
  const { overview } = read;
  const { streams } = overview;
  if (streams.time.length < 2 || overview.startTime === undefined)
    return refuse('noRecords', format, 'The file has no recorded samples: it is not an activity');
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
  // Curves over moving time on a true 1 Hz base: each sample held for its real duration.
  const line = timeline(streams, { timer });
  const powerCurve = streams.power
    ? meanMaxCurve(oneHertzSeries(streams.power, line, 'moving'))
    : null;
  const speedCurve = streams.speed
    ? meanMaxCurve(oneHertzSeries(streams.speed, line, 'moving'))
    : null;
  const bounds = boundsOf(streams);
  return {
    ok: true,
    analysis: {
      format,
      compressed: unpacked !== undefined,
      sportType: overview.sportType,
      startTime: overview.startTime,
      indoor: bounds === null,
      summary: whole,
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
    },
  };
}
