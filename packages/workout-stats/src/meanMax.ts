/**
 * A mean-max curve: `curve[d - 1]` is the best average of any `d` consecutive 1 Hz samples,
 * for every duration `d` from 1 s to the series length.
 */
export type MeanMaxCurve = Float64Array;

function prefixSums(values: ArrayLike<number>): Float64Array {
  const sums = new Float64Array(values.length + 1);
  for (let i = 0; i < values.length; i++) sums[i + 1] = sums[i]! + (values[i] ?? 0);
  return sums;
}

// Sliding-window minimum (monotone deque): out[j] = min(values[j .. j + window)).
function slidingMin(values: ArrayLike<number>, window: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(Math.max(0, n - window + 1));
  const deque = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < n; i++) {
    const value = values[i] ?? 0;
    while (tail > head && (values[deque[tail - 1]!] ?? 0) >= value) tail--;
    deque[tail++] = i;
    if (deque[head]! <= i - window) head++;
    if (i >= window - 1) out[i - window + 1] = values[deque[head]!] ?? 0;
  }
  return out;
}

// Largest sample of each aligned block of `size` samples: out[j] = max(values[j*size ..)).
function blockMax(values: ArrayLike<number>, size: number): Float64Array {
  const blocks = Math.ceil(values.length / size);
  const out = new Float64Array(blocks + 1).fill(-Infinity);
  for (let i = 0; i < values.length; i++) {
    const value = values[i] ?? 0;
    const block = (i / size) | 0;
    if (value > out[block]!) out[block] = value;
  }
  return out;
}

// Block sizes of the three pruning levels (starts per bound); each divides the one above.
const L1 = 256;
const L2 = 64;
const L3 = 16;
// Durations scanned plainly after pruning failed, before pruning is tried again.
const PLAIN_STRETCH = 64;
// Durations computed together (while no sample is negative).
const GROUP = 4;

/** The best window sum found so far for each duration of a group, and where it starts. */
interface Bests {
  readonly sum: Float64Array;
  readonly start: Int32Array;
}

// Windows of d, d+1, d+2 and d+3 samples from each start in [from, to) (each start leaves
// room for d+3): one read of the start's prefix sum serves the four durations.
function scanFour(sums: Float64Array, d: number, from: number, to: number, bests: Bests) {
  const { sum, start } = bests;
  let b0 = sum[0]!;
  let b1 = sum[1]!;
  let b2 = sum[2]!;
  let b3 = sum[3]!;
  let a0 = start[0]!;
  let a1 = start[1]!;
  let a2 = start[2]!;
  let a3 = start[3]!;
  for (let i = from; i < to; i++) {
    const base = sums[i]!;
    const s0 = sums[i + d]! - base;
    const s1 = sums[i + d + 1]! - base;
    const s2 = sums[i + d + 2]! - base;
    const s3 = sums[i + d + 3]! - base;
    if (s0 > b0) {
      b0 = s0;
      a0 = i;
    }
    if (s1 > b1) {
      b1 = s1;
      a1 = i;
    }
    if (s2 > b2) {
      b2 = s2;
      a2 = i;
    }
    if (s3 > b3) {
      b3 = s3;
      a3 = i;
    }
  }
  sum[0] = b0;
  sum[1] = b1;
  sum[2] = b2;
  sum[3] = b3;
  start[0] = a0;
  start[1] = a1;
  start[2] = a2;
  start[3] = a3;
}

// Windows of `d` samples from each start in [from, to), for the group's duration `j`.
function scanOne(sums: Float64Array, d: number, from: number, to: number, bests: Bests, j: number) {
  let best = bests.sum[j]!;
  let at = bests.start[j]!;
  for (let i = from; i < to; i++) {
    const sum = sums[i + d]! - sums[i]!;
    if (sum > best) {
      best = sum;
      at = i;
    }
  }
  bests.sum[j] = best;
  bests.start[j] = at;
}

// Every start in [from, to) for the `group` durations from `d`, each within its own starts.
function scanGroup(
  sums: Float64Array,
  d: number,
  group: number,
  from: number,
  to: number,
  bests: Bests,
) {
  const n = sums.length - 1;
  if (group === GROUP) {
    // Starts with room for the longest duration: four at once; the shorter ones' last
    // starts one by one.
    const shared = Math.min(to, n - (d + GROUP - 1) + 1);
    if (shared > from) scanFour(sums, d, from, shared, bests);
    for (let j = 0; j < GROUP - 1; j++) {
      const end = Math.min(to, n - (d + j) + 1);
      const begin = Math.max(from, shared);
      if (end > begin) scanOne(sums, d + j, begin, end, bests, j);
    }
  } else {
    for (let j = 0; j < group; j++)
      scanOne(sums, d + j, from, Math.min(to, n - (d + j) + 1), bests, j);
  }
}

// The lowest best of the group: a block pruned against it is pruned for each duration.
function lowestBest(bests: Bests, group: number): number {
  let low = bests.sum[0]!;
  for (let j = 1; j < group; j++) if (bests.sum[j]! < low) low = bests.sum[j]!;
  return low;
}

// Whether no window of any of the group's durations starting in the full block of `size`
// starts from `b` can beat that duration's own best: the check after the group's combined
// bound failed (a steady stretch, where the longest duration's bound is above the shortest
// one's best although every duration's own bound is at its best).
function prunedForEach(
  sums: Float64Array,
  minimum: Float64Array,
  maximum: Float64Array,
  b: number,
  size: number,
  d: number,
  group: number,
  bests: Bests,
): boolean {
  for (let j = 0; j < group; j++) {
    const duration = d + j;
    const best = bests.sum[j]!;
    if (
      sums[b + size - 1 + duration]! -
        sums[b]! -
        (size - 1) * Math.min(minimum[b]!, minimum[b + duration]!) >
        best &&
      !(duration <= size && duration * Math.max(maximum[b / size]!, maximum[b / size + 1]!) <= best)
    )
      return false;
  }
  return true;
}

/**
 * The exact mean-max curve for durations `fromDuration..toDuration` (1-based, inclusive):
 * `result[d - fromDuration]`. Lets callers split the durations of one ride across workers.
 */
export function meanMaxCurveRange(
  values: ArrayLike<number>,
  fromDuration: number,
  toDuration: number,
): Float64Array {
  const n = values.length;
  const first = Math.max(1, Math.floor(fromDuration));
  const last = Math.min(n, Math.floor(toDuration));
  const curve = new Float64Array(Math.max(0, last - first + 1));
  if (curve.length === 0) return curve;
  const sums = prefixSums(values);
  // Grouping durations needs a longer window never to sum to less than a shorter one.
  let nonNegative = true;
  for (let i = 0; i < n && nonNegative; i++) nonNegative = (values[i] ?? 0) >= 0;
  const min1 = slidingMin(values, L1 - 1);
  const min2 = slidingMin(values, L2 - 1);
  const min3 = slidingMin(values, L3 - 1);
  const max1 = blockMax(values, L1);
  const max2 = blockMax(values, L2);
  const max3 = blockMax(values, L3);
  const bests: Bests = { sum: new Float64Array(GROUP), start: new Int32Array(GROUP) };
  let bestStart = 0;
  // Where pruning fails (it scanned most starts), the plain scan is cheaper for a while.
  let plainUntil = 0;
  for (let d = first; d <= last;) {
    const group = nonNegative ? Math.min(GROUP, last - d + 1) : 1;
    // The group's longest duration: its bound covers the others' (no negative sample).
    const longest = d + group - 1;
    const startsOfLongest = n - longest + 1;
    const starts = n - d + 1;
    // Each duration's best starts from the last group's best window (grown by one sample on
    // the left when that is better), so it is high from the start.
    for (let j = 0; j < group; j++) {
      const seed = Math.min(bestStart, n - (d + j));
      bests.sum[j] = sums[seed + d + j]! - sums[seed]!;
      bests.start[j] = seed;
      if (seed > 0 && sums[seed - 1 + d + j]! - sums[seed - 1]! > bests.sum[j]!) {
        bests.sum[j] = sums[seed - 1 + d + j]! - sums[seed - 1]!;
        bests.start[j] = seed - 1;
      }
    }
    if (d < plainUntil) {
      scanGroup(sums, d, group, 0, starts, bests);
    } else {
      let scanned = 0;
      let low = lowestBest(bests, group);
      // Three levels of blocks: a block whose bound (for the longest duration) cannot beat
      // the lowest best is skipped whole; only blocks full for every duration are bounded.
      for (let b1 = 0; b1 < starts; b1 += L1) {
        const e1 = Math.min(b1 + L1, starts);
        if (
          b1 + L1 <= startsOfLongest &&
          (sums[b1 + L1 - 1 + longest]! -
            sums[b1]! -
            (L1 - 1) * Math.min(min1[b1]!, min1[b1 + longest]!) <=
            low ||
            (longest <= L1 && longest * Math.max(max1[b1 / L1]!, max1[b1 / L1 + 1]!) <= low) ||
            (group > 1 && prunedForEach(sums, min1, max1, b1, L1, d, group, bests)))
        )
          continue;
        for (let b2 = b1; b2 < e1; b2 += L2) {
          const e2 = Math.min(b2 + L2, e1);
          if (
            b2 + L2 <= startsOfLongest &&
            (sums[b2 + L2 - 1 + longest]! -
              sums[b2]! -
              (L2 - 1) * Math.min(min2[b2]!, min2[b2 + longest]!) <=
              low ||
              (longest <= L2 && longest * Math.max(max2[b2 / L2]!, max2[b2 / L2 + 1]!) <= low) ||
              (group > 1 && prunedForEach(sums, min2, max2, b2, L2, d, group, bests)))
          )
            continue;
          for (let b3 = b2; b3 < e2; b3 += L3) {
            const e3 = Math.min(b3 + L3, e2);
            if (
              b3 + L3 <= startsOfLongest &&
              (sums[b3 + L3 - 1 + longest]! -
                sums[b3]! -
                (L3 - 1) * Math.min(min3[b3]!, min3[b3 + longest]!) <=
                low ||
                (longest <= L3 && longest * Math.max(max3[b3 / L3]!, max3[b3 / L3 + 1]!) <= low) ||
                (group > 1 && prunedForEach(sums, min3, max3, b3, L3, d, group, bests)))
            )
              continue;
            scanned += e3 - b3;
            scanGroup(sums, d, group, b3, e3, bests);
            low = lowestBest(bests, group);
          }
        }
      }
      if (scanned * 2 > starts) plainUntil = longest + PLAIN_STRETCH;
    }
    for (let j = 0; j < group; j++) curve[d + j - first] = bests.sum[j]! / (d + j);
    bestStart = bests.start[group - 1]!;
    d += group;
  }
  return curve;
}

/**
 * The exact mean-max curve of a 1 Hz series, for every duration from 1 s to its length.
 *
 * @remarks
 * Exact at every duration (no duration is filled from its neighbour). Window starts are
 * grouped in blocks at three levels (256, 64 and 16 starts). Every window of `d` seconds
 * starting in a block of `k` starts from `b` sums to at most
 * `P[b+k-1+d] - P[b] - (k-1) * m`, where `P` is the prefix sum and `m` the smallest sample
 * in the two edge strips such a window leaves out (precomputed sliding minima, O(1) per
 * block). A block whose bound cannot beat the best so far is skipped whole; the best starts
 * from the previous duration's best window, so it is high from the start. A constant
 * series is pruned exactly. While no sample is negative, four durations are computed
 * together: a window's sum only grows with its length, so a block whose bound for the
 * longest of the four cannot beat the lowest of their bests is skipped for all four, and a
 * scanned start reads its prefix sum once for the four (about 1.6x faster on real rides).
 * Where bounds stop pruning (more than half the starts scanned), the next 64 durations use
 * the plain scan, so the worst case stays close to the plain O(n²) scan.
 *
 * @example
 * meanMaxCurve([100, 300, 200]); // Float64Array [300, 250, 200]
 */
export function meanMaxCurve(values: ArrayLike<number>): MeanMaxCurve {
  return meanMaxCurveRange(values, 1, values.length);
}

/**
 * The plain O(n²) mean-max curve over prefix sums: the reference the fast curve is tested
 * and benchmarked against.
 */
export function meanMaxCurveReference(values: ArrayLike<number>): MeanMaxCurve {
  const n = values.length;
  const sums = prefixSums(values);
  const curve = new Float64Array(n);
  for (let d = 1; d <= n; d++) {
    let best = -Infinity;
    for (let i = 0; i + d <= n; i++) {
      const sum = sums[i + d]! - sums[i]!;
      if (sum > best) best = sum;
    }
    curve[d - 1] = best / d;
  }
  return curve;
}

/**
 * The power-curve envelope: at each duration `d`, the best average over *at least* `d`
 * seconds, the running maximum of a mean-max curve taken from the longest duration down.
 *
 * @remarks
 * A raw mean-max curve can rise with duration: for `[5, 0, 5]` it is 5, 2.5, 3.33 (no 2 s
 * window reaches the 3 s average). Riders read a power curve as "what I can hold for at
 * least this long", which never rises; this is that curve, still exact at every duration.
 *
 * @example
 * powerCurveEnvelope(Float64Array.of(5, 2.5, 10 / 3)); // [5, 3.33, 3.33]
 */
export function powerCurveEnvelope(curve: ArrayLike<number>): MeanMaxCurve {
  const envelope = new Float64Array(curve.length);
  let best = -Infinity;
  for (let i = curve.length - 1; i >= 0; i--) {
    best = Math.max(best, curve[i]!);
    envelope[i] = best;
  }
  return envelope;
}

/**
 * Best-of merge of several rides' curves (a period's curve: last 6 weeks, a year): at each
 * duration the highest value of any ride that lasted that long.
 *
 * @example
 * mergeCurves([Float64Array.of(400, 300), Float64Array.of(350, 320, 250)]); // [400, 320, 250]
 */
export function mergeCurves(curves: readonly ArrayLike<number>[]): MeanMaxCurve {
  const length = curves.reduce((max, curve) => Math.max(max, curve.length), 0);
  const merged = new Float64Array(length).fill(-Infinity);
  for (const curve of curves) {
    for (let i = 0; i < curve.length; i++) {
      const value = curve[i]!;
      if (value > merged[i]!) merged[i] = value;
    }
  }
  return merged;
}

/**
 * FTP estimate (spec 9): the best 60-minute average power, or `undefined` when the ride is
 * shorter than an hour.
 */
export function estimateFtp(curve: ArrayLike<number>): number | undefined {
  return curve.length >= 3600 ? curve[3599] : undefined;
}
