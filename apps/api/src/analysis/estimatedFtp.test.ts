import { meanMaxCurve } from '@xoss/workout-stats';
import { describe, expect, it } from 'vitest';
import { ftpFromCurve } from './estimatedFtp.ts';

/** `seconds` of 150 W with one effort of `effortS` at `watts` from the start. */
const ride = (seconds: number, effortS: number, watts: number) =>
  meanMaxCurve(Float64Array.from({ length: seconds }, (_, i) => (i < effortS ? watts : 150)));

describe('ftpFromCurve', () => {
  it('reads the longest field test the curve reaches', () => {
    // 30 minutes with 20 at 300 W: 95 % of the best 20 minutes.
    expect(ftpFromCurve(ride(1800, 1200, 300))).toBeCloseTo(285, 9);
    // 10 minutes with 8 at 300 W: 90 % of the best 8 minutes.
    expect(ftpFromCurve(ride(600, 480, 300))).toBeCloseTo(270, 9);
    // 5 minutes with a minute at 400 W: 75 % of the best minute (the ramp test's rule).
    expect(ftpFromCurve(ride(300, 60, 400))).toBeCloseTo(300, 9);
  });

  it('takes the 20-minute rule over an easy hour', () => {
    // Two hours, 20 minutes at 300 W: the best hour is (1200 x 300 + 2400 x 150) / 3600 = 200 W.
    expect(ftpFromCurve(ride(7200, 1200, 300))).toBeCloseTo(285, 9);
    // A steady hour at 280 W: the hour itself.
    expect(ftpFromCurve(ride(3600, 3600, 280))).toBeCloseTo(280, 9);
  });

  it('has none under a minute, without power or without a curve', () => {
    expect(ftpFromCurve(ride(59, 59, 400))).toBeUndefined();
    expect(ftpFromCurve(new Float64Array(1800))).toBeUndefined();
    expect(ftpFromCurve(null)).toBeUndefined();
  });
});
