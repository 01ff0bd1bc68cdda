import { normalizedPower } from './normalizedPower.ts';

/** An effort counts from this share of FTP: the bottom of the sweet-spot zone (Z4, 88 %). */
export const INTERVAL_THRESHOLD_SHARE = 0.88;
/** Shortest interval, seconds. */
export const INTERVAL_MIN_S = 30;
/** Shortest interval whose mean power is at least `INTERVAL_SHORT_SHARE` of FTP, seconds. */
export const INTERVAL_SHORT_MIN_S = 15;
/** Share of FTP from which a short repetition (15-30 s) counts: 150 %. */
export const INTERVAL_SHORT_SHARE = 1.5;
/** Dips below the threshold of at most this many seconds never split an interval. */
export const INTERVAL_MERGE_GAP_S = 10;
/** A longer dip (up to `INTERVAL_MERGE_MAX_S`) does not split an interval when it lasts at most this share of the longer side. */
export const INTERVAL_MERGE_SHARE = 0.25;
/** Longest dip that can join two efforts, seconds. */
export const INTERVAL_MERGE_MAX_S = 60;
/** An interval's edges reach out to where the smoothed power falls below this share of FTP (75 %: tempo). */
export const INTERVAL_EDGE_SHARE = 0.75;
/** Power is smoothed by a centred mean over this many seconds before the threshold. */
export const INTERVAL_SMOOTH_S = 5;
/**
 * Efforts take a device lap's edges when they start and end within this many seconds of a
 * work lap's (a lap averaging the threshold): the rider's lap button marks the interval.
 */
export const INTERVAL_LAP_SNAP_S = 60;
/**
 * A lap is a work lap when its mean power is at least this many times each neighbouring
 * lap's (the recovery, warm-up or cool-down around a work step), and at least the edge
 * level (75 % of FTP): the structure the rider or the workout gave the ride, whatever FTP it
 * is measured against.
 */
export const INTERVAL_WORK_LAP_RATIO = 1.15;
/**
 * Share of a work lap's seconds (5 s mean) that hold `INTERVAL_WORK_LAP_RATIO` times the
 * harder lap beside it: a lap held hard throughout, not an auto-lap a climb lifted.
 */
export const INTERVAL_WORK_LAP_HELD = 0.75;
/**
 * An effort is an interval when its mean power is at least this many times the mean of the
 * `INTERVAL_SURROUNDINGS_S` seconds either side of it: a ride's undulations around a steady
 * tempo (each a little over the threshold) are one ride, not dozens of intervals.
 */
export const INTERVAL_STANDOUT_RATIO = 1.1;
/** Seconds either side of an effort it is held against (`INTERVAL_STANDOUT_RATIO`). */
export const INTERVAL_SURROUNDINGS_S = 300;

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
  /**
   * The device's laps as [start, end) seconds of the series (lap button, a structured
   * workout's steps): a work lap (`INTERVAL_WORK_LAP_RATIO`) is an interval, whatever FTP;
   * the efforts of another lap at the threshold whose ends lie within `INTERVAL_LAP_SNAP_S`
   * (60 s) of the lap's become that lap, one interval.
   */
  readonly laps?: readonly (readonly [number, number])[];
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

/** Runs of seconds at or above `level`, as [start, end) pairs. */
function hardRuns(smooth: Float64Array, level: number): [number, number][] {
  const runs: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= smooth.length; i++) {
    const hard = i < smooth.length && smooth[i]! >= level;
    if (hard && start < 0) start = i;
    if (hard || start < 0) continue;
    runs.push([start, i]);
    start = -1;
  }
  return runs;
}

/**
 * Joins runs across dips: a dip joins its two runs when it lasts at most `mergeGapS`, or at
 * most a quarter of the longer side and 60 s (a coasting corner in a 20-minute effort),
 * and the joined stretch still averages the threshold.
 */
function joinRuns(
  runs: [number, number][],
  sums: Float64Array,
  level: number,
  mergeGapS: number,
): [number, number][] {
  const joined: [number, number][] = [];
  for (const run of runs) {
    const last = joined[joined.length - 1];
    if (last) {
      const gap = run[0] - last[1];
      const mean = (sums[run[1]]! - sums[last[0]]!) / (run[1] - last[0]);
      const longer = Math.max(last[1] - last[0], run[1] - run[0]);
      const allowed = Math.min(INTERVAL_MERGE_MAX_S, INTERVAL_MERGE_SHARE * longer);
      const short = gap <= Math.max(mergeGapS, allowed);
      if (short && mean >= level) {
        last[1] = run[1];
        continue;
      }
    }
    joined.push([run[0], run[1]]);
  }
  return joined;
}

/**
 * Moves an effort's edges outwards over seconds whose smoothed power is still at least
 * `edge` (the build-up and fade of a structured interval), never past `floor` or `ceiling`
 * (the neighbours), then inwards past raw seconds below `edge`.
 */
function widen(
  power: ArrayLike<number>,
  smooth: Float64Array,
  [start, end]: [number, number],
  edge: number,
  floor: number,
  ceiling: number,
) {
  let from = start;
  let to = end;
  while (from > floor && smooth[from - 1]! >= edge) from--;
  while (to < ceiling && smooth[to]! >= edge) to++;
  while (from < to && finiteOrZero(power[from]) < edge) from++;
  while (to > from && finiteOrZero(power[to - 1]) < edge) to--;
  return [from, to] as const;
}

/**
 * Whether an effort stands out of the ride around it (`INTERVAL_STANDOUT_RATIO`); one with
 * nothing around it (the whole ride) does.
 */
function standsOut([from, to]: [number, number], sums: Float64Array): boolean {
  const n = sums.length - 1;
  const before = Math.max(0, from - INTERVAL_SURROUNDINGS_S);
  const after = Math.min(n, to + INTERVAL_SURROUNDINGS_S);
  const around = from - before + (after - to);
  if (around === 0) return true;
  const aroundMean = (sums[from]! - sums[before]! + (sums[after]! - sums[to]!)) / around;
  return (sums[to]! - sums[from]!) / (to - from) >= INTERVAL_STANDOUT_RATIO * aroundMean;
}

/**
 * The work laps (`INTERVAL_WORK_LAP_RATIO`): laps that stand above each lap beside them,
 * reach `edge` and are held hard (`INTERVAL_WORK_LAP_HELD`). A single lap, or laps of one
 * steady effort, make none.
 */
function workLaps(
  laps: readonly (readonly [number, number])[],
  sums: Float64Array,
  smooth: Float64Array,
  edge: number,
): [number, number][] {
  const n = sums.length - 1;
  const spans = laps
    .map(([start, end]) => [Math.max(0, Math.round(start)), Math.min(n, Math.round(end))] as const)
    .filter(([from, to]) => to > from);
  const means = spans.map(([from, to]) => (sums[to]! - sums[from]!) / (to - from));
  const work: [number, number][] = [];
  spans.forEach(([from, to], k) => {
    const neighbours = [means[k - 1], means[k + 1]].filter((value) => value !== undefined);
    const mean = means[k]!;
    if (
      neighbours.length === 0 ||
      mean < edge ||
      !neighbours.every((other) => mean >= INTERVAL_WORK_LAP_RATIO * other)
    )
      return;
    const hard = INTERVAL_WORK_LAP_RATIO * Math.max(...neighbours);
    let held = 0;
    for (let i = from; i < to; i++) if (smooth[i]! >= hard) held++;
    if (held >= INTERVAL_WORK_LAP_HELD * (to - from)) work.push([from, to]);
  });
  return work;
}

/**
 * The work laps as intervals, whatever the efforts found in them (the laps say where the
 * rider's intervals are; at a low FTP the recoveries between them can be hard enough to
 * join them into one effort): efforts overlapping a work lap give way to it.
 */
function withWorkLaps(efforts: [number, number][], work: [number, number][]): [number, number][] {
  if (work.length === 0) return efforts;
  const apart = efforts.filter(([from, to]) => !work.some(([a, b]) => from < b && to > a));
  return [...apart, ...work].sort((x, y) => x[0] - y[0]);
}

/**
 * Efforts (sorted [start, end) pairs) snapped to the work laps: for each lap averaging at
 * least `level`, the efforts overlapping it, when the first starts and the last ends within
 * `INTERVAL_LAP_SNAP_S` of the lap's edges, are replaced by the lap itself. An effort
 * reaching further (over two laps, or a lap holding several efforts apart) stays as found.
 */
function snapToLaps(
  efforts: [number, number][],
  laps: readonly (readonly [number, number])[],
  sums: Float64Array,
  level: number,
): [number, number][] {
  let out = efforts;
  const n = sums.length - 1;
  for (const [lapStart, lapEnd] of laps) {
    const from = Math.max(0, Math.round(lapStart));
    const to = Math.min(n, Math.round(lapEnd));
    if (!(to > from) || (sums[to]! - sums[from]!) / (to - from) < level) continue;
    const first = out.findIndex(([, end]) => end > from);
    if (first < 0 || out[first]![0] >= to) continue;
    let last = first;
    while (last + 1 < out.length && out[last + 1]![0] < to) last++;
    const near =
      Math.abs(out[first]![0] - from) <= INTERVAL_LAP_SNAP_S &&
      Math.abs(out[last]![1] - to) <= INTERVAL_LAP_SNAP_S;
    if (near) out = [...out.slice(0, first), [from, to], ...out.slice(last + 1)];
  }
  return out;
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
 * FTP, a minimum length, short dips inside an effort ignored), with rules that keep the
 * work laps of a structured session whole:
 * 1. power is smoothed by a centred 5 s mean (a single noisy second neither starts nor
 *    breaks an effort; centred, so the bounds do not shift);
 * 2. seconds whose smoothed power is at least `thresholdShare × FTP` (88 %, the bottom of
 *    sweet spot) are hard;
 * 3. two runs of hard seconds are one effort when the dip between them lasts at most
 *    `mergeGapS` (10 s) or at most a quarter of the longer side and at most 60 s (a 40 s
 *    descent inside a 20-minute effort; not the 15 s between 30 s repetitions, nor the
 *    minutes between structured intervals), and the joined stretch still averages the
 *    threshold;
 * 4. each effort's edges reach out over seconds whose smoothed power is at least 75 % of
 *    FTP (the build-up and fade of a lap), then move in to the first and last raw second
 *    at that level;
 * 5. an effort is kept when it lasts at least `minDurationS` (30 s), or at least 15 s with
 *    a mean of 150 % of FTP or more (30/15 s and 40/20 s repetitions).
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
  const edge = Math.min(level, INTERVAL_EDGE_SHARE * ftpW);
  const minDuration = options.minDurationS ?? INTERVAL_MIN_S;
  const smooth = centredMean(power, INTERVAL_SMOOTH_S);
  const sums = new Float64Array(power.length + 1);
  for (let i = 0; i < power.length; i++) sums[i + 1] = sums[i]! + finiteOrZero(power[i]);
  const efforts = joinRuns(
    hardRuns(smooth, level),
    sums,
    level,
    options.mergeGapS ?? INTERVAL_MERGE_GAP_S,
  );
  const widened: [number, number][] = [];
  let floor = 0;
  for (let e = 0; e < efforts.length; e++) {
    const ceiling = e + 1 < efforts.length ? efforts[e + 1]![0] : power.length;
    const [from, to] = widen(power, smooth, efforts[e]!, edge, floor, ceiling);
    floor = Math.max(floor, to);
    if (to > from) widened.push([from, to]);
  }
  const intervals: WorkoutInterval[] = [];
  const work = options.laps ? workLaps(options.laps, sums, smooth, edge) : [];
  const found = withWorkLaps(
    widened.filter((effort) => standsOut(effort, sums)),
    work,
  );
  for (const [from, to] of options.laps ? snapToLaps(found, options.laps, sums, level) : found) {
    const seconds = to - from;
    const mean = (sums[to]! - sums[from]!) / seconds;
    const short = seconds >= INTERVAL_SHORT_MIN_S && mean >= INTERVAL_SHORT_SHARE * ftpW;
    if (seconds >= minDuration || short) intervals.push(describeInterval(power, from, to, options));
  }
  return intervals;
}
