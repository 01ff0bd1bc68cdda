/** Share of W' an effort must spend to count as a match burnt (10 %: see `matchesBurnt`). */
export const MATCH_SHARE = 0.1;
/** Recoveries of at most this many seconds inside an effort do not end its match. */
export const MATCH_GAP_S = 25;

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

/** One match burnt: a stretch of W' expenditure. Indices are seconds of the series. */
export interface Match {
  /** First second the balance fell. */
  readonly start: number;
  /** Last second it fell (inclusive). */
  readonly end: number;
  /** W' spent: the balance before `start` minus the lowest balance of the match, J. */
  readonly spentJ: number;
  /** The second of the lowest balance and that balance, J. */
  readonly minIndex: number;
  readonly minJ: number;
}

/** Options of `matchesBurnt`. */
export interface MatchOptions {
  /** Share of W' an effort must spend to count; `MATCH_SHARE` (0.1) by default. */
  readonly share?: number;
  /** Longest recovery, in seconds, that does not split an effort; `MATCH_GAP_S` (25). */
  readonly gapS?: number;
}

/** Stretches in which the balance falls, joined across recoveries of at most `gapS` s. */
function fallingStretches(wbal: ArrayLike<number>, initialJ: number, gapS: number) {
  const stretches: [number, number][] = [];
  let previous = initialJ;
  for (let i = 0; i < wbal.length; i++) {
    const value = wbal[i]!;
    if (value < previous) {
      const last = stretches[stretches.length - 1];
      if (last && i - last[1] - 1 <= gapS) last[1] = i;
      else stretches.push([i, i]);
    }
    previous = value;
  }
  return stretches;
}

/**
 * The matches burnt of a ride: efforts above CP that spent at least `share` of W'.
 *
 * @remarks
 * GoldenCheetah's WPrime.cpp counts a match where power (raw or 25 s smoothed) is at or
 * above CP, and draws the matches that cost 2 kJ or more, 10 % of its default W' of 20 kJ.
 * From the balance alone: a match is a run of seconds in which the balance falls (power above
 * CP), runs apart by at most 25 s of recovery joined (a gear change, a corner), kept when the
 * balance before it minus its lowest point is at least `share × W'` (10 % by default, as
 * GoldenCheetah's 2 kJ of 20 kJ; riders who think of a match as a quarter of W' pass 0.25).
 *
 * @example
 * matchesBurnt(wPrimeBalance(power, 250, 20000), 20000); // [{ start, end, spentJ, ... }]
 */
export function matchesBurnt(
  wbal: ArrayLike<number>,
  wPrimeJ: number,
  options: MatchOptions = {},
): Match[] {
  if (!(wPrimeJ > 0)) throw new RangeError("W' must be positive");
  const threshold = (options.share ?? MATCH_SHARE) * wPrimeJ;
  const matches: Match[] = [];
  for (const [start, end] of fallingStretches(wbal, wPrimeJ, options.gapS ?? MATCH_GAP_S)) {
    const before = start > 0 ? wbal[start - 1]! : wPrimeJ;
    let minIndex = start;
    for (let i = start + 1; i <= end; i++) if (wbal[i]! < wbal[minIndex]!) minIndex = i;
    const spentJ = before - wbal[minIndex]!;
    if (spentJ >= threshold) matches.push({ start, end, spentJ, minIndex, minJ: wbal[minIndex]! });
  }
  return matches;
}
