/** Elevation is smoothed by a centred mean over this much distance, metres. */
export const CLIMB_SMOOTH_M = 100;
/** A descent of less than this many metres (smoothed) does not end a climb. */
export const CLIMB_DIP_M = 10;
/** A climb starts where the road leaves its low point by this much, and ends this far below its top, metres. */
export const CLIMB_TRIM_M = 1;
/** Fewest metres, lowest average grade (%) and lowest score (metres × grade %) of a climb. */
export const CLIMB_MIN_LENGTH_M = 300;
export const CLIMB_MIN_GRADE_PCT = 3;
export const CLIMB_MIN_SCORE = 8000;
/** A climb at this VAM (m/h) or faster was not ridden: the best riders climb under 2,000 m/h. */
export const CLIMB_MAX_VAM_MH = 2500;

/** Climb categories by score (length m × average grade %), Strava's thresholds. */
const CATEGORIES: readonly [number, ClimbCategory][] = [
  [80000, 'HC'],
  [64000, '1'],
  [32000, '2'],
  [16000, '3'],
  [8000, '4'],
];

export type ClimbCategory = 'HC' | '1' | '2' | '3' | '4';

/** One climb; indices are those of the input streams (end inclusive). */
export interface Climb {
  readonly startIndex: number;
  readonly endIndex: number;
  readonly lengthM: number;
  /** Elevation gained from bottom to top (smoothed), metres. */
  readonly gainM: number;
  readonly avgGradePct: number;
  /** Metres climbed per hour (velocità ascensionale media). */
  readonly vamMh: number;
  readonly durationS: number;
  /** Time-weighted mean power, when a power stream is given. */
  readonly avgPowerW?: number;
  /** Length × grade: 8000 and above is category 4. */
  readonly score: number;
  readonly category?: ClimbCategory;
}

/** Options of `findClimbs`. */
export interface ClimbOptions {
  readonly minLengthM?: number;
  readonly minGradePct?: number;
  readonly minScore?: number;
  /** Largest dip inside one climb, metres; `CLIMB_DIP_M` (10). */
  readonly dipM?: number;
  /**
   * Seconds of running timer each sample stands for (`timeline(streams, { timer }).running`
   * of a whole ride): a climb's duration, VAM and power then count only the seconds the
   * timer ran. Without it, every second between samples counts.
   */
  readonly runningS?: ArrayLike<number>;
}

/** The samples with a finite distance and elevation: their indices, distances and elevations. */
function validSamples(distance: ArrayLike<number>, elevation: ArrayLike<number>) {
  const n = Math.min(distance.length, elevation.length);
  const index: number[] = [];
  for (let i = 0; i < n; i++)
    if (Number.isFinite(distance[i]!) && Number.isFinite(elevation[i]!)) index.push(i);
  return {
    index: Int32Array.from(index),
    d: Float64Array.from(index, (i) => distance[i]!),
    e: Float64Array.from(index, (i) => elevation[i]!),
  };
}

/** Centred mean of elevation over `window` metres of distance (two pointers, prefix sums). */
function smoothByDistance(d: Float64Array, e: Float64Array, window: number): Float64Array {
  const n = d.length;
  const sums = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) sums[i + 1] = sums[i]! + e[i]!;
  const out = new Float64Array(n);
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) {
    while (d[i]! - d[lo]! > window / 2) lo++;
    while (hi < n && d[hi]! - d[i]! <= window / 2) hi++;
    out[i] = (sums[hi]! - sums[lo]!) / (hi - lo);
  }
  return out;
}

/**
 * The rising legs of a profile, [low, top] index pairs, by hysteresis: a leg rises once the
 * profile is more than `dip` metres above the lowest point since the last top, and ends once
 * it falls more than `dip` metres below its highest point.
 */
function risingLegs(e: Float64Array, dip: number): [number, number][] {
  const legs: [number, number][] = [];
  let rising = false;
  let low = 0;
  let top = 0;
  for (let i = 0; i < e.length; i++) {
    if (rising) {
      if (e[i]! > e[top]!) top = i;
      else if (e[top]! - e[i]! > dip) {
        legs.push([low, top]);
        rising = false;
        low = i;
      }
    } else if (e[i]! < e[low]!) {
      low = i;
    } else if (e[i]! - e[low]! > dip) {
      rising = true;
      top = i;
    }
  }
  if (rising) legs.push([low, top]);
  return legs;
}

/** Trims a leg to where it leaves its low point and reaches its top (within `CLIMB_TRIM_M`). */
function trimLeg(e: Float64Array, [low, top]: [number, number]): [number, number] {
  let start = low;
  for (let j = low; j <= top; j++) if (e[j]! <= e[low]! + CLIMB_TRIM_M) start = j;
  let end = top;
  for (let k = top; k >= start; k--) if (e[k]! >= e[top]! - CLIMB_TRIM_M) end = k;
  return [start, end];
}

function categoryOf(score: number): ClimbCategory | undefined {
  return CATEGORIES.find(([least]) => score >= least)?.[1];
}

/** Seconds sample `i` stands for: the running timer's when given, else the gap to the next. */
function secondsOf(time: ArrayLike<number>, runningS: ArrayLike<number> | undefined, i: number) {
  const dt = time[i + 1]! - time[i]!;
  if (!runningS) return dt;
  const running = runningS[i]!;
  return Number.isFinite(running) ? Math.min(running, Math.max(0, dt)) : 0;
}

function meanPower(
  power: ArrayLike<number>,
  time: ArrayLike<number>,
  start: number,
  end: number,
  runningS: ArrayLike<number> | undefined,
): number | undefined {
  let work = 0;
  let seconds = 0;
  for (let i = start; i < end; i++) {
    const dt = secondsOf(time, runningS, i);
    const watts = power[i]!;
    if (!(dt > 0) || !Number.isFinite(watts)) continue;
    work += watts * dt;
    seconds += dt;
  }
  return seconds > 0 ? work / seconds : undefined;
}

/**
 * The climbs of a ride from its distance (m), elevation (m) and time (s) streams.
 *
 * @remarks
 * Elevation is smoothed by a centred 100 m mean over distance (GPS and barometric noise of a
 * few metres is no climb). Rising legs are found with a 10 m hysteresis, so a dip of less
 * than 10 m does not split a climb (two climbs apart by a deeper descent stay two); each
 * leg is trimmed to where the road leaves its low point and reaches its top (within 1 m), so
 * flat approaches do not count. A leg is a climb when it is at least 300 m long, averages at
 * least 3 % and scores (length in metres × average grade in %) at least 8000: Strava's
 * category 4 threshold, with its 3 % least grade; the score gives the category (4: 8000,
 * 3: 16000, 2: 32000, 1: 64000, HC: 80000). Duration, VAM and mean power count the seconds
 * the timer ran when `options.runningS` gives them (a climb paused at a café is not slower).
 *
 * @example
 * findClimbs(streams.distance!, streams.altitude!, streams.time, streams.power);
 */
export function findClimbs(
  distanceM: ArrayLike<number>,
  elevationM: ArrayLike<number>,
  timeS: ArrayLike<number>,
  power?: ArrayLike<number>,
  options: ClimbOptions = {},
): Climb[] {
  const { index, d, e: raw } = validSamples(distanceM, elevationM);
  const e = smoothByDistance(d, raw, CLIMB_SMOOTH_M);
  const climbs: Climb[] = [];
  for (const leg of risingLegs(e, options.dipM ?? CLIMB_DIP_M)) {
    const [start, end] = trimLeg(e, leg);
    const lengthM = d[end]! - d[start]!;
    const gainM = e[end]! - e[start]!;
    const avgGradePct = lengthM > 0 ? (gainM / lengthM) * 100 : 0;
    const score = lengthM * avgGradePct;
    if (
      lengthM < (options.minLengthM ?? CLIMB_MIN_LENGTH_M) ||
      avgGradePct < (options.minGradePct ?? CLIMB_MIN_GRADE_PCT) ||
      score < (options.minScore ?? CLIMB_MIN_SCORE)
    )
      continue;
    const startIndex = index[start]!;
    const endIndex = index[end]!;
    let durationS = 0;
    for (let i = startIndex; i < endIndex; i++) {
      const seconds = secondsOf(timeS, options.runningS, i);
      if (seconds > 0) durationS += seconds;
    }
    // A climb nobody rode: no time on it (a track's clock that stood still or jumped), or
    // faster up than any rider (VAM of 2,500 m/h and more).
    if (!(durationS > 0) || (gainM / durationS) * 3600 >= CLIMB_MAX_VAM_MH) continue;
    const avgPowerW = power
      ? meanPower(power, timeS, startIndex, endIndex, options.runningS)
      : undefined;
    climbs.push({
      startIndex,
      endIndex,
      lengthM,
      gainM,
      avgGradePct,
      vamMh: (gainM / durationS) * 3600,
      durationS,
      ...(avgPowerW !== undefined ? { avgPowerW } : {}),
      score,
      ...(categoryOf(score) ? { category: categoryOf(score) } : {}),
    });
  }
  return climbs;
}
