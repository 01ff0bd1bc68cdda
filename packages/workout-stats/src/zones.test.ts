import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heartRateZoneTimes, powerZoneTimes } from './zones.ts';

describe('zones', () => {
  it('uses half-open intervals: a boundary value belongs to the upper zone', () => {
    const hr = heartRateZoneTimes([100, 110, 119.9, 120, 180, 250, 50, 0], 200);
    expect(hr.zones.map((zone) => zone.seconds)).toEqual([3, 1, 0, 0, 2]);
    expect(hr.belowSeconds).toBe(1);
    expect(hr.countedSeconds).toBe(7); // the 0 bpm reading is no reading
    const power = powerZoneTimes([0, 137.4, 137.5, 299, 300, 1000], 250);
    expect(power.zones.map((zone) => zone.seconds)).toEqual([2, 1, 0, 0, 0, 1, 2]);
    expect(power.zones.map((zone) => zone.name)).toEqual([
      'Active Recovery',
      'Endurance',
      'Tempo',
      'Sweet Spot',
      'Threshold',
      'VO2 Max',
      'Anaerobic Capacity',
    ]);
  });

  it('zone times sum to the counted time', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ min: 0, max: 2000, noNaN: true }), fc.constant(Number.NaN))),
        fc.integer({ min: 100, max: 400 }),
        (watts, ftp) => {
          const result = powerZoneTimes(watts, ftp);
          const sum =
            result.zones.reduce((total, zone) => total + zone.seconds, 0) + result.belowSeconds;
          expect(sum).toBe(result.countedSeconds);
          expect(result.countedSeconds).toBe(watts.filter(Number.isFinite).length);
        },
      ),
    );
  });

  it('refuses a non-positive reference', () => {
    expect(() => powerZoneTimes([100], 0)).toThrow(RangeError);
  });
});
