/** Hysteresis of the elevation noise filter, in metres. */
export const ELEVATION_HYSTERESIS_M = 3;
/** Distance over which grade is measured, in metres. */
export const GRADE_DISTANCE_M = 100;

/**
 * Elevation gain and loss with a noise filter: a change counts only once the altitude has
 * moved more than `hysteresis` metres from the last counted point (GPS and barometric noise
 * of a metre or two is not climbing). NaN readings are skipped.
 *
 * @example
 * elevationGainLoss([100, 101, 100, 101, 110, 104]); // { gain: 10, loss: 6 }
 */
export function elevationGainLoss(
  metres: ArrayLike<number>,
  hysteresis = ELEVATION_HYSTERESIS_M,
): { gain: number; loss: number } {
  let gain = 0;
  let loss = 0;
  let anchor = Number.NaN;
  for (let i = 0; i < metres.length; i++) {
    const value = metres[i]!;
    if (!Number.isFinite(value)) continue;
    if (Number.isNaN(anchor)) {
      anchor = value;
      continue;
    }
    const change = value - anchor;
    if (change > hysteresis) {
      gain += change;
      anchor = value;
    } else if (change < -hysteresis) {
      loss -= change;
      anchor = value;
    }
  }
  return { gain, loss };
}

/**
 * Grade in percent at each sample: the altitude change over the trailing `window` metres of
 * distance (NaN until that much distance is covered). Measuring over 100 m keeps GPS jitter
 * from showing as 30% walls.
 */
export function gradeSeries(
  distance: ArrayLike<number>,
  altitude: ArrayLike<number>,
  window = GRADE_DISTANCE_M,
): Float64Array {
  const n = Math.min(distance.length, altitude.length);
  const out = new Float64Array(n).fill(Number.NaN);
  let j = 0;
  for (let i = 0; i < n; i++) {
    while (j < i && distance[i]! - distance[j + 1]! >= window) j++;
    const run = distance[i]! - distance[j]!;
    if (run >= window && Number.isFinite(altitude[i]!) && Number.isFinite(altitude[j]!))
      out[i] = ((altitude[i]! - altitude[j]!) / run) * 100;
  }
  return out;
}
