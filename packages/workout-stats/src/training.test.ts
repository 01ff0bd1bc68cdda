import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ATL_DAYS,
  CTL_DAYS,
  bestPowers,
  decayLoad,
  fastestDistances,
  fitnessSeries,
  loadGain,
} from './training.ts';
import { meanMaxCurve } from './meanMax.ts';

describe('fitnessSeries (performance management chart)', () => {
  it('reaches 1 − 1/e of a constant load after one time constant', () => {
    const days = fitnessSeries(new Array<number>(CTL_DAYS).fill(100));
    expect(days[CTL_DAYS - 1]!.ctl).toBeCloseTo(100 * (1 - Math.exp(-1)), 9);
    expect(days[ATL_DAYS - 1]!.atl).toBeCloseTo(100 * (1 - Math.exp(-1)), 9);
    expect(days[0]).toMatchObject({ tss: 100, ctl: 100 * loadGain(42), atl: 100 * loadGain(7) });
    for (const day of days) expect(day.form).toBeCloseTo(day.ctl - day.atl, 12);
  });

  it('counts days without rides (0 or NaN) as zero and decays as decayLoad says', () => {
    const days = fitnessSeries([120, 0, Number.NaN, 0, 0]);
    expect(days.map((day) => day.tss)).toEqual([120, 0, 0, 0, 0]);
    const decayed = decayLoad(days[0]!, 4);
    expect(days[4]!.ctl).toBeCloseTo(decayed.ctl, 12);
    expect(days[4]!.atl).toBeCloseTo(decayed.atl, 12);
  });

  it('seeded with the state before a range, gives the same days as the whole series', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 400, noNaN: true })), {
          minLength: 10,
          maxLength: 120,
        }),
        fc.integer({ min: 1, max: 9 }),
        (tss, cut) => {
          const whole = fitnessSeries(tss);
          const split = Math.min(cut, tss.length - 1);
          const before = whole[split - 1]!;
          const ramp = whole.slice(Math.max(0, split - 7), split).map((day) => day.ctl);
          const part = fitnessSeries(tss.slice(split), before, ramp);
          part.forEach((day, i) => {
            const same = whole[split + i]!;
            expect(day.ctl).toBeCloseTo(same.ctl, 9);
            expect(day.atl).toBeCloseTo(same.atl, 9);
            if (split >= 7) expect(day.ramp).toBeCloseTo(same.ramp, 9);
          });
        },
      ),
    );
  });

  it('gives the ramp rate as the fitness gained over 7 days', () => {
    const days = fitnessSeries([
      ...new Array<number>(20).fill(50),
      ...new Array<number>(10).fill(150),
    ]);
    for (let i = 7; i < days.length; i++)
      expect(days[i]!.ramp).toBeCloseTo(days[i]!.ctl - days[i - 7]!.ctl, 12);
    expect(days[0]!.ramp).toBeCloseTo(days[0]!.ctl, 12); // from zero
    expect(days[25]!.ramp).toBeGreaterThan(0);
  });
});

describe('bestPowers', () => {
  it('reads the curve at each duration and leaves out durations longer than the ride', () => {
    const power = Float64Array.from({ length: 400 }, (_, i) => (i >= 100 && i < 105 ? 900 : 200));
    const curve = meanMaxCurve(power);
    expect(bestPowers(curve)).toEqual([900, curve[59], curve[299], undefined, undefined]);
    expect(bestPowers(null)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

/** Brute force: every sample pair as start and end, with the other end interpolated by search. */
function bruteFastest(time: number[], dist: number[], target: number): number | undefined {
  const n = time.length;
  const at = (metres: number) => {
    // first time the distance reaches `metres` (distance non-decreasing)
    for (let k = 0; k < n; k++) {
      if (dist[k]! >= metres) {
        if (k === 0 || dist[k]! === metres) return time[k]!;
        const f = (metres - dist[k - 1]!) / (dist[k]! - dist[k - 1]!);
        return time[k - 1]! + f * (time[k]! - time[k - 1]!);
      }
    }
    return undefined;
  };
  const lastAt = (metres: number) => {
    for (let k = n - 1; k >= 0; k--) {
      if (dist[k]! <= metres) {
        if (k === n - 1 || dist[k]! === metres) return time[k]!;
        const f = (metres - dist[k]!) / (dist[k + 1]! - dist[k]!);
        return time[k]! + f * (time[k + 1]! - time[k]!);
      }
    }
    return undefined;
  };
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const end = at(dist[i]! + target);
    if (end !== undefined) best = Math.min(best, end - time[i]!);
    if (dist[i]! - target >= dist[0]!) {
      const start = lastAt(dist[i]! - target);
      if (start !== undefined) best = Math.min(best, time[i]! - start);
    }
  }
  return Number.isFinite(best) ? best : undefined;
}

describe('fastestDistances', () => {
  it('is exact at constant speed and finds a fast stretch between samples', () => {
    const time = Array.from({ length: 3001 }, (_, i) => i);
    const steady = time.map((t) => t * 10);
    expect(fastestDistances(time, steady, [10_000, 20_000, 40_000])).toEqual([
      1000,
      2000,
      undefined,
    ]);
    // 100 s at 20 m/s inside a 10 m/s ride: 10 km takes 900 s.
    let d = 0;
    const fast = time.map((t) => {
      const here = d;
      d += t >= 1000 && t < 1100 ? 20 : 10;
      return here;
    });
    expect(fastestDistances(time, fast, [10_000])).toEqual([900]);
    // Samples 250 m apart, 25 s each, then 5 s each: the fastest 1 km is the last four steps.
    const coarseTime = [0, 25, 50, 55, 60, 65, 70];
    const coarseDist = [0, 250, 500, 750, 1000, 1250, 1500];
    expect(fastestDistances(coarseTime, coarseDist, [1000])).toEqual([20]);
  });

  it('skips stops, missing samples and distance resets', () => {
    const time = [0, 10, 20, 1000, 1010, 1020, 1030];
    const dist = [0, 100, 200, 200, Number.NaN, 300, 250];
    // The stop at 200 m is skipped by the latest start; 100 m from 200 to 300 took 20 s.
    expect(fastestDistances(time, dist, [100, 300, 301])).toEqual([10, 1020, undefined]);
  });

  it('equals a brute force over every sample pair', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            dt: fc.integer({ min: 1, max: 8 }),
            dd: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 60, noNaN: true })),
          }),
          { minLength: 2, maxLength: 200 },
        ),
        fc.integer({ min: 1, max: 2000 }),
        (steps, target) => {
          const time = [0];
          const dist = [0];
          for (const step of steps) {
            time.push(time[time.length - 1]! + step.dt);
            dist.push(dist[dist.length - 1]! + step.dd);
          }
          const [fastest] = fastestDistances(time, dist, [target]);
          const expected = bruteFastest(time, dist, target);
          if (expected === undefined) expect(fastest).toBeUndefined();
          else expect(fastest).toBeCloseTo(expected, 6);
        },
      ),
      { numRuns: 300 },
    );
  });
});
