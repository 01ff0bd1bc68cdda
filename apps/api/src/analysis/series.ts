// A ride's stored streams as the statistics read them, and its mean-max curves at a bounded
// cost: what the import (analyse.ts) and the analysis of stored rides (rideAnalysis.ts) share.
import type { ActivityOverview } from '@xoss/activity-files';
import {
  clockSeries,
  meanMaxCurve,
  meanMaxCurveRange,
  type RideStreams,
  type Timeline,
} from '@xoss/workout-stats';

/** Stream columns as stored, named as the API sends them. */
export type StoredStreams = Record<string, Float64Array>;

/**
 * The streams a ride keeps: the API's name and the activity's (`RideStreams`, which the
 * statistics read, and a muscle-oxygen sensor's `smo2` and `thb`, which they do not).
 */
export const STORED_STREAMS = [
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
  ['smo2', 'smo2'],
  ['thb', 'thb'],
] as const satisfies readonly (readonly [string, keyof ActivityOverview['streams']])[];

/** Stored streams as the statistics read them (time rebased to the first sample). */
export function rideStreamsOf(stored: StoredStreams): RideStreams | undefined {
  const time = stored.time;
  if (!time || time.length === 0) return undefined;
  const first = time[0]!;
  const streams: Record<string, Float64Array> = { time: time.map((t) => t - first) };
  for (const [name, key] of STORED_STREAMS) if (stored[name]) streams[key] = stored[name];
  return streams as unknown as RideStreams;
}

/** Series up to this length get the exact mean-max curve at every duration. */
const EXACT_CURVE_SAMPLES = 100_000;
/** Longer series: durations up to this many seconds stay exact. */
const EXACT_CURVE_SHORT_S = 1200;

/**
 * The mean-max curve of a 1 Hz series at a bounded cost. The exact curve costs up to
 * n² / 2 window sums when its pruning fails (noisy power: 3.7 s for 100,000 samples, over
 * a minute for 400,000). Up to `EXACT_CURVE_SAMPLES` it is exact. Beyond, durations up to
 * `EXACT_CURVE_SHORT_S` stay exact (n × 1200 sums at most), the last block's few durations
 * too, and the rest is read from the exact curve of k-second block means (k = n / 100,000
 * rounded up, so at most 100,000 blocks): the best block-aligned mean over the duration
 * rounded up to whole blocks (at most k - 1 s longer). Measured on random power: 5.8 s for
 * 400,000 samples, 10.7 s for 1,200,000; on a ride-like series it is within 0.03 % of the
 * exact curve.
 */
function boundedMeanMaxCurve(values: Float64Array): Float64Array {
  const n = values.length;
  if (n <= EXACT_CURVE_SAMPLES) return meanMaxCurve(values);
  const k = Math.ceil(n / EXACT_CURVE_SAMPLES);
  const m = Math.floor(n / k);
  const blocks = new Float64Array(m);
  for (let b = 0; b < m; b++) {
    let sum = 0;
    for (let j = b * k; j < (b + 1) * k; j++) sum += values[j]!;
    blocks[b] = sum / k;
  }
  const coarse = meanMaxCurve(blocks);
  const curve = new Float64Array(n);
  const short = meanMaxCurveRange(values, 1, EXACT_CURVE_SHORT_S);
  curve.set(short);
  for (let d = short.length + 1; d <= m * k; d++) curve[d - 1] = coarse[Math.ceil(d / k) - 1]!;
  // Past the last whole block: few windows each, exact.
  if (m * k < n) curve.set(meanMaxCurveRange(values, m * k + 1, n), m * k);
  return curve;
}

/**
 * Curves are kept up to this duration (a day). A ride's curve has a value for every second
 * of it: the largest legal ride's two curves were 6.4 MB, written into the ride's row and
 * into the rider's year, week and day bests inside the import's transaction, which held the
 * embedded database (one statement at a time) for most of a second while other riders
 * waited (bench: their imports' p99 3.8x). A day's curves are 1.4 MB; what a longer ride
 * did beyond 24 hours stays in its summary (its average power and speed).
 */
export const MAX_CURVE_S = 86_400;

/**
 * The mean-max curve of a channel on the ride's clock (`clockSeries`: every second from the
 * first sample, a stop or a pause at 0, as GoldenCheetah, WKO, TrainingPeaks and
 * intervals.icu count it), up to `MAX_CURVE_S`.
 */
export function clockCurve(
  values: ArrayLike<number>,
  line: Timeline,
  time: ArrayLike<number>,
): Float64Array {
  const curve = boundedMeanMaxCurve(clockSeries(values, line, time));
  return curve.length > MAX_CURVE_S ? curve.slice(0, MAX_CURVE_S) : curve;
}
