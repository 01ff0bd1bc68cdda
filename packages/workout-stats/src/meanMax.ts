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
  const min1 = slidingMin(values, L1 - 1);
  const min2 = slidingMin(values, L2 - 1);
  const min3 = slidingMin(values, L3 - 1);
  const max1 = blockMax(values, L1);
  const max2 = blockMax(values, L2);
  const max3 = blockMax(values, L3);
  let bestStart = 0;
  // Where pruning fails (it scanned most starts), the plain scan is cheaper for a while.
  let plainUntil = 0;
  for (let d = first; d <= last; d++) {
    const starts = n - d + 1;
    // The best window of the last duration, grown by one sample on the right or the left.
    const seed = Math.min(bestStart, starts - 1);
    let best = sums[seed + d]! - sums[seed]!;
    let bestAt = seed;
    if (seed > 0 && sums[seed - 1 + d]! - sums[seed - 1]! > best) {
      best = sums[seed - 1 + d]! - sums[seed - 1]!;
      bestAt = seed - 1;
    }
    if (d < plainUntil) {
      for (let i = 0; i < starts; i++) {
        const sum = sums[i + d]! - sums[i]!;
        if (sum > best) {
          best = sum;
          bestAt = i;
        }
      }
      bestStart = bestAt;
      curve[d - first] = best / d;
      continue;
    }
    let scanned = 0;
    // Three levels of blocks: a block whose bound cannot beat the best is skipped whole.
    for (let b1 = 0; b1 < starts; b1 += L1) {
      const e1 = Math.min(b1 + L1, starts);
      if (
        e1 - b1 === L1 &&
        (sums[b1 + L1 - 1 + d]! - sums[b1]! - (L1 - 1) * Math.min(min1[b1]!, min1[b1 + d]!) <=
          best ||
          (d <= L1 && d * Math.max(max1[b1 / L1]!, max1[b1 / L1 + 1]!) <= best))
      )
        continue;
      for (let b2 = b1; b2 < e1; b2 += L2) {
        const e2 = Math.min(b2 + L2, e1);
        if (
          e2 - b2 === L2 &&
          (sums[b2 + L2 - 1 + d]! - sums[b2]! - (L2 - 1) * Math.min(min2[b2]!, min2[b2 + d]!) <=
            best ||
            (d <= L2 && d * Math.max(max2[b2 / L2]!, max2[b2 / L2 + 1]!) <= best))
        )
          continue;
        for (let b3 = b2; b3 < e2; b3 += L3) {
          const e3 = Math.min(b3 + L3, e2);
          if (
            e3 - b3 === L3 &&
            (sums[b3 + L3 - 1 + d]! - sums[b3]! - (L3 - 1) * Math.min(min3[b3]!, min3[b3 + d]!) <=
              best ||
              (d <= L3 && d * Math.max(max3[b3 / L3]!, max3[b3 / L3 + 1]!) <= best))
          )
            continue;
          scanned += e3 - b3;
          for (let i = b3; i < e3; i++) {
            const sum = sums[i + d]! - sums[i]!;
            if (sum > best) {
              best = sum;
              bestAt = i;
            }
          }
        }
      }
    }
    if (scanned * 2 > starts) plainUntil = d + PLAIN_STRETCH;
    bestStart = bestAt;
    curve[d - first] = best / d;
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
 * series is pruned exactly. Where bounds stop pruning (more than half the starts scanned),
 * the next 64 durations use the plain scan, so the worst case stays close to the plain
 * O(n²) scan.
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
