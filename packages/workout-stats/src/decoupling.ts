/** Seconds of warm-up left out of decoupling: heart rate lags power at the start. */
export const DECOUPLING_WARMUP_S = 600;
/** Fewest steady seconds (after the warm-up, without coasting) decoupling needs. */
export const DECOUPLING_MIN_S = 1200;

/** Options of `decoupling`. */
export interface DecouplingOptions {
  /** Seconds left out at the start; `DECOUPLING_WARMUP_S` (600). */
  readonly warmupS?: number;
  /** Fewest steady seconds; `DECOUPLING_MIN_S` (1200). */
  readonly minSteadyS?: number;
}

/**
 * The steady seconds: after the warm-up, with power above 0 (not coasting nor stopped) and a
 * heart-rate reading (above 0).
 */
function steadySeconds(
  power: ArrayLike<number>,
  hr: ArrayLike<number>,
  warmupS: number,
): Int32Array {
  const n = Math.min(power.length, hr.length);
  const kept = new Int32Array(Math.max(0, n - warmupS));
  let count = 0;
  for (let i = warmupS; i < n; i++) if (power[i]! > 0 && hr[i]! > 0) kept[count++] = i;
  return kept.subarray(0, count);
}

/** Mean power over mean heart rate of the given seconds. */
function ratio(power: ArrayLike<number>, hr: ArrayLike<number>, seconds: Int32Array): number {
  let watts = 0;
  let beats = 0;
  for (const i of seconds) {
    watts += power[i]!;
    beats += hr[i]!;
  }
  return watts / beats;
}

/**
 * Aerobic decoupling (Pw:HR), percent: how much the ratio of power to heart rate fell from the
 * first half of the steady part of a ride to the second, `(EF₁ − EF₂) / EF₁ × 100`.
 *
 * @remarks
 * Joe Friel's aerobic decoupling (TrainingPeaks' Pw:HR): under 5 % on a long steady ride
 * means the aerobic base holds. The steady part is the ride after its first 10 minutes
 * (heart rate lags power while warming up), without seconds of zero power (coasting,
 * stops: heart rate then falls on its own) or without a heart-rate reading; it is split
 * into two halves of equal numbers of seconds (an odd middle second left out), and each half's ratio is its mean power over
 * its mean heart rate. Positive: heart rate drifted up against power. `undefined` with fewer
 * than 20 steady minutes. Both series are 1 Hz, second for second.
 *
 * @example
 * decoupling(power, heartRate); // 3.2 (%)
 */
export function decoupling(
  power: ArrayLike<number>,
  hr: ArrayLike<number>,
  options: DecouplingOptions = {},
): number | undefined {
  const steady = steadySeconds(power, hr, options.warmupS ?? DECOUPLING_WARMUP_S);
  if (steady.length < (options.minSteadyS ?? DECOUPLING_MIN_S) || steady.length < 2)
    return undefined;
  const half = Math.floor(steady.length / 2);
  const first = ratio(power, hr, steady.subarray(0, half));
  const second = ratio(power, hr, steady.subarray(steady.length - half));
  return ((first - second) / first) * 100;
}

/**
 * Efficiency factor: normalized power over mean heart rate, W per beat per minute (Friel;
 * TrainingPeaks' EF). `undefined` without a positive heart rate.
 *
 * @example
 * efficiencyFactor(210, 140); // 1.5
 */
export function efficiencyFactor(npW: number, avgHr: number): number | undefined {
  return avgHr > 0 && Number.isFinite(npW) ? npW / avgHr : undefined;
}
