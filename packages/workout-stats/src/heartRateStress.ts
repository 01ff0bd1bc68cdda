/**
 * Heart-rate training stress: the load of a ride without a power meter, on the scale of
 * power's TSS (an hour at threshold = 100).
 *
 * @remarks
 * intervals.icu's HRSS and TrainingPeaks' hrTSS both put heart-rate load on the TSS scale;
 * this follows intervals.icu: Banister's TRIMP, each second weighted by its heart-rate
 * reserve fraction `r = (hr - rest) / (max - rest)` as `r × 0.64 × e^(1.92 r)`, scaled so
 * that one hour at the threshold heart rate scores 100. Without a threshold from the rider,
 * it is 90 % of the maximum (Friel's lactate threshold is 89-94 % of max for trained
 * riders); rest defaults to 60 bpm. Seconds at or below rest add nothing.
 */

/** The defaults of `heartRateStressScore`. */
export const HR_REST_DEFAULT_BPM = 60;
export const HR_THRESHOLD_OF_MAX = 0.9;

/** Highest heart rate the seconds-by-bpm table keeps (what cleaning leaves: up to 250). */
const MAX_BPM = 250;

/**
 * Seconds spent at each whole bpm of a 1 Hz series (index = bpm, 0-250): what a ride keeps
 * to score its heart-rate load later against any maximum or threshold (they change when the
 * rider sets them). Missing readings (NaN, 0) are left out.
 */
export function heartRateSecondsByBpm(heartRate: ArrayLike<number>): Float64Array {
  const seconds = new Float64Array(MAX_BPM + 1);
  for (let i = 0; i < heartRate.length; i++) {
    const bpm = Math.round(heartRate[i]!);
    if (bpm > 0 && bpm <= MAX_BPM) seconds[bpm]! += 1;
  }
  return seconds;
}

const weight = (r: number) => r * 0.64 * Math.exp(1.92 * r);

/**
 * The heart-rate stress score of a ride from its seconds at each bpm
 * (`heartRateSecondsByBpm`), or undefined without a usable maximum.
 *
 * @example
 * // An hour at the threshold heart rate:
 * const secondsAt = new Float64Array(251); secondsAt[171] = 3600;
 * heartRateStressScore(secondsAt, { maxHr: 190 }); // 100
 */
export function heartRateStressScore(
  secondsByBpm: ArrayLike<number>,
  options: { readonly maxHr: number; readonly restHr?: number; readonly thresholdHr?: number },
): number | undefined {
  const rest = options.restHr ?? HR_REST_DEFAULT_BPM;
  const max = options.maxHr;
  if (!(max > rest)) return undefined;
  const threshold = options.thresholdHr ?? HR_THRESHOLD_OF_MAX * max;
  const atThreshold = weight((threshold - rest) / (max - rest)) * 3600;
  if (!(atThreshold > 0)) return undefined;
  let load = 0;
  for (let bpm = 0; bpm < secondsByBpm.length; bpm++) {
    const seconds = secondsByBpm[bpm]!;
    if (!(seconds > 0) || bpm <= rest) continue;
    load += weight((Math.min(bpm, max) - rest) / (max - rest)) * seconds;
  }
  return (load / atThreshold) * 100;
}
