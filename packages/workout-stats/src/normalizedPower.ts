/** The rolling window of normalized power, in seconds (Coggan). */
export const NP_WINDOW_SECONDS = 30;

/**
 * Normalized power of a 1 Hz power series in watts: the 30 s rolling mean, raised to the
 * 4th power, averaged, and the 4th root taken.
 *
 * @remarks Rides shorter than 30 s have no normalized power (`undefined`): the 30 s mean
 * only exists from the 30th sample on. Source: Allen & Coggan, *Training and Racing with a
 * Power Meter*.
 * @example
 * normalizedPower(new Array(60).fill(200)); // 200
 */
export function normalizedPower(watts: ArrayLike<number>): number | undefined {
  const n = watts.length;
  if (n < NP_WINDOW_SECONDS) return undefined;
  let windowSum = 0;
  for (let i = 0; i < NP_WINDOW_SECONDS; i++) windowSum += watts[i] ?? 0;
  let fourthPowers = (windowSum / NP_WINDOW_SECONDS) ** 4;
  for (let i = NP_WINDOW_SECONDS; i < n; i++) {
    windowSum += (watts[i] ?? 0) - (watts[i - NP_WINDOW_SECONDS] ?? 0);
    fourthPowers += (windowSum / NP_WINDOW_SECONDS) ** 4;
  }
  return (fourthPowers / (n - NP_WINDOW_SECONDS + 1)) ** 0.25;
}

/** Intensity factor: normalized power over functional threshold power. */
export function intensityFactor(np: number, ftpWatts: number): number {
  if (!(ftpWatts > 0)) throw new RangeError('FTP must be positive');
  return np / ftpWatts;
}

/**
 * Training stress score: `seconds x NP x IF / (FTP x 3600) x 100`. One hour at FTP is 100.
 */
export function trainingStressScore(seconds: number, np: number, ftpWatts: number): number {
  const intensity = intensityFactor(np, ftpWatts);
  return ((seconds * np * intensity) / (ftpWatts * 3600)) * 100;
}

/**
 * The seconds TSS counts for `timerSeconds` of riding: the number of 30 s rolling means NP
 * averages (timer seconds - 29). Bike computers count so: on real files their TSS agrees
 * with this to within 1 %, and with the plain timer time only to within 2-3 % on short rides.
 */
export function tssSeconds(timerSeconds: number): number {
  return Math.max(0, Math.floor(timerSeconds + 1e-9) - NP_WINDOW_SECONDS + 1);
}
