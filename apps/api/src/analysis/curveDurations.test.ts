import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { curveDurations } from './curveDurations.ts';

describe('curveDurations', () => {
  it('sends every second of a curve no longer than the points asked', () => {
    expect(curveDurations(5, 200)).toEqual([1, 2, 3, 4, 5]);
    expect(curveDurations(200, 200)).toHaveLength(200);
  });

  it('sends as many durations as asked, from 1 s to the longest, ascending, log-spaced', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 2000 }),
        fc.integer({ min: 1, max: 400_000 }),
        (points, extra) => {
          const length = points + extra;
          const durations = curveDurations(length, points);
          expect(durations).toHaveLength(points);
          expect(durations[0]).toBe(1);
          expect(durations.at(-1)).toBe(length);
          for (let i = 1; i < durations.length; i++)
            expect(durations[i]!).toBeGreaterThan(durations[i - 1]!);
        },
      ),
    );
    // The ten-hour ride: every second first, then steps growing by the same ratio.
    const ride = curveDurations(36_000, 200);
    expect(ride.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const ratios = ride.slice(100).map((duration, i) => duration / ride[99 + i]!);
    expect(Math.max(...ratios) / Math.min(...ratios)).toBeLessThan(1.02);
  });
});
