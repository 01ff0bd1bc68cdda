/**
 * Running pace training stress: the load of a run on the scale of power's TSS (an hour at
 * threshold pace = 100), for runs scored by pace rather than by a cycling FTP.
 *
 * @remarks
 * TrainingPeaks' rTSS: `hours × IF² × 100`, IF the normalized graded pace over the runner's
 * functional threshold pace. Graded: each second's speed is scaled by the energy cost of
 * running at its grade against the flat (Minetti et al. 2002, J Appl Physiol 93:1039, the
 * polynomial `C(i) = 155.4i⁵ − 30.4i⁴ − 43.3i³ + 46.3i² + 19.5i + 3.6` J/kg/m, grade `i`
 * clamped to ±45 %), as Strava's grade-adjusted pace does. Normalized as NP is: the 30 s
 * rolling mean of the graded speed, its 4th-power mean and 4th root. Speeds are in m/s
 * (pace is their inverse: a faster pace is a higher speed).
 */
import { NP_WINDOW_SECONDS } from './normalizedPower.ts';

/** The energy cost of running at grade `i` (a fraction), J/kg/m (Minetti 2002). */
export function runningCost(grade: number): number {
  const i = Math.max(-0.45, Math.min(0.45, Number.isFinite(grade) ? grade : 0));
  return ((((155.4 * i - 30.4) * i - 43.3) * i + 46.3) * i + 19.5) * i + 3.6;
}

const FLAT_COST = runningCost(0);

/**
 * Normalized graded speed of a 1 Hz moving series (m/s): speed scaled by the cost of its
 * grade (`grade` in percent, as workout-stats' grade series; missing means flat), then the
 * 30 s rolling mean's 4th-power mean and 4th root. Undefined under 30 s.
 */
export function normalizedGradedSpeed(
  speed: ArrayLike<number>,
  gradePercent?: ArrayLike<number>,
): number | undefined {
  const n = speed.length;
  if (n < NP_WINDOW_SECONDS) return undefined;
  const graded = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const v = speed[k]!;
    const g = gradePercent ? gradePercent[k]! / 100 : 0;
    graded[k] = Number.isFinite(v) && v > 0 ? (v * runningCost(g)) / FLAT_COST : 0;
  }
  let sum = 0;
  for (let k = 0; k < NP_WINDOW_SECONDS; k++) sum += graded[k]!;
  let fourth = (sum / NP_WINDOW_SECONDS) ** 4;
  for (let k = NP_WINDOW_SECONDS; k < n; k++) {
    sum += graded[k]! - graded[k - NP_WINDOW_SECONDS]!;
    fourth += (sum / NP_WINDOW_SECONDS) ** 4;
  }
  return (fourth / (n - NP_WINDOW_SECONDS + 1)) ** 0.25;
}

/**
 * rTSS of `seconds` of running at normalized graded speed `ngsMs` against the threshold
 * speed `thresholdMs` (1000 / threshold pace in s/km); undefined without a positive one.
 *
 * @example
 * paceStressScore(3600, 4, 4); // 100: an hour at threshold pace
 */
export function paceStressScore(
  seconds: number,
  ngsMs: number,
  thresholdMs: number,
): number | undefined {
  if (!(thresholdMs > 0) || !(ngsMs >= 0) || !(seconds > 0)) return undefined;
  const intensity = ngsMs / thresholdMs;
  return (seconds / 3600) * intensity * intensity * 100;
}
