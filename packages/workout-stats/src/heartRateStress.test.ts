import { describe, expect, it } from 'vitest';
import { heartRateSecondsByBpm, heartRateStressScore } from './heartRateStress.ts';

describe('heart-rate stress score', () => {
  it('scores an hour at the threshold 100, half of it 50, and rest nothing', () => {
    const hour = heartRateSecondsByBpm(new Float64Array(3600).fill(171));
    expect(heartRateStressScore(hour, { maxHr: 190 })).toBeCloseTo(100, 9);
    const half = heartRateSecondsByBpm(new Float64Array(1800).fill(171));
    expect(heartRateStressScore(half, { maxHr: 190 })).toBeCloseTo(50, 9);
    const resting = heartRateSecondsByBpm(new Float64Array(3600).fill(55));
    expect(heartRateStressScore(resting, { maxHr: 190 })).toBe(0);
  });

  it("weighs harder seconds more (Banister's exponential), against a worked TRIMP", () => {
    // 30 min at 150 and 30 min at 180, max 190, rest 60, threshold 171:
    // r = 90/130 and 120/130; TRIMP/s = r × 0.64 × e^(1.92 r).
    const w = (r: number) => r * 0.64 * Math.exp(1.92 * r);
    const expected = ((1800 * w(90 / 130) + 1800 * w(120 / 130)) / (3600 * w(111 / 130))) * 100;
    const series = [...new Array<number>(1800).fill(150), ...new Array<number>(1800).fill(180)];
    const score = heartRateStressScore(heartRateSecondsByBpm(series), { maxHr: 190 })!;
    expect(score).toBeCloseTo(expected, 9);
    // Harder seconds weigh more: above an hour at the same average (165 bpm).
    const steady = heartRateSecondsByBpm(new Float64Array(3600).fill(165));
    expect(score).toBeGreaterThan(heartRateStressScore(steady, { maxHr: 190 })!);
  });

  it('leaves out missing readings, and needs a maximum above rest', () => {
    const table = heartRateSecondsByBpm([NaN, 0, 140, 140]);
    expect(table[140]).toBe(2);
    expect(table.reduce((sum, s) => sum + s, 0)).toBe(2);
    expect(heartRateStressScore(table, { maxHr: 50 })).toBeUndefined();
  });
});
