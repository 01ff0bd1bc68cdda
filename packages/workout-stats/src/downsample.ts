/**
 * Peak-preserving downsampling for charts: splits the points into buckets and keeps, in
 * order, the first, minimum, maximum and last point of each, so spikes and dips survive.
 * Returns the indices to draw (at most about `maxPoints`). NaN values never win min or max.
 *
 * @example
 * downsampleMinMax(tenHourPower, 2000); // ~2000 indices into the 36,000 samples
 */
export function downsampleMinMax(values: ArrayLike<number>, maxPoints: number): Uint32Array {
  const n = values.length;
  if (n <= maxPoints || maxPoints < 4) return Uint32Array.from({ length: n }, (_, i) => i);
  const buckets = Math.floor(maxPoints / 4);
  const picked: number[] = [];
  for (let bucket = 0; bucket < buckets; bucket++) {
    const from = Math.floor((bucket * n) / buckets);
    const to = Math.floor(((bucket + 1) * n) / buckets);
    let min = -1;
    let max = -1;
    for (let i = from; i < to; i++) {
      const value = values[i]!;
      if (Number.isNaN(value)) continue;
      if (min < 0 || value < values[min]!) min = i;
      if (max < 0 || value > values[max]!) max = i;
    }
    const keep = [from, min, max, to - 1].filter((index) => index >= 0).sort((a, b) => a - b);
    for (const index of keep) if (picked[picked.length - 1] !== index) picked.push(index);
  }
  return Uint32Array.from(picked);
}
