import { describe, expect, it } from 'vitest';
import { intensityFactor, normalizedPower, trainingStressScore } from './normalizedPower.ts';
import { rollingAverage } from './rollingAverage.ts';

describe('rollingAverage', () => {
  it('averages what exists at the start, then a full window', () => {
    expect(Array.from(rollingAverage([100, 200, 300, 400], 2))).toEqual([100, 150, 250, 350]);
  });
  it('rejects a window that is not a positive integer', () => {
    expect(() => rollingAverage([1], 0)).toThrow(RangeError);
  });
});

describe('normalizedPower', () => {
  it('equals the power of a steady ride', () => {
    expect(normalizedPower(new Array<number>(3600).fill(250))).toBeCloseTo(250, 9);
  });
  it('matches a hand-computed vector', () => {
    // 30 s at 0 W then 30 s at 300 W: 31 rolling means, 0, 10, 20, ..., 300 W.
    const series = [...new Array<number>(30).fill(0), ...new Array<number>(30).fill(300)];
    let sum = 0;
    for (let k = 0; k <= 30; k++) sum += (k * 10) ** 4;
    expect(normalizedPower(series)).toBeCloseTo((sum / 31) ** 0.25, 9);
  });
  it('is at least the average power for a non-negative series', () => {
    const series = Array.from({ length: 600 }, (_, i) => (i % 60 < 20 ? 400 : 100));
    const avg = series.reduce((a, b) => a + b, 0) / series.length;
    expect(normalizedPower(series)!).toBeGreaterThanOrEqual(avg);
  });
  it('is undefined for rides under 30 s', () => {
    expect(normalizedPower([300, 300])).toBeUndefined();
  });
});

describe('IF and TSS', () => {
  it('gives 100 TSS for one hour at FTP', () => {
    expect(intensityFactor(250, 250)).toBe(1);
    expect(trainingStressScore(3600, 250, 250)).toBeCloseTo(100, 9);
  });
  it('rejects a non-positive FTP', () => {
    expect(() => trainingStressScore(3600, 200, 0)).toThrow(RangeError);
  });
});
