import { describe, expect, it } from 'vitest';
import {
  EFTP_SHARE_OF_20_MIN,
  checkPowerModel,
  fitPowerModel,
  fitRiderPowerModel,
  fitTwoParameterModel,
  powerModelAt,
} from './powerModel.ts';

// A mean-max curve that follows the 3-parameter model exactly, `curve[d - 1]` = P(d).
function modelCurve(cpW: number, wPrimeJ: number, pmaxW: number, seconds = 1800): Float64Array {
  return Float64Array.from({ length: seconds }, (_, i) =>
    powerModelAt({ cpW, wPrimeJ, pmaxW }, i + 1),
  );
}

const within = (actual: number, expected: number, share: number) =>
  expect(Math.abs(actual - expected) / expected).toBeLessThanOrEqual(share);

describe('fitPowerModel', () => {
  it.each([
    [250, 20000, 1000],
    [320, 15000, 1500],
    [180, 28000, 800],
  ])('recovers CP %d W, W′ %d J, Pmax %d W from an exact curve within 1 %', (cp, wPrime, pmax) => {
    const model = fitPowerModel(modelCurve(cp, wPrime, pmax))!;
    within(model.cpW, cp, 0.01);
    within(model.wPrimeJ, wPrime, 0.01);
    within(model.pmaxW, pmax, 0.01);
    expect(model.pointsUsed).toBeGreaterThan(50);
    expect(model.fittedFrom).toBe(2);
    expect(model.fittedTo).toBe(1200);
  });

  it('gives eFTP as 95 % of the model’s 20-minute power, capped at CP', () => {
    // A small W′: 95 % of the 20-minute power is below CP.
    const low = fitPowerModel(modelCurve(250, 8000, 1000))!;
    const k = 8000 / 750;
    within(low.eftpW, EFTP_SHARE_OF_20_MIN * (250 + 8000 / (1200 + k)), 0.005);
    expect(low.eftpW).toBeLessThan(low.cpW);
    // A large W′: 95 % of 266 W is 253 W, above CP, so eFTP is CP.
    const high = fitPowerModel(modelCurve(250, 20000, 1000))!;
    expect(high.eftpW).toBe(high.cpW);
  });

  it('returns null with too little data', () => {
    expect(fitPowerModel(new Float64Array(0))).toBeNull();
    expect(fitPowerModel(modelCurve(250, 20000, 1000, 6))).toBeNull(); // 6 durations
    expect(fitPowerModel(modelCurve(250, 20000, 1000, 150))).toBeNull(); // no 3-minute effort
    expect(fitPowerModel(new Float64Array(3600).fill(Number.NaN))).toBeNull();
  });

  it('returns null for a curve no hyperbola rises to (flat power)', () => {
    expect(fitPowerModel(new Float64Array(3600).fill(200))).toBeNull();
  });
});

describe('fitRiderPowerModel', () => {
  it('keeps a model inside the rider’s bests', () => {
    const curve = modelCurve(250, 20000, 1000);
    const { model, reason, failed } = fitRiderPowerModel(curve);
    expect(reason).toBeNull();
    expect(failed).toEqual([]);
    within(model!.cpW, 250, 0.01);
  });

  it('says a window without hard efforts has none (CP below the best hour)', () => {
    // Hard efforts up to 10 min, then an hour ridden at 270 W: above the fit's CP of 250 W.
    const curve = modelCurve(250, 20000, 1000, 7200).map((watts, i) =>
      i >= 600 ? Math.max(watts * 0.9, i < 3600 ? 270 : 0) : watts,
    );
    const { model, reason, failed, fit } = fitRiderPowerModel(curve);
    expect(fit).not.toBeNull();
    expect(fit!.cpW).toBeLessThan(270);
    expect(model).toBeNull();
    expect(reason).toBe('no_hard_efforts');
    expect(failed).toContain('cp_below_60min');
  });

  it('rejects a Pmax far above the best second and a W′ out of range', () => {
    const curve = modelCurve(250, 20000, 1000);
    const checks = checkPowerModel({ cpW: 250, wPrimeJ: 2000, pmaxW: 5000 }, curve);
    expect(checks.failed).toEqual(['pmax_above_1s', 'w_prime_range']);
    expect(checks.bounds.best1sW).toBeCloseTo(
      powerModelAt({ cpW: 250, wPrimeJ: 20000, pmaxW: 1000 }, 1),
      9,
    );
    expect(checkPowerModel({ cpW: 400, wPrimeJ: 20000, pmaxW: 900 }, curve).failed).toEqual([
      'cp_above_10min',
    ]);
    expect(checkPowerModel({ cpW: 250, wPrimeJ: 20000, pmaxW: 700 }, curve).failed).toEqual([
      'pmax_below_5s',
    ]);
  });

  it('needs 10 minutes of curve and a 3-minute effort', () => {
    expect(fitRiderPowerModel(modelCurve(250, 20000, 1000, 500)).reason).toBe('too_little_data');
    expect(fitRiderPowerModel(new Float64Array(0)).reason).toBe('too_little_data');
  });
});

describe('fitTwoParameterModel', () => {
  it('recovers the worked example: 400 W for 3 min and 300 W for 12 min', () => {
    // By hand: work 72 kJ at 180 s and 216 kJ at 720 s; CP = (216000 − 72000) / (720 − 180)
    // = 266.67 W, W′ = 72000 − 266.67 × 180 = 24000 J. A curve on that model's line:
    const curve = Float64Array.from({ length: 1800 }, (_, i) => 800 / 3 + 24000 / (i + 1));
    expect(curve[179]).toBeCloseTo(400, 9);
    expect(curve[719]).toBeCloseTo(300, 9);
    const model = fitTwoParameterModel(curve)!;
    expect(model.cpW).toBeCloseTo(266.667, 2);
    expect(model.wPrimeJ).toBeCloseTo(24000, 0);
    expect(model.fittedFrom).toBe(180);
    expect(model.fittedTo).toBe(1200);
  });

  it('returns null without efforts from 3 to at least 6 minutes', () => {
    const curve = Float64Array.from({ length: 300 }, (_, i) => 250 + 20000 / (i + 1));
    expect(fitTwoParameterModel(curve)).toBeNull();
    expect(fitTwoParameterModel(curve.subarray(0, 100))).toBeNull();
  });
});
