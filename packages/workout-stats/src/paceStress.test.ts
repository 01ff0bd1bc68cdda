import { describe, expect, it } from 'vitest';
import { normalizedGradedSpeed, paceStressScore, runningCost } from './paceStress.ts';

describe('running pace stress (rTSS)', () => {
  it('scores an hour at threshold pace 100, and half an hour at 90 % of its speed 40.5', () => {
    const speed = new Float64Array(3600).fill(4);
    const ngs = normalizedGradedSpeed(speed)!;
    expect(ngs).toBeCloseTo(4, 12);
    expect(paceStressScore(3600, ngs, 4)).toBeCloseTo(100, 9);
    expect(paceStressScore(1800, 3.6, 4)).toBeCloseTo(0.5 * 0.81 * 100, 9);
    expect(paceStressScore(1800, 3.6, 0)).toBeUndefined();
  });

  it('weighs a grade by Minetti’s cost of running, cheapest downhill near -20 %, clamped at ±45 %', () => {
    // The published polynomial written out term by term (the oracle), at a few grades.
    const minetti = (i: number) =>
      155.4 * i ** 5 - 30.4 * i ** 4 - 43.3 * i ** 3 + 46.3 * i ** 2 + 19.5 * i + 3.6;
    for (const grade of [-0.45, -0.2, -0.05, 0, 0.03, 0.1, 0.3, 0.45])
      expect(runningCost(grade)).toBeCloseTo(minetti(grade), 10);
    expect(runningCost(0.6)).toBe(runningCost(0.45));
    expect(runningCost(Number.NaN)).toBe(3.6);
    let cheapest = 0;
    for (let g = -0.45; g <= 0.45; g += 0.01)
      if (runningCost(g) < runningCost(cheapest)) cheapest = g;
    expect(cheapest).toBeGreaterThan(-0.25);
    expect(cheapest).toBeLessThan(-0.15);
    // The same speed up a 10 % slope is a harder run than on the flat: more stress.
    const speed = new Float64Array(600).fill(3);
    const flat = normalizedGradedSpeed(speed)!;
    const uphill = normalizedGradedSpeed(speed, new Float64Array(600).fill(10))!;
    expect(uphill / flat).toBeCloseTo(runningCost(0.1) / 3.6, 12);
  });

  it('counts stops inside the timer as zero speed, as NP counts coasting', () => {
    const speed = new Float64Array(120).fill(4);
    speed.fill(0, 60);
    // Written out: 30 s means ramp down from 4 to 0 over the stop's first 30 s.
    let fourth = 0;
    for (let end = 29; end < 120; end++) {
      let sum = 0;
      for (let k = end - 29; k <= end; k++) sum += speed[k]!;
      fourth += (sum / 30) ** 4;
    }
    expect(normalizedGradedSpeed(speed)).toBeCloseTo((fourth / 91) ** 0.25, 12);
    expect(normalizedGradedSpeed(speed.subarray(0, 29))).toBeUndefined();
  });
});
