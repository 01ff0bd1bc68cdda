/**
 * Trailing rolling mean over a 1 Hz series: element `i` is the mean of the last `window`
 * samples ending at `i`; the first `window - 1` elements average what exists so far.
 *
 * @remarks Runs in O(n) with a running sum. Used for the 3 s, 10 s and 30 s power fields (spec 9).
 * @example
 * rollingAverage([100, 200, 300], 2); // [100, 150, 250]
 */
export function rollingAverage(values: ArrayLike<number>, window: number): Float64Array {
  if (!Number.isInteger(window) || window < 1) {
    throw new RangeError(`window must be a positive integer, got ${window}`);
  }
  const out = new Float64Array(values.length);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i] ?? 0;
    if (i >= window) sum -= values[i - window] ?? 0;
    out[i] = sum / Math.min(i + 1, window);
  }
  return out;
}
