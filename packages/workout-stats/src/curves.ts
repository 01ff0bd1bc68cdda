import { meanMaxCurve, type MeanMaxCurve } from './meanMax.ts';

/** Missing readings (NaN) as 0: a sum with NaN would spoil every window around it. */
function withoutGaps(values: ArrayLike<number>): Float64Array {
  return Float64Array.from({ length: values.length }, (_, i) => {
    const value = values[i]!;
    return Number.isFinite(value) ? value : 0;
  });
}

/**
 * The heart-rate curve of a 1 Hz heart-rate series: `curve[d - 1]` is the highest mean heart
 * rate over any `d` consecutive seconds (`meanMaxCurve` works on any series). Missing
 * readings count as 0, so a drop-out lowers the windows it falls in rather than spoiling them.
 *
 * @example
 * heartRateCurve([150, 170, 160]); // [170, 165, 160]
 */
export function heartRateCurve(heartRate: ArrayLike<number>): MeanMaxCurve {
  return meanMaxCurve(withoutGaps(heartRate));
}

/**
 * The pace curve of a 1 Hz speed series (m/s): `curve[d - 1]` is the fastest pace held over
 * any `d` consecutive seconds, in seconds per kilometre (1000 / the best mean speed over `d`
 * s); `Infinity` where the best mean speed is 0.
 *
 * @example
 * paceCurve([5, 4]); // [200, 222.2] (s/km)
 */
export function paceCurve(speedMs: ArrayLike<number>): Float64Array {
  const best = meanMaxCurve(withoutGaps(speedMs));
  return best.map((speed) => (speed > 0 ? 1000 / speed : Infinity));
}
