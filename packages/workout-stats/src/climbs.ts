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
/**
 * A climb inside a climb (its steep part) averages at least this many percentage points
 * more than the climb it lies in.
 */
export const CLIMB_NESTED_STEP_PCT = 2;
/** A climb inside a climb is at most this share of its length (else it is the climb). */
export const CLIMB_NESTED_MAX_SHARE = 0.5;

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
  /**
   * For a climb inside another (its steeper part): the index, in the same array, of the
   * climb it lies in. Absent for a climb that lies in no other.
   */
  readonly parent?: number;
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

/**
 * The longest section `[i, j]` of `[lo, hi]` whose average grade is at least `gradePct`:
 * with y = e − grade × d, the longest pair i < j with y[j] ≥ y[i]. Only a prefix minimum of
 * y can start it, and for each the farthest end is the last index whose suffix maximum
 * reaches it (two pointers over the suffix maxima, O(n)).
 */
function longestSection(
  d: Float64Array,
  e: Float64Array,
  lo: number,
  hi: number,
  gradePct: number,
): [number, number] | undefined {
  if (hi <= lo) return undefined;
  const k = gradePct / 100;
  const y = (i: number) => e[i]! - k * d[i]!;
  const suffixMax = new Float64Array(hi - lo + 2).fill(-Infinity);
  for (let i = hi; i >= lo; i--) suffixMax[i - lo] = Math.max(y(i), suffixMax[i - lo + 1]!);
  let best: [number, number] | undefined;
  let lowest = Infinity;
  let j = lo;
  for (let i = lo; i < hi; i++) {
    const start = y(i);
    if (start >= lowest) continue;
    lowest = start;
    if (j < i) j = i;
    while (j < hi && suffixMax[j + 1 - lo]! >= start) j++;
    if (j > i && (!best || d[j]! - d[i]! > d[best[1]]! - d[best[0]]!)) best = [i, j];
  }
  return best;
}

/**
 * Trims a section to start at its lowest point and end at its highest after it, each
 * within `CLIMB_TRIM_M` (as a leg is trimmed).
 */
function trimSection(e: Float64Array, [from, to]: [number, number]): [number, number] {
  let low = from;
  for (let i = from; i <= to; i++) if (e[i]! < e[low]!) low = i;
  let top = low;
  for (let i = low; i <= to; i++) if (e[i]! > e[top]!) top = i;
  return trimLeg(e, [low, top]);
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
 * flat approaches do not count. A climb is a section at least 300 m long that averages at
 * least 3 % and scores (length in metres × average grade in %) at least 8000: Strava's
 * category 4 threshold, with its 3 % least grade; the score gives the category (4: 8000,
 * 3: 16000, 2: 32000, 1: 64000, HC: 80000). In each leg the climb is the longest section
 * averaging 3 % or more: the whole leg when it does, else its steep part (a 5 km ramp at
 * 3.1 % inside a 7 km rise at 2.6 %), and the rest of the leg is searched the same way.
 * Inside each climb, the longest section averaging `CLIMB_NESTED_STEP_PCT` (2) points more
 * than it, itself a climb and at most half its length (`CLIMB_NESTED_MAX_SHARE`) is reported
 * too, nested: it follows its climb in the array and names it in `parent` (one level; the
 * rest of the climb is searched the same way).
 * Duration, VAM and mean power count the seconds the timer ran when `options.runningS`
 * gives them (a climb paused at a café is not slower).
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
  const minLength = options.minLengthM ?? CLIMB_MIN_LENGTH_M;
  const minGrade = options.minGradePct ?? CLIMB_MIN_GRADE_PCT;
  const minScore = options.minScore ?? CLIMB_MIN_SCORE;

  /** A section's figures when it is a climb a rider rode, else undefined. */
  const climbOf = (start: number, end: number): Climb | undefined => {
    const lengthM = d[end]! - d[start]!;
    const gainM = e[end]! - e[start]!;
    const avgGradePct = lengthM > 0 ? (gainM / lengthM) * 100 : 0;
    const score = lengthM * avgGradePct;
    if (lengthM < minLength || avgGradePct < minGrade || score < minScore) return undefined;
    const startIndex = index[start]!;
    const endIndex = index[end]!;
    let durationS = 0;
    for (let i = startIndex; i < endIndex; i++) {
      const seconds = secondsOf(timeS, options.runningS, i);
      if (seconds > 0) durationS += seconds;
    }
    // A climb nobody rode: no time on it (a track's clock that stood still or jumped), or
    // faster up than any rider (VAM of 2,500 m/h and more).
    if (!(durationS > 0) || (gainM / durationS) * 3600 >= CLIMB_MAX_VAM_MH) return undefined;
    const avgPowerW = power
      ? meanPower(power, timeS, startIndex, endIndex, options.runningS)
      : undefined;
    return {
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
    };
  };

  /**
   * The climbs of `[lo, hi]` averaging at least `gradePct`: the longest such section (its
   * flat ends trimmed), then the same search before and after it.
   */
  const sections = (lo: number, hi: number, gradePct: number, found: Climb[]) => {
    if (d[hi]! - d[lo]! < minLength) return found;
    const longest = longestSection(d, e, lo, hi, gradePct);
    if (!longest) return found;
    // The whole range is a leg already trimmed, or a climb: trimmed once only.
    const whole = longest[0] === lo && longest[1] === hi;
    const [start, end] = whole ? longest : trimSection(e, longest);
    sections(lo, longest[0], gradePct, found);
    const climb = climbOf(start, end);
    if (climb) found.push(climb);
    sections(longest[1], hi, gradePct, found);
    return found;
  };

  const climbs: Climb[] = [];
  for (const leg of risingLegs(e, options.dipM ?? CLIMB_DIP_M)) {
    const [start, end] = trimLeg(e, leg);
    for (const climb of sections(start, end, minGrade, [])) {
      const parent = climbs.length;
      climbs.push(climb);
      const from = climb.startIndex;
      const steeper = climb.avgGradePct + CLIMB_NESTED_STEP_PCT;
      // Back from stream indices to the valid samples' (the climb's own ends).
      const lo = lowerBound(index, from);
      const hi = lowerBound(index, climb.endIndex);
      for (const inner of sections(lo, hi, steeper, []))
        if (inner.lengthM <= CLIMB_NESTED_MAX_SHARE * climb.lengthM)
          climbs.push({ ...inner, parent });
    }
  }
  return climbs;
}

/** The first position of `sorted` holding `value` or more. */
function lowerBound(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
