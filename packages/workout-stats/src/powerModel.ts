/** Shortest duration the 3-parameter fit reads from a mean-max curve, in seconds. */
export const POWER_MODEL_FROM_S = 2;
/** Longest duration the 3-parameter fit reads, in seconds (20 minutes). */
export const POWER_MODEL_TO_S = 1200;
/** Durations of the 2-parameter (work) fit, in seconds: 3 to 20 minutes. */
export const WORK_MODEL_FROM_S = 180;
export const WORK_MODEL_TO_S = 1200;
/** eFTP as a share of the model's 20-minute power (Allen & Coggan's 95 % rule), capped at CP. */
export const EFTP_SHARE_OF_20_MIN = 0.95;
/** The checks of `checkPowerModel`: Pmax at most this many times the best 1 s power. */
export const PMAX_MAX_SHARE_OF_1S = 1.3;
/** W' a rider can have, J: 3 to 60 kJ. */
export const W_PRIME_MIN_J = 3_000;
export const W_PRIME_MAX_J = 60_000;

// Sampled durations grow by this ratio, so each decade of durations weighs the same.
const DURATION_RATIO = 1.1;
// Fewest points a fit stands on; the 3-parameter fit also needs an effort of 3 min or more,
// without which CP and W' cannot be told apart.
const MIN_POINTS_3P = 8;
const MIN_LONGEST_3P_S = 180;
const MIN_POINTS_2P = 3;
// Bounds of the model's time constant k = W' / (Pmax - CP), in seconds.
const K_MIN = 0.05;
const K_MAX = 2000;
const K_GRID = 64;
const GOLDEN_STEPS = 60;

/** The 3-parameter critical power model fitted to a power curve. */
export interface PowerModel {
  /** Critical power, W: the asymptote of the curve. */
  readonly cpW: number;
  /** W' (anaerobic work capacity), J. */
  readonly wPrimeJ: number;
  /** The model's power at a duration of 0, W. */
  readonly pmaxW: number;
  /** Estimated FTP, W: 95 % of the model's 20-minute power, never above CP. */
  readonly eftpW: number;
  /** Durations of the curve the fit used. */
  readonly pointsUsed: number;
  /** Shortest and longest durations used, seconds. */
  readonly fittedFrom: number;
  readonly fittedTo: number;
}

/** The 2-parameter (work) model fitted to 3-20 minute efforts. */
export interface TwoParameterModel {
  readonly cpW: number;
  readonly wPrimeJ: number;
  readonly pointsUsed: number;
  readonly fittedFrom: number;
  readonly fittedTo: number;
}

/** Options of the power-model fits. */
export interface PowerModelOptions {
  /** Shortest duration read, seconds. */
  readonly fromS?: number;
  /** Longest duration read, seconds. */
  readonly toS?: number;
}

interface Points {
  readonly t: Float64Array;
  readonly p: Float64Array;
}

/**
 * The durations from `from` to `to` (both included when the curve reaches them), growing
 * by 10 %, with the best power over *at least* each duration (the envelope: a raw curve
 * can rise with duration). Missing values (NaN, -Infinity of a merge, 0) are left out.
 */
function samplePoints(curve: ArrayLike<number>, from: number, to: number): Points {
  const last = Math.min(Math.floor(to), curve.length);
  const durations: number[] = [];
  for (let d = Math.max(1, Math.floor(from)); d <= last;) {
    durations.push(d);
    const next = Math.round(d * DURATION_RATIO);
    d = next > d ? next : d + 1;
  }
  if (durations.length > 0 && durations[durations.length - 1] !== last) durations.push(last);
  // Running maximum from the end of the curve down to each sampled duration.
  const t: number[] = [];
  const p: number[] = [];
  let best = -Infinity;
  let i = curve.length - 1;
  for (let j = durations.length - 1; j >= 0; j--) {
    const d = durations[j]!;
    for (; i >= d - 1; i--) {
      const value = curve[i]!;
      if (Number.isFinite(value) && value > best) best = value;
    }
    if (best > 0) {
      t.push(d);
      p.push(best);
    }
  }
  return { t: Float64Array.from(t.reverse()), p: Float64Array.from(p.reverse()) };
}

interface LinearFit {
  readonly cp: number;
  readonly wPrime: number;
  readonly error: number;
}

/**
 * For a fixed k, P = CP + W'·x with x = 1/(t + k) is linear in CP and W': weighted least
 * squares in closed form, weights 1/P² (relative errors, so 1 200 W at 2 s does not
 * outweigh 250 W at 20 min).
 */
function fitForK(points: Points, active: Uint8Array, k: number): LinearFit {
  let sw = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < points.t.length; i++) {
    if (!active[i]) continue;
    const y = points.p[i]!;
    const w = 1 / (y * y);
    const x = 1 / (points.t[i]! + k);
    sw += w;
    sx += w * x;
    sy += w * y;
    sxx += w * x * x;
    sxy += w * x * y;
  }
  const det = sw * sxx - sx * sx;
  const wPrime = det > 0 ? (sw * sxy - sx * sy) / det : 0;
  const cp = (sy - wPrime * sx) / sw;
  let error = 0;
  for (let i = 0; i < points.t.length; i++) {
    if (!active[i]) continue;
    const y = points.p[i]!;
    const r = (cp + wPrime / (points.t[i]! + k) - y) / y;
    error += r * r;
  }
  return { cp, wPrime, error };
}

/** The best k: a log-spaced grid, then golden-section search around the grid's best. */
function bestK(points: Points, active: Uint8Array): number {
  const logMin = Math.log(K_MIN);
  const step = (Math.log(K_MAX) - logMin) / (K_GRID - 1);
  let bestIndex = 0;
  let bestError = Infinity;
  for (let g = 0; g < K_GRID; g++) {
    const error = fitForK(points, active, Math.exp(logMin + g * step)).error;
    if (error < bestError) {
      bestError = error;
      bestIndex = g;
    }
  }
  let lo = logMin + Math.max(0, bestIndex - 1) * step;
  let hi = logMin + Math.min(K_GRID - 1, bestIndex + 1) * step;
  const ratio = (Math.sqrt(5) - 1) / 2;
  const errorAt = (logK: number) => fitForK(points, active, Math.exp(logK)).error;
  let a = hi - ratio * (hi - lo);
  let b = lo + ratio * (hi - lo);
  let fa = errorAt(a);
  let fb = errorAt(b);
  for (let s = 0; s < GOLDEN_STEPS; s++) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - ratio * (hi - lo);
      fa = errorAt(a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + ratio * (hi - lo);
      fb = errorAt(b);
    }
  }
  return Math.exp((lo + hi) / 2);
}

function activeRange(points: Points, active: Uint8Array): [number, number, number] {
  let from = Infinity;
  let to = -Infinity;
  let count = 0;
  for (let i = 0; i < points.t.length; i++) {
    if (!active[i]) continue;
    from = Math.min(from, points.t[i]!);
    to = Math.max(to, points.t[i]!);
    count++;
  }
  return [from, to, count];
}

/**
 * The model's power at a duration, W: `W' / (t + W' / (Pmax - CP)) + CP` (Morton 1996).
 *
 * @example
 * powerModelAt({ cpW: 250, wPrimeJ: 20000, pmaxW: 1250 }, 0); // 1250
 */
export function powerModelAt(
  model: Pick<PowerModel, 'cpW' | 'wPrimeJ' | 'pmaxW'>,
  durationS: number,
): number {
  const k = model.wPrimeJ / (model.pmaxW - model.cpW);
  return model.wPrimeJ / (durationS + k) + model.cpW;
}

/**
 * Fits Morton's 3-parameter critical power model, P(t) = W'/(t + W'/(Pmax − CP)) + CP, to a
 * mean-max power curve (`curve[d - 1]` = best watts over `d` s, as `meanMaxCurve` gives).
 *
 * @remarks
 * Reads the envelope of the curve (best power over at least `d` s) at durations from 2 s to
 * 20 min growing by 10 % (d, then round(1.1·d), or d + 1 where that does not grow; the
 * last duration always), and minimises the sum of squared relative errors over all of them:
 * for a fixed k = W'/(Pmax − CP) the model is linear in CP and W' (closed form), so k is
 * found by a log grid and golden-section search. No point is set aside: whether the fit
 * describes the rider is `checkPowerModel`'s question. eFTP is 95 % of the model's
 * 20-minute power (Allen & Coggan's 20-minute test rule read off the fitted curve), capped
 * at CP: an FTP is never above the power the model says can be held indefinitely.
 * `null` when fewer than 8 durations exist, the curve is shorter than 3 minutes, or the fit
 * is not physical (CP, W' or Pmax − CP not positive). Use `fitRiderPowerModel` for a fit
 * with its checks and the reason when there is none.
 *
 * @example
 * const model = fitPowerModel(meanMaxCurve(power)); // { cpW, wPrimeJ, pmaxW, eftpW, ... }
 */
export function fitPowerModel(
  curve: ArrayLike<number>,
  options: PowerModelOptions = {},
): PowerModel | null {
  const points = samplePoints(
    curve,
    options.fromS ?? POWER_MODEL_FROM_S,
    options.toS ?? POWER_MODEL_TO_S,
  );
  const active = new Uint8Array(points.t.length).fill(1);
  if (points.t.length < MIN_POINTS_3P || points.t[points.t.length - 1]! < MIN_LONGEST_3P_S)
    return null;
  const k = bestK(points, active);
  const fit = fitForK(points, active, k);
  if (!(fit.cp > 0 && fit.wPrime > 0)) return null;
  const [fittedFrom, fittedTo, pointsUsed] = activeRange(points, active);
  const pmaxW = fit.cp + fit.wPrime / k;
  const twentyMinutes = fit.cp + fit.wPrime / (1200 + k);
  return {
    cpW: fit.cp,
    wPrimeJ: fit.wPrime,
    pmaxW,
    eftpW: Math.min(fit.cp, EFTP_SHARE_OF_20_MIN * twentyMinutes),
    pointsUsed,
    fittedFrom,
    fittedTo,
  };
}

/** Why a window has no power model. */
export type PowerModelReason = 'too_little_data' | 'no_hard_efforts' | 'implausible';

/** A bound a fit broke (see `checkPowerModel`). */
export type PowerModelCheck =
  'pmax_above_1s' | 'pmax_below_5s' | 'cp_above_10min' | 'cp_below_60min' | 'w_prime_range';

/** The rider's bests a fit is checked against, W (the curve's envelope; undefined beyond it). */
export interface PowerModelBounds {
  readonly best1sW: number | undefined;
  readonly best5sW: number | undefined;
  readonly best10minW: number | undefined;
  readonly best60minW: number | undefined;
}

/** A fit with its checks: the model, or `null` with the reason. */
export interface RiderPowerModel {
  /** The model when it passed every check. */
  readonly model: PowerModel | null;
  /** Why there is no model; `null` when there is one. */
  readonly reason: PowerModelReason | null;
  /** The fit before its checks (`null` when none could be made). */
  readonly fit: PowerModel | null;
  /** The checks the fit failed. */
  readonly failed: readonly PowerModelCheck[];
  readonly bounds: PowerModelBounds;
}

/** The best power over at least `d` s (the envelope at `d`); undefined when the curve is shorter. */
function bestOver(curve: ArrayLike<number>, d: number): number | undefined {
  let best = -Infinity;
  for (let i = d - 1; i < curve.length; i++) {
    const value = curve[i]!;
    if (Number.isFinite(value) && value > best) best = value;
  }
  return best > 0 ? best : undefined;
}

/**
 * The checks of a fitted model against the bests of the curve it was fitted to.
 *
 * @remarks
 * A model describes the rider when its Pmax lies in the rider's observed peak range (at most
 * 1.3 × the best 1 s power, at least the best 5 s power), its CP between the best 60-minute
 * power (when the curve reaches an hour) and the best 10-minute power, and its W' between
 * 3 and 60 kJ. A CP below what the window held for an hour means its 2-20 minute bests
 * were not hard efforts: the model's asymptote came from efforts the rider could have
 * ridden longer.
 */
export function checkPowerModel(
  model: Pick<PowerModel, 'cpW' | 'wPrimeJ' | 'pmaxW'>,
  curve: ArrayLike<number>,
): { readonly failed: PowerModelCheck[]; readonly bounds: PowerModelBounds } {
  const bounds: PowerModelBounds = {
    best1sW: bestOver(curve, 1),
    best5sW: bestOver(curve, 5),
    best10minW: bestOver(curve, 600),
    best60minW: bestOver(curve, 3600),
  };
  const failed: PowerModelCheck[] = [];
  if (bounds.best1sW !== undefined && model.pmaxW > PMAX_MAX_SHARE_OF_1S * bounds.best1sW)
    failed.push('pmax_above_1s');
  if (bounds.best5sW !== undefined && model.pmaxW < bounds.best5sW) failed.push('pmax_below_5s');
  if (bounds.best10minW !== undefined && model.cpW > bounds.best10minW)
    failed.push('cp_above_10min');
  if (bounds.best60minW !== undefined && model.cpW < bounds.best60minW)
    failed.push('cp_below_60min');
  if (!(model.wPrimeJ >= W_PRIME_MIN_J && model.wPrimeJ <= W_PRIME_MAX_J))
    failed.push('w_prime_range');
  return { failed, bounds };
}

/**
 * `fitPowerModel` with its checks (`checkPowerModel`): the model when it describes the
 * rider, else `null` and the reason.
 *
 * @remarks
 * Reasons: `too_little_data` (no fit: under 8 durations or no 3-minute effort; a window
 * whose curve does not reach 10 minutes cannot be checked against a 10-minute best either),
 * `no_hard_efforts` (the fit's CP is below the window's best hour: its 2-20 minute bests
 * were not hard efforts, as on a long endurance ride), `implausible` (any other bound
 * broken). The checks follow intervals.icu's description of its Morton 3-parameter fit (a
 * maximal effort of about 5 s, one of 3-5 minutes and one of 10-30 minutes) and the
 * physiological range of W' that GoldenCheetah's CP plot and WKO's model accept.
 *
 * @example
 * const { model, reason } = fitRiderPowerModel(curve); // model null with reason 'no_hard_efforts'
 */
export function fitRiderPowerModel(
  curve: ArrayLike<number>,
  options: PowerModelOptions = {},
): RiderPowerModel {
  const fit = curve.length >= 600 ? fitPowerModel(curve, options) : null;
  if (!fit)
    return {
      model: null,
      reason: 'too_little_data',
      fit,
      failed: [],
      bounds: checkPowerModel({ cpW: 0, wPrimeJ: 0, pmaxW: 0 }, curve).bounds,
    };
  const { failed, bounds } = checkPowerModel(fit, curve);
  if (failed.length === 0) return { model: fit, reason: null, fit, failed, bounds };
  const reason: PowerModelReason = failed.includes('cp_below_60min')
    ? 'no_hard_efforts'
    : 'implausible';
  return { model: null, reason, fit, failed, bounds };
}

/**
 * Fits the 2-parameter critical power model as work against time, work = W' + CP·t
 * (Monod & Scherrer 1965), by ordinary least squares on the curve's envelope at durations
 * from 3 to 20 minutes growing by 10 %.
 *
 * @remarks
 * `null` with fewer than 3 durations, when the longest is less than twice the shortest
 * (the slope is then not determined), or when CP or W' is not positive.
 *
 * @example
 * // 400 W for 3 min and 300 W for 12 min: CP = 266.7 W, W' = 24 kJ.
 */
export function fitTwoParameterModel(
  curve: ArrayLike<number>,
  options: PowerModelOptions = {},
): TwoParameterModel | null {
  const { t, p } = samplePoints(
    curve,
    options.fromS ?? WORK_MODEL_FROM_S,
    options.toS ?? WORK_MODEL_TO_S,
  );
  const n = t.length;
  if (n < MIN_POINTS_2P || t[n - 1]! < 2 * t[0]!) return null;
  let st = 0;
  let sw = 0;
  let stt = 0;
  let stw = 0;
  for (let i = 0; i < n; i++) {
    const work = p[i]! * t[i]!;
    st += t[i]!;
    sw += work;
    stt += t[i]! * t[i]!;
    stw += t[i]! * work;
  }
  const cpW = (n * stw - st * sw) / (n * stt - st * st);
  const wPrimeJ = (sw - cpW * st) / n;
  if (!(cpW > 0 && wPrimeJ > 0)) return null;
  return { cpW, wPrimeJ, pointsUsed: n, fittedFrom: t[0]!, fittedTo: t[n - 1]! };
}
