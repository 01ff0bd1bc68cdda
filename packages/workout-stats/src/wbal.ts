/** A match costs at least this much W', J (GoldenCheetah's "W'bal Matches > 2kJ"). */
export const MATCH_MIN_J = 2000;
/** Seconds of the trailing mean power that keeps a match open (GoldenCheetah's 25 s). */
export const MATCH_SMOOTH_S = 25;

/** Options of `wPrimeBalance`. */
export interface WPrimeBalanceOptions {
  /** W' balance before the first sample, J; full (`wPrimeJ`) by default. */
  readonly initialJ?: number;
}

/**
 * W' balance after each second of a 1 Hz power series, in joules, by the differential form
 * of Skiba et al. (2015), as GoldenCheetah computes it ("Froncioni / Clarke / Skiba
 * differential"): above CP the balance drops by `P − CP` each second; below CP it recovers by
 * `(W' − W'bal)·(CP − P)/W'` (faster the emptier it is and the easier the rider goes).
 *
 * @remarks
 * The balance can go below zero when CP or W' is set too low: that is shown, not clipped,
 * so the rider sees the settings are off. Missing readings (NaN) count as 0 W (coasting).
 * Irregular streams are first turned into 1 Hz with `oneHertzSeries`.
 *
 * @example
 * wPrimeBalance([350, 350, 150], 250, 20000); // [19900, 19800, 19801]
 */
export function wPrimeBalance(
  power: ArrayLike<number>,
  cpW: number,
  wPrimeJ: number,
  options: WPrimeBalanceOptions = {},
): Float64Array {
  if (!(cpW > 0)) throw new RangeError('CP must be positive');
  if (!(wPrimeJ > 0)) throw new RangeError("W' must be positive");
  const out = new Float64Array(power.length);
  let balance = options.initialJ ?? wPrimeJ;
  for (let i = 0; i < power.length; i++) {
    const raw = power[i]!;
    const watts = Number.isFinite(raw) ? raw : 0;
    balance += watts < cpW ? ((wPrimeJ - balance) * (cpW - watts)) / wPrimeJ : cpW - watts;
    out[i] = balance;
  }
  return out;
}

/** One match burnt; indices are seconds of the series. */
export interface Match {
  /** First second of the effort (power or its 25 s mean at or above CP). */
  readonly start: number;
  /** Last second at or above CP before the effort ended (inclusive). */
  readonly end: number;
  /** W' spent: the balance at `start` minus the balance at `end`, J. */
  readonly spentJ: number;
  /** The second of the lowest balance of the match and that balance, J. */
  readonly minIndex: number;
  readonly minJ: number;
}

/** Options of `matchesBurnt`. */
export interface MatchOptions {
  /** Least W' a match spends, J; `MATCH_MIN_J` (2000). */
  readonly minJ?: number;
}

/**
 * The matches burnt of a 1 Hz ride, by GoldenCheetah's rule (WPrime.cpp, "FIND MATCHES").
 *
 * @remarks
 * A match opens at the first second whose power, or whose 25 s trailing mean power, is at
 * or above CP; it stays open until a second at which both are below CP (so a recovery ends
 * it once the 25 s mean has fallen under CP too: a coasting corner of a few seconds inside
 * a hard effort does not); its end is then moved back to the last second at or above CP.
 * It costs the W' balance at its first second minus the balance at its last, and counts
 * when that is at least 2 kJ (GoldenCheetah's "W'bal Matches > 2kJ"). An effort still open
 * when the ride ends is closed there (GoldenCheetah drops it). `wbal` is
 * `wPrimeBalance(power, cp, w')`; missing power readings count as 0 W.
 *
 * @example
 * matchesBurnt(power, wPrimeBalance(power, 250, 20000), 250); // [{ start, end, spentJ, ... }]
 */
export function matchesBurnt(
  power: ArrayLike<number>,
  wbal: ArrayLike<number>,
  cpW: number,
  options: MatchOptions = {},
): Match[] {
  if (!(cpW > 0)) throw new RangeError('CP must be positive');
  const minJ = options.minJ ?? MATCH_MIN_J;
  const n = Math.min(power.length, wbal.length);
  const watts = (i: number) => {
    const value = power[i]!;
    return Number.isFinite(value) ? value : 0;
  };
  const matches: Match[] = [];
  const close = (start: number, stop: number) => {
    let end = stop;
    while (end > start && watts(end) < cpW) end--;
    if (end <= start) return;
    let minIndex = start;
    for (let i = start + 1; i <= end; i++) if (wbal[i]! < wbal[minIndex]!) minIndex = i;
    const spentJ = wbal[start]! - wbal[end]!;
    if (spentJ >= minJ) matches.push({ start, end, spentJ, minIndex, minJ: wbal[minIndex]! });
  };
  let sum = 0;
  let start = -1;
  for (let i = 0; i < n; i++) {
    sum += watts(i);
    if (i >= MATCH_SMOOTH_S) sum -= watts(i - MATCH_SMOOTH_S);
    const smooth = sum / Math.min(i + 1, MATCH_SMOOTH_S);
    const raw = watts(i);
    if (start < 0 && (smooth >= cpW || raw >= cpW)) start = i;
    else if (start >= 0 && smooth < cpW && raw < cpW) {
      close(start, i - 1);
      start = -1;
    }
  }
  if (start >= 0) close(start, n - 1);
  return matches;
}
