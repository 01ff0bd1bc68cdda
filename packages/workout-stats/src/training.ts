/**
 * Training over time: the performance management chart (fitness, fatigue, form) of daily
 * TSS, and a ride's personal-best efforts (best average power over set durations, fastest
 * time over set distances).
 */

/** Days of the chronic (fitness) and acute (fatigue) training load averages. */
export const CTL_DAYS = 42;
export const ATL_DAYS = 7;
/** Days over which the ramp rate measures the change of fitness. */
export const RAMP_DAYS = 7;

/**
 * The weight a day's TSS gets in an exponentially weighted average of time constant `days`:
 * `1 − e^(−1/days)`; the previous value keeps `e^(−1/days)`.
 */
export const loadGain = (days: number): number => 1 - Math.exp(-1 / days);

/** Fitness and fatigue at the end of one day. */
export interface LoadState {
  /** Chronic training load (fitness): 42-day exponentially weighted average of daily TSS. */
  readonly ctl: number;
  /** Acute training load (fatigue): the 7-day one. */
  readonly atl: number;
}

/** One day of the performance management chart. */
export interface FitnessDay extends LoadState {
  /** The day's TSS (0 without rides). */
  readonly tss: number;
  /** Form (training stress balance): `ctl − atl` at the end of the day. */
  readonly form: number;
  /** Ramp rate: fitness gained over the last 7 days, `ctl − ctl` of 7 days before. */
  readonly ramp: number;
}

/**
 * `state` carried `days` days further without training: each average keeps `e^(−days/τ)`.
 */
export function decayLoad(state: LoadState, days: number): LoadState {
  if (days < 0) throw new RangeError('days must be ≥ 0');
  return {
    ctl: state.ctl * Math.exp(-days / CTL_DAYS),
    atl: state.atl * Math.exp(-days / ATL_DAYS),
  };
}

/** The state at the end of a day with `tss`, from the state at the end of the day before. */
export function nextLoad(previous: LoadState, tss: number): LoadState {
  return {
    ctl: previous.ctl + (tss - previous.ctl) * loadGain(CTL_DAYS),
    atl: previous.atl + (tss - previous.atl) * loadGain(ATL_DAYS),
  };
}

/**
 * The performance management chart of consecutive days: `dailyTss[i]` is day i's total TSS
 * (0 or NaN for a day without rides), `before` the state at the end of the day before the
 * first (zero for a rider's first day), and `rampBase` the fitness at the end of each of the
 * `RAMP_DAYS` days before the first, oldest first (missing days count as `before.ctl`
 * decayed back: pass them when the range starts inside the rider's history).
 */
export function fitnessSeries(
  dailyTss: ArrayLike<number>,
  before: LoadState = { ctl: 0, atl: 0 },
  rampBase: readonly number[] = [],
): FitnessDay[] {
  const days: FitnessDay[] = [];
  const history = rampBase.slice(-RAMP_DAYS);
  while (history.length < RAMP_DAYS) history.unshift(history[0] ?? before.ctl);
  let state = before;
  for (let i = 0; i < dailyTss.length; i++) {
    const raw = dailyTss[i]!;
    const tss = Number.isFinite(raw) ? raw : 0;
    state = nextLoad(state, tss);
    const weekAgo = i >= RAMP_DAYS ? days[i - RAMP_DAYS]!.ctl : history[i]!;
    days.push({
      tss,
      ctl: state.ctl,
      atl: state.atl,
      form: state.ctl - state.atl,
      ramp: state.ctl - weekAgo,
    });
  }
  return days;
}

/** The durations of the best-power efforts a rider's bests list: 5 s, 1, 5, 20, 60 min. */
export const BEST_POWER_DURATIONS_S = [5, 60, 300, 1200, 3600] as const;
/** The distances of the fastest-time efforts: 10, 20, 40 km. */
export const BEST_DISTANCES_M = [10_000, 20_000, 40_000] as const;

/** No best power above this (W, over any duration): no human holds more, even for 5 s. */
export const BEST_POWER_MAX_W = 2500;
/** No distance is ridden faster than this (s per km): 10 km in 540 s is 66.7 km/h. */
export const BEST_DISTANCE_MIN_S_PER_KM = 54;

/**
 * Best average power over each duration, from a ride's mean-max curve (`curve[d − 1]` is the
 * best average over `d` s); `undefined` where the ride is shorter than the duration, and
 * where the value is above `BEST_POWER_MAX_W` (a glitch no rider produced).
 */
export function bestPowers(
  curve: ArrayLike<number> | null | undefined,
  durationsS: readonly number[] = BEST_POWER_DURATIONS_S,
): (number | undefined)[] {
  return durationsS.map((d) => {
    if (!(d >= 1) || !curve || curve.length < d) return undefined;
    const value = curve[d - 1]!;
    return Number.isFinite(value) && value <= BEST_POWER_MAX_W ? value : undefined;
  });
}

/**
 * The fastest time over each distance, exactly, from a ride's distance stream: `clock[i]` is
 * the time (s) of sample i and `distance[i]` the metres ridden by then; between samples both
 * move linearly. For each target `D` the shortest `t(b) − t(a)` with `d(b) − d(a) = D` is
 * found with two pointers (O(n) per distance): the shortest window always starts or ends at
 * a sample (the time it takes is piecewise linear in its start), so both are tried, the
 * other end interpolated. Samples with a missing clock or distance are skipped; a distance
 * that goes back (a device's reset) is held at its highest so far. `undefined` where the
 * ride is shorter than the distance. Exact for any input: a personal best also needs
 * `BEST_DISTANCE_MIN_S_PER_KM` (the API's `rideBests` and `storeBests` hold it to that).
 */
export function fastestDistances(
  clock: ArrayLike<number>,
  distance: ArrayLike<number>,
  distancesM: readonly number[] = BEST_DISTANCES_M,
): (number | undefined)[] {
  const t: number[] = [];
  const d: number[] = [];
  const n0 = Math.min(clock.length, distance.length);
  let highest = -Infinity;
  for (let i = 0; i < n0; i++) {
    const time = clock[i]!;
    const metres = distance[i]!;
    if (!Number.isFinite(time) || !Number.isFinite(metres)) continue;
    if (t.length > 0 && time < t[t.length - 1]!) continue;
    highest = Math.max(highest, metres);
    t.push(time);
    d.push(highest);
  }
  const n = t.length;
  // Time at which the ride reached `metres`, searching forward from sample `k` (d[k] ≤ metres).
  const timeAt = (k: number, metres: number) => {
    if (k + 1 >= n || d[k]! >= metres) return t[k]!;
    const span = d[k + 1]! - d[k]!;
    return t[k]! + ((t[k + 1]! - t[k]!) * (metres - d[k]!)) / span;
  };
  return distancesM.map((target) => {
    if (!(target > 0) || n < 2 || d[n - 1]! - d[0]! < target) return undefined;
    let best = Infinity;
    // Windows ending at a sample: the latest start a with d(b) − d(a) ≥ target.
    let a = 0;
    for (let b = 0; b < n; b++) {
      const from = d[b]! - target;
      if (from < d[0]!) continue;
      while (a + 1 < n && d[a + 1]! <= from) a++;
      // d[a] ≤ from < d[a + 1]: the start lies in [a, a + 1].
      best = Math.min(best, t[b]! - timeAt(a, from));
    }
    // Windows starting at a sample: the earliest end with d(b) − d(a) ≥ target.
    let b = 0;
    for (let s = 0; s < n; s++) {
      const to = d[s]! + target;
      if (to > d[n - 1]!) break;
      while (b + 1 < n && d[b + 1]! < to) b++;
      // d[b] < to ≤ d[b + 1] (or d[b] = to when b is the first sample at it).
      const end = d[b]! >= to ? t[b]! : timeAt(b, to);
      best = Math.min(best, end - t[s]!);
    }
    return Number.isFinite(best) ? best : undefined;
  });
}
