import type { RideStreams } from './streams.ts';

/** A gap between samples longer than this (seconds) is a pause unless the rider moved across it. */
export const PAUSE_GAP_S = 5;
/** Below this speed (m/s, 1.8 km/h) the rider is stopped. */
export const MOVING_SPEED_MS = 0.5;
/**
 * Longest time one sample is held for in a 1 Hz series (10 minutes): a tunnel or a lost
 * signal while moving is bridged, a broken clock cannot make a series of millions of seconds.
 */
export const MAX_HOLD_S = 600;
/** Longest 1 Hz series built from one ride (7 days). */
export const MAX_SERIES_S = 7 * 86_400;

/**
 * Where the device's timer ran: `[start, end)` pairs in the streams' time base (seconds
 * since the first sample), sorted and not overlapping.
 */
export type TimerIntervals = readonly (readonly [start: number, end: number])[];

/** How each sample of a ride (or of a range of it) is counted. */
export interface Timeline {
  /** First sample of the range. */
  readonly from: number;
  /** Seconds of running timer each sample of the range stands for (index - from). */
  readonly running: Float64Array;
  /** 1 where the sample's interval was spent moving. */
  readonly moving: Uint8Array;
  /** From the first sample to the end of the last one, seconds. */
  readonly elapsedS: number;
  /** Seconds the timer ran. */
  readonly timerS: number;
  /** Seconds of timer time spent moving. */
  readonly movingS: number;
}

const EARTH_RADIUS_M = 6371008.8;

/** Great-circle distance in metres between two positions in degrees. */
export function haversineMetres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

const finite = (value: number | undefined): value is number =>
  value !== undefined && Number.isFinite(value);

/**
 * Metres covered from sample `i` to sample `j` by the distance channel, else by positions;
 * `undefined` when neither tells.
 */
function metresBetween(streams: RideStreams, i: number, j: number): number | undefined {
  const { distance, latitude, longitude } = streams;
  if (distance && finite(distance[i]) && finite(distance[j])) return distance[j] - distance[i];
  if (
    latitude &&
    longitude &&
    finite(latitude[i]) &&
    finite(latitude[j]) &&
    finite(longitude[i]) &&
    finite(longitude[j])
  )
    return haversineMetres(latitude[i], longitude[i], latitude[j], longitude[j]);
  return undefined;
}

/**
 * Where each sample's distance was last updated and is next updated: devices write distance
 * only every second to fourth record, or in whole steps, so one sample's step of 0 m
 * followed by a double step is no stop. `last[i]` is the sample at which the value `i`
 * holds was first written (a change from the sample before), `next[i]` the first later
 * sample with another value (the last sample when none). Built once per ride, O(n).
 */
interface DistanceUpdates {
  readonly last: Int32Array;
  readonly next: Int32Array;
}

function distanceUpdates(distance: ArrayLike<number>): DistanceUpdates {
  const n = distance.length;
  const last = new Int32Array(n);
  const next = new Int32Array(n);
  for (let i = 1; i < n; i++) last[i] = distance[i] === distance[i - 1] ? last[i - 1]! : i;
  next[n - 1] = n - 1;
  for (let i = n - 2; i >= 0; i--) next[i] = distance[i + 1] !== distance[i] ? i + 1 : next[i + 1]!;
  return { last, next };
}

/**
 * Whether the interval from sample `i` to the next was spent moving: the device's speed
 * reading when it has one (what the rider saw on the head unit); else the distance (or the
 * position) grew at a moving speed across the step, and a step without distance is judged
 * from the distance's last update before it to its next update after it (a device that
 * writes distance every few records moves at the pace of those updates; a rider who
 * stopped, at what the whole stop averages); without either, power or cadence above zero.
 */
function movedAfter(
  streams: RideStreams,
  i: number,
  updates: DistanceUpdates | undefined,
): boolean {
  const speed = streams.speed?.[i];
  if (finite(speed)) return speed >= MOVING_SPEED_MS;
  const { time, distance } = streams;
  const n = time.length;
  if (i + 1 < n) {
    if (updates && distance && distance[i + 1] === distance[i] && finite(distance[i])) {
      // No distance across the step: judged from the updates around it.
      const from = updates.last[i]!;
      const to = Math.max(i + 1, updates.next[i]!);
      const span = time[to]! - time[from]!;
      const metres = distance[to]! - distance[from]!;
      if (span > 0 && Number.isFinite(metres)) return metres / span >= MOVING_SPEED_MS;
    }
    const dt = time[i + 1]! - time[i]!;
    const metres = dt > 0 ? metresBetween(streams, i, i + 1) : undefined;
    if (metres !== undefined) return metres / dt >= MOVING_SPEED_MS;
  } else if (i > 0) {
    const dt = time[i]! - time[i - 1]!;
    const metres = dt > 0 ? metresBetween(streams, i - 1, i) : undefined;
    if (metres !== undefined) return metres / dt >= MOVING_SPEED_MS;
  }
  return (streams.power?.[i] ?? 0) > 0 || (streams.cadence?.[i] ?? 0) > 0;
}

/**
 * The timer of a ride whose file does not say when its timer ran: every gap between
 * samples runs, except a gap over `PAUSE_GAP_S` across which the rider did not move, and
 * any gap over `MAX_HOLD_S` (10 minutes: nothing was recorded; the sample before it then
 * stands for 1 s, as the last sample does). A gap counts as moving
 * when the distance or the position grew at a moving speed across it (smart recording
 * writes a sample every 1-8 s), or when power is above zero on both sides (trainers).
 */
export function timerFromSamples(streams: RideStreams): TimerIntervals {
  const { time } = streams;
  const n = time.length;
  const intervals: [number, number][] = [];
  const add = (start: number, end: number) => {
    const last = intervals[intervals.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else intervals.push([start, end]);
  };
  for (let i = 0; i < n; i++) {
    const t = time[i]!;
    if (!finite(t)) continue;
    if (i + 1 === n) {
      add(t, t + 1);
      break;
    }
    const dt = time[i + 1]! - t;
    if (!(dt > 0)) continue;
    let runs = dt <= PAUSE_GAP_S;
    // A gap longer than a sample is ever held for (`MAX_HOLD_S`) is no recording: a file
    // thinned out to points minutes or hours apart did not record the ride between them.
    if (!runs && dt <= MAX_HOLD_S) {
      const metres = metresBetween(streams, i, i + 1);
      runs =
        metres !== undefined
          ? metres / dt >= MOVING_SPEED_MS
          : (streams.power?.[i] ?? 0) > 0 && (streams.power?.[i + 1] ?? 0) > 0;
    }
    add(t, runs ? t + dt : t + 1);
  }
  return intervals;
}

/** Seconds of `[start, end)` inside the timer intervals, from interval `k` on; moves `k`. */
function overlap(timer: TimerIntervals, cursor: { k: number }, start: number, end: number): number {
  let seconds = 0;
  while (cursor.k < timer.length && timer[cursor.k]![1] <= start) cursor.k++;
  for (let k = cursor.k; k < timer.length; k++) {
    const [s, e] = timer[k]!;
    if (s >= end) break;
    seconds += Math.min(e, end) - Math.max(s, start);
  }
  return seconds;
}

/**
 * How samples `from..to` (exclusive end) are counted: the timer seconds each stands for
 * (the overlap of its interval, up to the next sample, with the timer) and whether that
 * interval was spent moving. The last sample of the ride runs to the end of the timer
 * interval it falls in. Without `timer`, the timer is `timerFromSamples(streams)`.
 */
export function timeline(
  streams: RideStreams,
  options: { readonly timer?: TimerIntervals; readonly from?: number; readonly to?: number } = {},
): Timeline {
  const { time } = streams;
  const n = time.length;
  const timer =
    options.timer && options.timer.length > 0
      ? normalizeTimer(options.timer)
      : timerFromSamples(streams);
  const from = Math.max(0, Math.min(options.from ?? 0, n));
  const to = Math.max(from, Math.min(options.to ?? n, n));
  const count = to - from;
  const running = new Float64Array(count);
  const moving = new Uint8Array(count);
  if (count === 0) return { from, running, moving, elapsedS: 0, timerS: 0, movingS: 0 };
  // Where the last sample of the range ends: the next sample, else the end of its interval.
  let rideEnd = time[n - 1]!;
  for (const [s, e] of timer)
    if (s <= rideEnd && rideEnd < e) rideEnd = Math.min(e, rideEnd + PAUSE_GAP_S);
  const cursor = { k: 0 };
  let timerS = 0;
  let movingS = 0;
  const updates =
    streams.distance && !streams.speed ? distanceUpdates(streams.distance) : undefined;
  for (let i = from; i < to; i++) {
    const start = time[i]!;
    const end = i + 1 < n ? time[i + 1]! : rideEnd;
    if (!finite(start) || !(end > start)) continue;
    const seconds = overlap(timer, cursor, start, end);
    running[i - from] = seconds;
    timerS += seconds;
    if (seconds > 0 && movedAfter(streams, i, updates)) {
      moving[i - from] = 1;
      movingS += seconds;
    }
  }
  const last = to < n ? time[to]! : rideEnd;
  return {
    from,
    running,
    moving,
    elapsedS: Math.max(0, last - time[from]!),
    timerS,
    movingS,
  };
}

/**
 * A 1 Hz series of `values` over a timeline: each sample held for the seconds it stands
 * for (at most `MAX_HOLD_S`), over timer time or only over moving time. Missing readings
 * while the timer ran are zeros. The series keeps whole seconds: fractions carry over.
 */
export function oneHertzSeries(
  values: ArrayLike<number>,
  line: Timeline,
  over: 'timer' | 'moving' = 'timer',
): Float64Array {
  const { running, moving, from } = line;
  let total = 0;
  for (let i = 0; i < running.length; i++)
    if (over === 'timer' || moving[i]) total += Math.min(running[i]!, MAX_HOLD_S);
  const out = new Float64Array(Math.min(Math.floor(total + 1e-9), MAX_SERIES_S));
  let clock = 0;
  let written = 0;
  for (let i = 0; i < running.length && written < out.length; i++) {
    if (over === 'moving' && !moving[i]) continue;
    const seconds = Math.min(running[i]!, MAX_HOLD_S);
    if (!(seconds > 0)) continue;
    clock += seconds;
    const upTo = Math.min(out.length, Math.floor(clock + 1e-9));
    const value = values[from + i];
    const held = value !== undefined && Number.isFinite(value) ? value : 0;
    if (upTo > written) out.fill(held, written, upTo);
    written = Math.max(written, upTo);
  }
  return out;
}

/** Timer intervals sorted, with empty ones dropped and overlapping ones merged. */
export function normalizeTimer(timer: TimerIntervals): TimerIntervals {
  const sorted = timer
    .filter(([start, end]) => Number.isFinite(start) && Number.isFinite(end) && end > start)
    .map(([start, end]) => [start, end] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const interval of sorted) {
    const last = merged[merged.length - 1];
    if (last && interval[0] <= last[1]) last[1] = Math.max(last[1], interval[1]);
    else merged.push(interval);
  }
  return merged;
}

/** The timer intervals inside `[from, to)`, clipped. */
export function clipTimer(timer: TimerIntervals, from: number, to: number): TimerIntervals {
  const clipped: [number, number][] = [];
  for (const [s, e] of timer) {
    const start = Math.max(s, from);
    const end = Math.min(e, to);
    if (end > start) clipped.push([start, end]);
  }
  return clipped;
}

/**
 * The first sample at or after `seconds` in a rising time stream (`time.length` when none):
 * where a range `[from, to)` of a ride starts and ends.
 *
 * @example
 * sampleIndexAt(Float64Array.of(0, 1, 5, 6), 2); // 2
 */
export function sampleIndexAt(time: ArrayLike<number>, seconds: number): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (time[mid]! < seconds) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
