import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  estimateFtp,
  meanMaxCurve,
  meanMaxCurveRange,
  meanMaxCurveReference,
  mergeCurves,
  powerCurveEnvelope,
} from './meanMax.ts';

// Series with what rides have: pauses (runs of zeros), spikes, constant stretches, noise.
const rideLike = fc
  .array(
    fc.oneof(
      fc.record({
        kind: fc.constant('noise' as const),
        length: fc.integer({ min: 1, max: 40 }),
        level: fc.integer({ min: 0, max: 500 }),
      }),
      fc.record({
        kind: fc.constant('zeros' as const),
        length: fc.integer({ min: 1, max: 30 }),
        level: fc.constant(0),
      }),
      fc.record({
        kind: fc.constant('spike' as const),
        length: fc.constant(1),
        level: fc.integer({ min: 800, max: 2000 }),
      }),
      fc.record({
        kind: fc.constant('flat' as const),
        length: fc.integer({ min: 1, max: 60 }),
        level: fc.integer({ min: 0, max: 400 }),
      }),
    ),
    { minLength: 1, maxLength: 25 },
  )
  .chain((parts) =>
    fc
      .tuple(
        fc.constant(parts),
        fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1500, maxLength: 1500 }),
      )
      .map(([segments, jitter]) => {
        const values: number[] = [];
        for (const segment of segments) {
          for (let i = 0; i < segment.length; i++) {
            values.push(
              segment.kind === 'noise'
                ? Math.max(0, segment.level + jitter[values.length % jitter.length]!)
                : segment.level,
            );
          }
        }
        return values;
      }),
  );

describe('meanMaxCurve', () => {
  it('matches a hand-computed vector', () => {
    expect(Array.from(meanMaxCurve([100, 300, 200]))).toEqual([300, 250, 200]);
    expect(Array.from(meanMaxCurve([0, 0, 600, 0]))).toEqual([600, 300, 200, 150]);
    expect(meanMaxCurve([])).toHaveLength(0);
  });

  it('equals the plain prefix-sum reference at every duration', () => {
    fc.assert(
      fc.property(rideLike, (values) => {
        const fast = meanMaxCurve(values);
        const reference = meanMaxCurveReference(values);
        expect(fast.length).toBe(values.length);
        for (let d = 0; d < values.length; d++) expect(fast[d]).toBeCloseTo(reference[d]!, 6);
      }),
      { numRuns: 150 },
    );
  });

  it('can rise with duration when a gap splits two efforts', () => {
    expect(Array.from(meanMaxCurve([5, 0, 5]))).toEqual([5, 2.5, 10 / 3]);
  });

  it('as an envelope never rises with duration, stays at or above the raw curve, and ends at the average', () => {
    fc.assert(
      fc.property(rideLike, (values) => {
        const raw = meanMaxCurve(values);
        const curve = powerCurveEnvelope(raw);
        for (let d = 0; d < curve.length; d++) expect(curve[d]!).toBeGreaterThanOrEqual(raw[d]!);
        for (let d = 1; d < curve.length; d++)
          expect(curve[d]!).toBeLessThanOrEqual(curve[d - 1]! + 1e-9);
        const average = values.reduce((a, b) => a + b, 0) / values.length;
        expect(curve[curve.length - 1]).toBeCloseTo(average, 6);
      }),
      { numRuns: 100 },
    );
  });

  it('stays exact where pruning gives up (alternating 0/1000 W) and for any duration range', () => {
    const alternating = Float64Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? 0 : 1000));
    expect(Array.from(meanMaxCurve(alternating))).toEqual(
      Array.from(meanMaxCurveReference(alternating)),
    );
    const ride = Float64Array.from(
      { length: 2000 },
      (_, i) => 200 + 150 * Math.sin(i / 37) + (i % 97 === 0 ? 600 : 0),
    );
    const full = meanMaxCurve(ride);
    expect(Array.from(meanMaxCurveRange(ride, 500, 900))).toEqual(
      Array.from(full.subarray(499, 900)),
    );
    expect(meanMaxCurveRange(ride, 3000, 4000)).toHaveLength(0);
  });

  it('stays exact with negative samples (durations one at a time) and at the end of a ride', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -300, max: 600 }), { minLength: 1, maxLength: 1200 }),
        (values) => {
          const fast = meanMaxCurve(values);
          const reference = meanMaxCurveReference(values);
          for (let d = 0; d < values.length; d++) expect(fast[d]).toBeCloseTo(reference[d]!, 6);
        },
      ),
      { numRuns: 60 },
    );
    // Lengths around the groups of four durations and the blocks' sizes.
    for (const length of [1, 2, 3, 4, 5, 15, 16, 17, 63, 64, 65, 255, 256, 257, 259, 1027]) {
      const values = Array.from({ length }, (_, i) => (i * 7919) % 431);
      expect(Array.from(meanMaxCurve(values))).toEqual(Array.from(meanMaxCurveReference(values)));
    }
  });

  it('is exact on a constant series', () => {
    const curve = meanMaxCurve(new Array<number>(2000).fill(250));
    expect(curve.every((value) => Math.abs(value - 250) < 1e-9)).toBe(true);
  });
});

describe('mergeCurves and estimateFtp', () => {
  it('takes the best of each duration', () => {
    expect(
      Array.from(mergeCurves([Float64Array.of(400, 300), Float64Array.of(350, 320, 250)])),
    ).toEqual([400, 320, 250]);
    expect(mergeCurves([])).toHaveLength(0);
  });
  it('estimates FTP as the best hour', () => {
    const values = [
      ...new Array<number>(600).fill(100),
      ...new Array<number>(3600).fill(260),
      ...new Array<number>(600).fill(100),
    ];
    expect(estimateFtp(meanMaxCurve(values))).toBeCloseTo(260, 9);
    expect(estimateFtp(meanMaxCurve([300, 300]))).toBeUndefined();
  });
});
