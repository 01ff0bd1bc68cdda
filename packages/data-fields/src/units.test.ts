import { describe, expect, it } from 'vitest';
import { distanceInUserUnit, temperatureInUserUnit, usesMiles } from './units.ts';

describe('distance unit setting', () => {
  it('reads 0 as kilometres and any other number as miles', () => {
    expect(usesMiles(0)).toBe(false);
    expect(usesMiles(1)).toBe(true);
    expect(usesMiles(-3)).toBe(true);
  });
  it('converts metres to the user unit', () => {
    expect(distanceInUserUnit(42195, 0)).toEqual({ value: 42.195, unit: 'km' });
    expect(distanceInUserUnit(1609.344 * 26.21875, 1).value).toBeCloseTo(26.21875, 9);
  });
});

describe('temperature unit', () => {
  it('keeps Celsius and converts to Fahrenheit', () => {
    expect(temperatureInUserUnit(-10, 'c')).toBe(-10);
    expect(temperatureInUserUnit(-10, 'f')).toBe(14);
    expect(temperatureInUserUnit(50, 'f')).toBe(122);
  });
});
