import { describe, expect, it } from 'vitest';
import { bandScale, linearScale, logScale, roundStep, roundTicks } from './scales.ts';

describe('chart scales', () => {
  it('picks round steps of 1, 2 or 5 times a power of ten', () => {
    expect(roundStep(0, 100, 10)).toBe(10);
    expect(roundStep(0, 100, 5)).toBe(20);
    expect(roundStep(0, 1, 5)).toBe(0.2);
    expect(roundStep(0, 347, 3)).toBe(100);
    expect(roundStep(0, 347, 5)).toBe(50);
    expect(roundStep(0, 0.037, 4)).toBe(0.01);
  });

  it('gives round ticks inside the domain, without floating-point noise', () => {
    expect(roundTicks(0, 1, 10)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    expect(roundTicks(3, 97, 5)).toEqual([20, 40, 60, 80]);
    expect(roundTicks(-35, 42, 4)).toEqual([-20, 0, 20, 40]);
    expect(roundTicks(97, 3, 5)).toEqual([20, 40, 60, 80]);
    expect(roundTicks(5, 5, 5)).toEqual([5]);
    expect(roundTicks(0, Number.NaN, 5)).toEqual([]);
    expect(roundTicks(0, 10, 0)).toEqual([]);
  });

  it('maps linearly both ways, a flipped range (a value axis) too', () => {
    const y = linearScale({ domain: [0, 200], range: [100, 0] });
    expect(y(0)).toBe(100);
    expect(y(200)).toBe(0);
    expect(y(50)).toBe(75);
    expect(y.invert(75)).toBe(50);
    expect(y.range()).toEqual([100, 0]);
    // One value: the middle of the range, not NaN.
    expect(linearScale({ domain: [4, 4], range: [0, 10] })(4)).toBe(5);
  });

  it('widens a nice domain to round values at both ends', () => {
    expect(linearScale({ domain: [0, 347 * 1.05], range: [0, 1], nice: true }).domain()).toEqual([
      0, 400,
    ]);
    expect(linearScale({ domain: [-12.5, 87.2], range: [0, 1], nice: true }).domain()).toEqual([
      -20, 90,
    ]);
    expect(linearScale({ domain: [0.013, 0.988], range: [0, 1], nice: true }).domain()).toEqual([
      0, 1,
    ]);
    const y = linearScale({ domain: [0, 1234], range: [200, 0], nice: true });
    expect(y.domain()).toEqual([0, 1300]);
    expect(y.ticks(5)).toEqual([0, 200, 400, 600, 800, 1000, 1200]);
  });

  it('maps durations on a log axis and back', () => {
    const x = logScale({ domain: [1, 10_000], range: [0, 400] });
    expect(x(1)).toBe(0);
    expect(x(100)).toBeCloseTo(200, 9);
    expect(x(10_000)).toBeCloseTo(400, 9);
    expect(x.invert(300)).toBeCloseTo(1000, 6);
    expect(x.ticks()).toEqual([1, 10, 100, 1000, 10_000]);
  });

  it('lays bands out with their gaps, centred, and knows no stranger', () => {
    const x = bandScale({ domain: ['a', 'b', 'c', 'd'], range: [0, 420], padding: 0.2 });
    // 4 bands, 3 inner gaps and an outer gap at each end of 0.2 steps: 4.2 steps.
    expect(x.bandwidth()).toBeCloseTo(80, 9);
    expect(x('a')).toBeCloseTo(20, 9);
    expect(x('d')).toBeCloseTo(320, 9);
    expect(x('d')! + x.bandwidth() + 20).toBeCloseTo(420, 9);
    expect(x('z')).toBeUndefined();
    expect(x.domain()).toEqual(['a', 'b', 'c', 'd']);
    expect(bandScale({ domain: [], range: [0, 100] }).bandwidth()).toBe(100);
  });
});
