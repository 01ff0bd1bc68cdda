import type { RideStreams } from './streams.ts';
import { haversineMetres } from './timeline.ts';

/** Power above this (W) is no human's: a power meter's glitch (the ceiling of every rule). */
export const POWER_CEILING_W = 2500;
/** A short burst above this (W) that stands far above both neighbours is a spike. */
export const POWER_SPIKE_FLOOR_W = 1000;
/** "Far above": more than this many times the higher of the two neighbouring samples. */
export const POWER_SPIKE_RATIO = 2.5;
/** Longest burst (samples) the neighbour rule takes for a spike. */
export const POWER_SPIKE_MAX_SAMPLES = 3;
/** Heart rate outside `[low, high]` (bpm) is a strap's glitch; 0 stays "no reading". */
export const HEART_RATE_RANGE_BPM = [25, 250] as const;
/**
 * How fast heart rate can move, bpm per second, and the slack around it (bpm): a reading
 * further than this from the median of the readings around it is a strap's spike or
 * drop-out (`NEIGHBOUR_SAMPLES`). Real heart rate rises 1-3 bpm a second at most.
 */
export const HEART_RATE_MAX_RATE = [3, 25] as const;
/**
 * How fast a rider climbs or descends, metres per second, and the slack (m) for a
 * barometer's or GPS's noise: an altitude further than this from the median of the
 * altitudes around it is a glitch (a descent at 100 km/h down 20 % is 5.6 m/s).
 */
export const ALTITUDE_MAX_RATE = [10, 20] as const;
/**
 * Samples either side a reading is held against: a glitch of up to this many samples in a
 * row leaves the median of the window around it alone.
 */
export const NEIGHBOUR_SAMPLES = 7;
/** Cadence above this (rpm) is a sensor's glitch. */
export const CADENCE_CEILING_RPM = 250;
/** A forward jump of the clock longer than this (s) leaves the ride (7 days). */
export const RIDE_MAX_GAP_S = 7 * 86_400;

/**
 * Top speed (m/s) of a sport, by the FIT sport type the streams were recorded as: faster
 * speed readings, and steps of distance or position faster than it, are glitches.
 * Running 12 m/s (43 km/h), cycling 36 m/s (130 km/h, beyond the fastest road
 * descents), swimming 5 m/s, walking and hiking 8 m/s, anything else 60 m/s (216 km/h:
 * a GPX file without a sport may be a car's track).
 */
export function sportTopSpeedMs(sport: number | undefined): number {
  switch (sport) {
    case 1:
      return 12;
    case 2:
      return 36;
    case 5:
      return 5;
    case 11:
    case 17:
      return 8;
    default:
      return 60;
  }
}

/** What `cleanStreams` took out, per channel (samples), and the points dropped whole. */
export interface CleaningCounts {
  /** Points dropped from every channel: their time left the ride or their position jumped. */
  readonly points: number;
  readonly power: number;
  readonly heartRate: number;
  readonly cadence: number;
  readonly speed: number;
  /** Steps of the distance channel faster than the sport's top speed, not counted. */
  readonly distance: number;
  /** Altitudes no rider could climb or descend to in the time since the ones around. */
  readonly altitude: number;
}

export interface CleanOptions {
  /** FIT sport type (0 generic, 1 running, 2 cycling, 5 swimming, 11 walking, 17 hiking). */
  readonly sport?: number;
}

const finite = (value: number | undefined): value is number =>
  value !== undefined && Number.isFinite(value);

/**
 * The indices of the longest run of points whose times never go back, in file order
 * (a longest non-decreasing subsequence, O(n log n)); points with no time are left out.
 */
function forwardPoints(time: ArrayLike<number>): number[] {
  const n = time.length;
  const tails: number[] = []; // tails[k]: index ending the best run of length k + 1
  const previous = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const t = time[i]!;
    if (!Number.isFinite(t)) continue;
    // First run whose last time is greater than t (upper bound: equal times may follow).
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (time[tails[mid]!]! <= t) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const kept: number[] = [];
  for (let i = tails.length ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) kept.push(i);
  return kept.reverse();
}

/** The longest stretch of `points` without a forward gap over `RIDE_MAX_GAP_S`. */
function longestStretch(points: number[], time: ArrayLike<number>): number[] {
  let best: [number, number] = [0, 0];
  let start = 0;
  for (let k = 1; k <= points.length; k++) {
    if (k === points.length || time[points[k]!]! - time[points[k - 1]!]! > RIDE_MAX_GAP_S) {
      if (k - start > best[1] - best[0]) best = [start, k];
      start = k;
    }
  }
  return points.slice(best[0], best[1]);
}

/**
 * Points whose position is an isolated jump: reaching it from the point before and leaving
 * it for the point after would both take more than the top speed, while the two
 * neighbours are within reach of each other (a teleport of the whole rest is no spike).
 */
function positionSpikes(points: number[], streams: RideStreams, topSpeed: number): Set<number> {
  const spikes = new Set<number>();
  const { latitude, longitude, time } = streams;
  if (!latitude || !longitude) return spikes;
  const has = (i: number) => finite(latitude[i]) && finite(longitude[i]);
  const tooFast = (i: number, j: number) =>
    haversineMetres(latitude[i]!, longitude[i]!, latitude[j]!, longitude[j]!) >
    topSpeed * Math.max(1, Math.abs(time[j]! - time[i]!));
  // The next point with a position after each point of `points` (-1: none).
  const next = new Int32Array(points.length).fill(-1);
  for (let k = points.length - 2, seen = -1; k >= 0; k--) {
    if (has(points[k + 1]!)) seen = points[k + 1]!;
    next[k] = seen;
  }
  let before = -1; // the last point with a position that is no spike
  for (let k = 0; k < points.length; k++) {
    const i = points[k]!;
    if (!has(i)) continue;
    const after = next[k]!;
    const spike =
      before >= 0 &&
      tooFast(before, i) &&
      (after < 0 || (tooFast(i, after) && !tooFast(before, after)));
    if (spike) spikes.add(i);
    else before = i;
  }
  return spikes;
}

/** Marks power spikes NaN: above the ceiling, or a burst of 1-3 samples far above both sides. */
function cleanPower(power: Float64Array): number {
  let removed = 0;
  const spike = new Uint8Array(power.length);
  for (let i = 0; i < power.length; i++) if (power[i]! > POWER_CEILING_W) spike[i] = 1;
  const level = (i: number) => (i >= 0 && i < power.length && !spike[i] ? power[i]! : NaN);
  for (let i = 0; i < power.length; i++) {
    if (spike[i] || !(power[i]! > POWER_SPIKE_FLOOR_W)) continue;
    for (let length = 1; length <= POWER_SPIKE_MAX_SAMPLES; length++) {
      const end = i + length; // exclusive
      if (end > power.length) break;
      if (!(power[end - 1]! > POWER_SPIKE_FLOOR_W) && !spike[end - 1]) break;
      const sides = [level(i - 1), level(end)].filter((value) => Number.isFinite(value));
      if (sides.length === 0) break;
      const limit = POWER_SPIKE_RATIO * Math.max(...sides);
      let all = true;
      for (let j = i; j < end; j++) if (!spike[j] && !(power[j]! > limit)) all = false;
      if (all) {
        spike.fill(1, i, end);
        break;
      }
    }
  }
  for (let i = 0; i < power.length; i++)
    if (spike[i] && !Number.isNaN(power[i])) {
      power[i] = NaN;
      removed++;
    }
  return removed;
}

/**
 * Marks NaN each reading further from the median of the `NEIGHBOUR_SAMPLES` readings either
 * side of it (itself left out) than `rate` per second of the time between it and that
 * median's reading, plus `slack`; returns how many. A real change is gradual, so a reading
 * is near the median of a window centred on it; a spike or a drop-out of a few samples
 * leaves that median where the ride is. Zeros and NaN (no reading) are left and not counted
 * as neighbours.
 */
function againstNeighbours(
  values: Float64Array,
  time: ArrayLike<number>,
  rate: number,
  slack: number,
  zeroIsReading = false,
): number {
  const n = values.length;
  const reading = (value: number) => Number.isFinite(value) && (zeroIsReading || value !== 0);
  const flagged = new Uint8Array(n);
  const window: number[] = [];
  for (let i = 0; i < n; i++) {
    const value = values[i]!;
    if (!reading(value)) continue;
    window.length = 0;
    const low = Math.max(0, i - NEIGHBOUR_SAMPLES);
    const high = Math.min(n - 1, i + NEIGHBOUR_SAMPLES);
    for (let j = low; j <= high; j++) if (j !== i && reading(values[j]!)) window.push(j);
    if (window.length < 2) continue;
    window.sort((a, b) => values[a]! - values[b]!);
    const median = window[window.length >> 1]!;
    const seconds = Math.max(1, Math.abs(time[i]! - time[median]!));
    if (Math.abs(value - values[median]!) > rate * seconds + slack) flagged[i] = 1;
  }
  let removed = 0;
  for (let i = 0; i < n; i++)
    if (flagged[i]) {
      values[i] = NaN;
      removed++;
    }
  return removed;
}

/** Marks readings outside `[low, high]` NaN (zeros, "no reading", stay); returns how many. */
function outside(values: Float64Array, low: number, high: number): number {
  let removed = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value !== 0 && Number.isFinite(value) && (value < low || value > high)) {
      values[i] = NaN;
      removed++;
    }
  }
  return removed;
}

/**
 * Distance steps faster than the top speed are not counted: the straight line between the
 * two points when positions tell it and it is within reach, else nothing. Rewrites the
 * cumulative channel in place; returns how many steps it replaced.
 */
function cleanDistance(streams: RideStreams, distance: Float64Array, topSpeed: number): number {
  const { time, latitude, longitude } = streams;
  let replaced = 0;
  let total = distance[0]!;
  let last = 0; // last sample with a finite distance
  let lastValue = distance[0]!; // its value as recorded
  for (let i = 1; i < distance.length; i++) {
    const value = distance[i]!;
    if (!finite(value)) continue;
    if (!finite(lastValue)) {
      total = value;
      last = i;
      lastValue = value;
      continue;
    }
    let step = value - lastValue;
    const reach = topSpeed * Math.max(1, time[i]! - time[last]!);
    if (step > reach) {
      replaced++;
      const line =
        latitude && longitude
          ? haversineMetres(latitude[last]!, longitude[last]!, latitude[i]!, longitude[i]!)
          : NaN;
      step = Number.isFinite(line) && line <= reach ? line : 0;
    }
    total += step;
    last = i;
    lastValue = value;
    distance[i] = total;
  }
  return replaced;
}

/**
 * A ride's streams without the samples no rider produced (README "Cleaning"): points whose
 * time leaves the ride (the longest run going forward in time, cut at gaps over
 * `RIDE_MAX_GAP_S`) or whose position is an isolated jump faster than the sport's top speed
 * are dropped from every channel; power spikes, heart rate outside 25-250 bpm, cadence over
 * 250 rpm and speed readings over the top speed become NaN (no reading, a gap in a chart),
 * so do heart rates and altitudes far from the readings around them (`againstNeighbours`);
 * distance steps over the top speed are not counted. Pure: the input is not changed. Any
 * other `Float64Array` channel of the same length (a muscle-oxygen sensor's) keeps the
 * points kept.
 *
 * @example
 * const { streams: clean, removed } = cleanStreams(streams, { sport: 2 });
 * removed.power; // samples taken out of the power channel
 */
export function cleanStreams<S extends RideStreams>(
  streams: S,
  options: CleanOptions = {},
): { readonly streams: S; readonly removed: CleaningCounts } {
  const { time } = streams;
  const n = time.length;
  const topSpeed = sportTopSpeedMs(options.sport);
  let points = longestStretch(forwardPoints(time), time);
  const jumps = positionSpikes(points, streams, topSpeed);
  if (jumps.size > 0) points = points.filter((i) => !jumps.has(i));
  const whole = points.length === n;
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(streams)) {
    if (column instanceof Float64Array && column.length === n) {
      if (whole) out[key] = column.slice();
      else {
        const kept = new Float64Array(points.length);
        for (let k = 0; k < points.length; k++) kept[k] = column[points[k]!]!;
        out[key] = kept;
      }
    } else out[key] = column;
  }
  const clean = out as unknown as S;
  const removed: CleaningCounts = {
    points: n - points.length,
    power: clean.power ? cleanPower(clean.power) : 0,
    heartRate: clean.heartRate
      ? outside(clean.heartRate, HEART_RATE_RANGE_BPM[0], HEART_RATE_RANGE_BPM[1]) +
        againstNeighbours(clean.heartRate, clean.time, ...HEART_RATE_MAX_RATE)
      : 0,
    cadence: clean.cadence ? outside(clean.cadence, 0, CADENCE_CEILING_RPM) : 0,
    speed: clean.speed ? outside(clean.speed, 0, topSpeed) : 0,
    distance:
      clean.distance && clean.time.length > 1 ? cleanDistance(clean, clean.distance, topSpeed) : 0,
    altitude: clean.altitude
      ? againstNeighbours(clean.altitude, clean.time, ...ALTITUDE_MAX_RATE, true)
      : 0,
  };
  return { streams: clean, removed };
}
