import { describe, expect, it } from 'vitest';
import { heartRateCurve, paceCurve } from './curves.ts';
import { simulateRide } from './simulate.ts';

// Brute force: the best mean of every window of d samples.
function bestMean(values: ArrayLike<number>, d: number): number {
  let best = -Infinity;
  for (let i = 0; i + d <= values.length; i++) {
    let sum = 0;
    for (let k = i; k < i + d; k++) sum += values[k]!;
    best = Math.max(best, sum / d);
  }
  return best;
}

const ride = simulateRide({ seconds: 1200, seed: 4 });

describe('heartRateCurve', () => {
  it('is the best mean heart rate over every duration', () => {
    const curve = heartRateCurve(ride.heartRate!);
    expect(curve).toHaveLength(1200);
    for (const d of [1, 5, 30, 60, 300, 1200])
      expect(curve[d - 1]).toBeCloseTo(bestMean(ride.heartRate!, d), 9);
  });

  it('counts a missing reading as 0', () => {
    expect(Array.from(heartRateCurve([150, Number.NaN, 170]))).toEqual([170, 85, 320 / 3]);
  });
});

describe('paceCurve', () => {
  it('is 1000 / the best mean speed, in seconds per kilometre', () => {
    const curve = paceCurve(ride.speed!);
    for (const d of [1, 10, 60, 600])
      expect(curve[d - 1]).toBeCloseTo(1000 / bestMean(ride.speed!, d), 9);
    expect(Array.from(paceCurve([5, 4]))).toEqual([200, 1000 / 4.5]);
  });

  it('is infinite where the rider never moved', () => {
    expect(Array.from(paceCurve([0, 0]))).toEqual([Infinity, Infinity]);
  });
});
