import { normalizedPower } from './normalizedPower.ts';

/** An effort counts from this share of FTP: the bottom of the sweet-spot zone (Z4, 88 %). */
export const INTERVAL_THRESHOLD_SHARE = 0.88;
/** Shortest interval, seconds. */
export const INTERVAL_MIN_S = 30;
/** Dips below the threshold of at most this many seconds do not split an interval. */
export const INTERVAL_MERGE_GAP_S = 10;
/** Power is smoothed by a centred mean over this many seconds before the threshold. */
export const INTERVAL_SMOOTH_S = 5;

/** One interval of a 1 Hz ride; seconds are indices of the series. */
export interface WorkoutInterval {
  /** First second of the interval. */
  readonly startS: number;
  /** End second, exclusive: `startS + durationS`. */
  readonly endS: number;
  readonly durationS: number;
  readonly avgPowerW: number;
  /** Normalized power of the interval (intervals are at least 30 s, so it exists). */
  readonly npW?: number;
  /** Mean heart rate, zeros and gaps left out. */
  readonly avgHr?: number;
  /** Mean cadence, zeros (coasting) left out. */
  readonly avgCadence?: number;
  /** W' balance at the interval's last second, J. */
  readonly wbalEndJ?: number;
}

/** Streams, at 1 Hz like the power, whose means fill an interval. */
export interface IntervalStreams {
  readonly heartRate?: ArrayLike<number>;
  readonly cadence?: ArrayLike<number>;
  /** W' balance (`wPrimeBalance`). */
  readonly wbal?: ArrayLike<number>;
}

/** Options of `findIntervals`. */
export interface IntervalOptions extends IntervalStreams {
  /** Share of FTP an effort reaches; `INTERVAL_THRESHOLD_SHARE` (0.88). */
  readonly thresholdShare?: number;
  /** Shortest interval, seconds; `INTERVAL_MIN_S` (30). */
  readonly minDurationS?: number;
  /** Longest dip that does not split an interval, seconds; `INTERVAL_MERGE_GAP_S` (10). */
  readonly mergeGapS?: number;
}

function finiteOrZero(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) ? value : 0;
}

/** Centred mean over `window` seconds (fewer at the ends): does not shift an effort's bounds. */
function centredMean(values: ArrayLike<number>, window: number): Float64Array {
  const n = values.length;
  const sums = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) sums[i + 1] = sums[i]! + finiteOrZero(values[i]);
  const half = Math.floor(window / 2);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const from = Math.max(0, i - half);
    const to = Math.min(n, i + window - half);
    out[i] = (sums[to]! - sums[from]!) / (to - from);
  }
  return out;
}

/** Runs of seconds at or above `level`, as [start, end) pairs, joined across short dips. */
function hardRuns(smooth: Float64Array, level: number, mergeGapS: number): [number, number][] {
  const runs: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= smooth.length; i++) {
    const hard = i < smooth.length && smooth[i]! >= level;
    if (hard && start < 0) start = i;
    if (hard || start < 0) continue;
    const last = runs[runs.length - 1];
    if (last && start - last[1] <= mergeGapS) last[1] = i;
    else runs.push([start, i]);
    start = -1;
  }
  return runs;
}

/**
 * Moves a run's bounds to raw seconds: outwards over raw seconds at or above the level that
 * the smoothing cut off (at most half its window), then inwards past raw seconds below it.
 */
function exactBounds(power: ArrayLike<number>, [start, end]: [number, number], level: number) {
  const reach = Math.floor(INTERVAL_SMOOTH_S / 2);
  const hard = (i: number) => finiteOrZero(power[i]) >= level;
  let from = start;
  let to = end;
  while (from > Math.max(0, start - reach) && hard(from - 1)) from--;
  while (to < Math.min(power.length, end + reach) && hard(to)) to++;
  while (from < to && !hard(from)) from++;
  while (to > from && !hard(to - 1)) to--;
  return [from, to] as const;
}

function mean(
  values: ArrayLike<number> | undefined,
  from: number,
  to: number,
  skipZeros: boolean,
): number | undefined {
  if (!values) return undefined;
  let sum = 0;
  let count = 0;
  for (let i = from; i < Math.min(to, values.length); i++) {
    const value = values[i]!;
    if (!Number.isFinite(value) || (skipZeros && value === 0)) continue;
    sum += value;
    count++;
  }
  return count > 0 ? sum / count : undefined;
}

/**
 * An interval's figures from its power, and the means of the streams given: heart rate and
 * cadence leave zeros out (no reading, coasting), W' balance is read at the last second.
 */
export function describeInterval(
  power: ArrayLike<number>,
  startS: number,
  endS: number,
  streams: IntervalStreams = {},
): WorkoutInterval {
  const slice = Float64Array.from({ length: endS - startS }, (_, i) =>
    finiteOrZero(power[startS + i]),
  );
  const wbalEnd = streams.wbal?.[endS - 1];
  const figures: WorkoutInterval = {
    startS,
    endS,
    durationS: endS - startS,
    avgPowerW: slice.reduce((a, b) => a + b, 0) / Math.max(1, slice.length),
    npW: normalizedPower(slice),
    avgHr: mean(streams.heartRate, startS, endS, true),
    avgCadence: mean(streams.cadence, startS, endS, true),
    wbalEndJ: wbalEnd !== undefined && Number.isFinite(wbalEnd) ? wbalEnd : undefined,
  };
  return Object.fromEntries(
    Object.entries(figures).filter(([, value]) => value !== undefined),
  ) as unknown as WorkoutInterval;
}

/**
 * The intervals of a 1 Hz power series: efforts at or above a share of FTP.
 *
 * @remarks
 * Modelled on how intervals.icu describes its interval detection (efforts above a share of
 * FTP, a minimum length, short dips inside an effort ignored). The rule:
 * 1. power is smoothed by a centred 5 s mean (a single noisy second neither starts nor
 *    breaks an effort; centred, so the bounds do not shift);
 * 2. seconds whose smoothed power is at least `thresholdShare × FTP` (88 %, the bottom of
 *    sweet spot) are hard; runs of hard seconds apart by a dip of at most `mergeGapS` (10 s)
 *    are one effort;
 * 3. each effort's bounds are moved to its first and last second whose raw power reaches
 *    the threshold (the smoothing may have cut up to 2 s off or added them), and it is kept when it lasts at least `minDurationS` (30 s).
 * Heart rate, cadence and W' balance given in the options fill each interval
 * (`describeInterval`).
 *
 * @example
 * findIntervals(power, 250, { heartRate, cadence, wbal: wPrimeBalance(power, 260, 20000) });
 */
export function findIntervals(
  power: ArrayLike<number>,
  ftpW: number,
  options: IntervalOptions = {},
): WorkoutInterval[] {
  if (!(ftpW > 0)) throw new RangeError('FTP must be positive');
  const level = (options.thresholdShare ?? INTERVAL_THRESHOLD_SHARE) * ftpW;
  const minDuration = options.minDurationS ?? INTERVAL_MIN_S;
  const smooth = centredMean(power, INTERVAL_SMOOTH_S);
  const intervals: WorkoutInterval[] = [];
  for (const run of hardRuns(smooth, level, options.mergeGapS ?? INTERVAL_MERGE_GAP_S)) {
    const [from, to] = exactBounds(power, run, level);
    if (to - from >= minDuration) intervals.push(describeInterval(power, from, to, options));
  }
  return intervals;
}
