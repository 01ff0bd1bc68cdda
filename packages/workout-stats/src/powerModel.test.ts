import { describe, expect, it } from 'vitest';
import {
  EFTP_SHARE_OF_20_MIN,
  fitPowerModel,
  fitTwoParameterModel,
  powerModelAt,
} from './powerModel.ts';
import { seededRandom } from './simulate.ts';

// A mean-max curve that follows the 3-parameter model exactly, `curve[d - 1]` = P(d).
function modelCurve(cpW: number, wPrimeJ: number, pmaxW: number, seconds = 3600): Float64Array {
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

  it('gives eFTP as 95 % of the model’s 20-minute power', () => {
    const model = fitPowerModel(modelCurve(250, 20000, 1000))!;
    const twentyMinutes = 250 + 20000 / (1200 + 20000 / 750);
    within(model.eftpW, EFTP_SHARE_OF_20_MIN * twentyMinutes, 0.005);
    expect(model.eftpW).toBeGreaterThan(245);
    expect(model.eftpW).toBeLessThan(255);
  });

  it('fits the envelope when many durations are sub-maximal', () => {
    const random = seededRandom(11);
    // Half the durations 5-30 % below what the rider can do (efforts not ridden all out).
    const curve = modelCurve(270, 22000, 1100).map((watts) =>
      random() < 0.5 ? watts * (0.95 - random() * 0.25) : watts,
    );
    const model = fitPowerModel(curve)!;
    // The fit reads the envelope, where a lowered duration takes the next one's power
    // (slightly under the model at short durations): W′ and Pmax move a little more than CP.
    within(model.cpW, 270, 0.01);
    within(model.wPrimeJ, 22000, 0.03);
    within(model.pmaxW, 1100, 0.03);
    expect(model.pointsUsed).toBeLessThan(67);
  });

  it('sets sub-maximal long efforts aside rather than lowering CP', () => {
    // The 10-20 minute bests 15 % under the model: the rider never went hard that long.
    const curve = modelCurve(300, 18000, 1200).map((watts, i) => (i >= 599 ? watts * 0.85 : watts));
    const model = fitPowerModel(curve)!;
    within(model.cpW, 300, 0.01);
    expect(model.fittedTo).toBeLessThan(600);
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
