import { describe, expect, it } from 'vitest';
import { decoupling, efficiencyFactor } from './decoupling.ts';

const fill = (seconds: number, value: number) => new Array<number>(seconds).fill(value);

// Plain NP: every full 30 s trailing mean, 4th power, mean, 4th root.
function plainNp(watts: readonly number[]): number {
  const fourth: number[] = [];
  for (let i = 29; i < watts.length; i++) {
    let sum = 0;
    for (let k = i - 29; k <= i; k++) sum += watts[k]!;
    fourth.push((sum / 30) ** 4);
  }
  return (fourth.reduce((a, b) => a + b, 0) / fourth.length) ** 0.25;
}
const meanReadings = (hr: readonly number[]) => {
  const readings = hr.filter((v) => v > 0);
  return readings.reduce((a, b) => a + b, 0) / readings.length;
};

describe('decoupling', () => {
  it('matches a hand-computed ride: HR drifts from 140 to 147 at 200 W', () => {
    // Warm-up (left out) at 100 W / 110 bpm, then 30 min at 200 W: 140 bpm, then 147 bpm.
    const power = [...fill(600, 100), ...fill(1800, 200)];
    const hr = [...fill(600, 110), ...fill(900, 140), ...fill(900, 147)];
    // EF₁ = 200/140, EF₂ = 200/147: (EF₁ − EF₂)/EF₁ = 1 − 140/147 = 4.7619 %.
    expect(decoupling(power, hr)).toBeCloseTo((1 - 140 / 147) * 100, 9);
  });

  it('keeps coasting in NP, as EF does, and leaves out missing heart rate', () => {
    const power = [...fill(600, 100), ...fill(900, 200), ...fill(300, 0), ...fill(900, 200)];
    const hr = [...fill(600, 110), ...fill(900, 140), ...fill(300, 100), ...fill(900, 147)];
    hr[1000] = 0;
    hr[2000] = 0;
    // Halves of 1050 s after the warm-up: [600, 1650) and [1650, 2700).
    const ef = (from: number, to: number) =>
      plainNp(power.slice(from, to)) / meanReadings(hr.slice(from, to));
    const expected = ((ef(600, 1650) - ef(1650, 2700)) / ef(600, 1650)) * 100;
    expect(decoupling(power, hr)).toBeCloseTo(expected, 9);
  });

  it('is 0 on a steady ride and negative when power rises at the same heart rate', () => {
    expect(decoupling(fill(3600, 200), fill(3600, 140))).toBeCloseTo(0, 12);
    const power = [...fill(1500, 200), ...fill(1500, 220)];
    // After the warm-up: 900 s at 200 W then 1500 s at 220 W; halves of 1200 s.
    const first = plainNp(power.slice(600, 1800));
    expect(decoupling(power, fill(3000, 140))).toBeCloseTo(((first - 220) / first) * 100, 9);
    expect(decoupling(power, fill(3000, 140))).toBeLessThan(0);
  });

  it('needs 20 steady minutes', () => {
    expect(decoupling(fill(1700, 200), fill(1700, 140))).toBeUndefined();
    expect(decoupling(fill(1700, 200), fill(1700, 140), { minSteadyS: 600 })).toBe(0);
  });
});

describe('efficiencyFactor', () => {
  it('is NP over mean heart rate', () => {
    expect(efficiencyFactor(210, 140)).toBe(1.5);
    expect(efficiencyFactor(210, 0)).toBeUndefined();
  });
});
