import { normalizedPower } from './normalizedPower.ts';

/** Seconds of warm-up left out of decoupling: heart rate lags power at the start. */
export const DECOUPLING_WARMUP_S = 600;
/** Fewest seconds after the warm-up decoupling needs. */
export const DECOUPLING_MIN_S = 1200;

/** Options of `decoupling`. */
export interface DecouplingOptions {
  /** Seconds left out at the start; `DECOUPLING_WARMUP_S` (600). */
  readonly warmupS?: number;
  /** Fewest steady seconds; `DECOUPLING_MIN_S` (1200). */
  readonly minSteadyS?: number;
}

/** Efficiency factor of seconds [from, to): NP (zeros included) over mean heart rate (readings only). */
function efOf(power: ArrayLike<number>, hr: ArrayLike<number>, from: number, to: number) {
  const watts = Float64Array.from({ length: to - from }, (_, i) => {
    const value = power[from + i]!;
    return Number.isFinite(value) ? value : 0;
  });
  let beats = 0;
  let count = 0;
  for (let i = from; i < to; i++)
    if (hr[i]! > 0) {
      beats += hr[i]!;
      count++;
    }
  const np = normalizedPower(watts);
  return np !== undefined && count > 0 ? efficiencyFactor(np, beats / count) : undefined;
}

/**
 * Aerobic decoupling (Pw:HR), percent: how much the ratio of power to heart rate fell from the
 * first half of the steady part of a ride to the second, `(EF₁ − EF₂) / EF₁ × 100`.
 *
 * @remarks
 * Joe Friel's aerobic decoupling (TrainingPeaks' Pw:HR): under 5 % on a long steady ride
 * means the aerobic base holds. The ride after its first 10 minutes (heart rate lags power
 * while warming up) is split into two halves of equal seconds (an odd middle second left
 * out), and each half's EF is the one of `efficiencyFactor`: its normalized power, zeros
 * included (coasting is part of the ride, as NP counts it), over its mean heart rate,
 * seconds without a reading left out. Positive: heart rate drifted up against power.
 * `undefined` with fewer than 20 minutes after the warm-up. Both series are 1 Hz timer
 * series, second for second.
 *
 * @example
 * decoupling(power, heartRate); // 3.2 (%)
 */
export function decoupling(
  power: ArrayLike<number>,
  hr: ArrayLike<number>,
  options: DecouplingOptions = {},
): number | undefined {
  const n = Math.min(power.length, hr.length);
  const from = Math.min(n, options.warmupS ?? DECOUPLING_WARMUP_S);
  const seconds = n - from;
  if (seconds < (options.minSteadyS ?? DECOUPLING_MIN_S) || seconds < 60) return undefined;
  const half = Math.floor(seconds / 2);
  const first = efOf(power, hr, from, from + half);
  const second = efOf(power, hr, n - half, n);
  if (first === undefined || second === undefined) return undefined;
  return ((first - second) / first) * 100;
}

/**
 * Efficiency factor: normalized power over mean heart rate, W per beat per minute (Friel;
 * TrainingPeaks' EF and GoldenCheetah's "Efficiency Factor"). The one treatment of zeros:
 * NP includes zero-power seconds (timer series), the mean heart rate leaves out seconds
 * without a reading. `decoupling` compares this EF of the two halves of a ride.
 * `undefined` without a positive heart rate.
 *
 * @example
 * efficiencyFactor(210, 140); // 1.5
 */
export function efficiencyFactor(npW: number, avgHr: number): number | undefined {
  return avgHr > 0 && Number.isFinite(npW) ? npW / avgHr : undefined;
}
