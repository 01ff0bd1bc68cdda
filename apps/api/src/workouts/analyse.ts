import { activityOverview, decodeFit, type ActivityFileError } from '@xoss/activity-files';
import {
  PAUSE_GAP_S,
  estimateFtp,
  gradeSeries,
  meanMaxCurve,
  sampleDurations,
  summarizeWorkout,
  type RiderSettings,
  type WorkoutSummary,
} from '@xoss/workout-stats';

/** Stream columns as stored, named as the API sends them. */
export type StoredStreams = Record<string, Float64Array>;

/** What an import computes from a FIT file, off the event loop. */
export interface Analysis {
  readonly sportType: number;
  readonly startTime: number;
  readonly indoor: boolean;
  readonly summary: WorkoutSummary;
  readonly deviceSummary: Record<string, number | string | readonly number[]>;
  readonly bounds: { min_lat: number; min_lon: number; max_lat: number; max_lon: number } | null;
  readonly streams: StoredStreams;
  readonly powerCurve: Float64Array | null;
  readonly speedCurve: Float64Array | null;
  readonly ftpEstimate: number | null;
}

export type AnalysisResult =
  | { readonly ok: true; readonly analysis: Analysis }
  | { readonly ok: false; readonly error: ActivityFileError };

/**
 * A 1 Hz series for mean-max curves: each sample held for its duration, pauses (gaps over
 * `PAUSE_GAP_S`) left out, so a coffee stop neither adds zeros nor joins two efforts.
 */
export function oneHertz(time: Float64Array, values: Float64Array): Float64Array {
  const durations = sampleDurations(time);
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const seconds = Math.min(Math.round(durations[i]!), PAUSE_GAP_S);
    const value = Number.isFinite(values[i]!) ? values[i]! : 0;
    for (let k = 0; k < seconds; k++) out.push(value);
  }
  return Float64Array.from(out);
}

/** Decodes a FIT file and computes everything an import stores. Pure; runs in a worker. */
export function analyseFit(bytes: Uint8Array, settings: RiderSettings): AnalysisResult {
  const decoded = decodeFit(bytes);
  if (!decoded.ok) return decoded;
  const overview = activityOverview(decoded.value);
  const { streams } = overview;
  if (streams.time.length < 2 || overview.startTime === undefined) {
    return {
      ok: false,
      error: {
        code: 'noRecords',
        messageId: 'activityFiles.fit.noRecords',
        message: 'The file has no recorded samples: it is not an activity',
        byteOffset: 0,
      },
    };
  }
  const summary = summarizeWorkout(streams, settings);
  const session = decoded.value.sessions[0] ?? {};
  let bounds: Analysis['bounds'] = null;
  if (streams.latitude && streams.longitude) {
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
    if (minLat <= maxLat)
      bounds = { min_lat: minLat, min_lon: minLon, max_lat: maxLat, max_lon: maxLon };
  }
  const stored: StoredStreams = { time: streams.time };
  const names = [
    ['distance', streams.distance],
    ['speed', streams.speed],
    ['power', streams.power],
    ['heart_rate', streams.heartRate],
    ['cadence', streams.cadence],
    ['altitude', streams.altitude],
    ['latitude', streams.latitude],
    ['longitude', streams.longitude],
    ['temperature', streams.temperature],
  ] as const;
  for (const [name, column] of names) if (column) stored[name] = column;
  if (streams.altitude && streams.distance)
    stored.grade = gradeSeries(streams.distance, streams.altitude);
  const powerCurve = streams.power ? meanMaxCurve(oneHertz(streams.time, streams.power)) : null;
  const speedCurve = streams.speed ? meanMaxCurve(oneHertz(streams.time, streams.speed)) : null;
  return {
    ok: true,
    analysis: {
      sportType: overview.sportType,
      startTime: overview.startTime,
      indoor: bounds === null,
      summary,
      deviceSummary: session,
      bounds,
      streams: stored,
      powerCurve,
      speedCurve,
      ftpEstimate: powerCurve ? (estimateFtp(powerCurve) ?? null) : null,
    },
  };
}
