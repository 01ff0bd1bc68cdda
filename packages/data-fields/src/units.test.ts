import { describe, expect, it } from 'vitest';
import {
  formatInUserUnit,
  distanceInUserUnit,
  distanceUnitOf,
  distanceUnitSetting,
  elevationInUserUnit,
  speedInUserUnit,
  temperatureInUserUnit,
  usesMiles,
} from './units.ts';

describe('distance unit setting', () => {
  it('reads 0 as kilometres and any other number as miles', () => {
    expect(usesMiles(0)).toBe(false);
    expect(usesMiles(1)).toBe(true);
    expect(usesMiles(-3)).toBe(true);
  });
  it('converts metres to the user unit', () => {
    expect(distanceInUserUnit(42195, 0)).toEqual({ value: 42.195, unit: 'km' });
    expect(distanceInUserUnit(1609.344 * 26.21875, 1).value).toBeCloseTo(26.21875, 9);
    expect(distanceInUserUnit(1609.344, 'mi')).toEqual({ value: 1, unit: 'mi' });
    expect(distanceInUserUnit(1500, 'km')).toEqual({ value: 1.5, unit: 'km' });
  });
  it('reads unit names the same way as the stored numbers', () => {
    expect(usesMiles('mi')).toBe(true);
    expect(usesMiles('km')).toBe(false);
  });
  it('turns a stored value into a unit name and back', () => {
    expect(distanceUnitOf(0)).toBe('km');
    expect(distanceUnitOf(1)).toBe('mi');
    expect(distanceUnitOf(2)).toBe('mi');
    expect(distanceUnitOf('mi')).toBe('mi');
    expect(distanceUnitOf('km')).toBe('km');
    expect(distanceUnitOf(undefined)).toBe('km');
    expect(distanceUnitOf(null)).toBe('km');
    expect(distanceUnitSetting('km')).toBe(0);
    expect(distanceUnitSetting('mi')).toBe(1);
    for (const unit of ['km', 'mi'] as const)
      expect(distanceUnitOf(distanceUnitSetting(unit))).toBe(unit);
  });
});

describe('speed and elevation', () => {
  it('go with the distance unit: km/h and m, or mph and ft', () => {
    expect(speedInUserUnit(10, 0)).toEqual({ value: 36, unit: 'km/h' });
    expect(speedInUserUnit(1609.344 / 3600, 'mi').value).toBeCloseTo(1, 12);
    expect(speedInUserUnit(1, 1).unit).toBe('mph');
    expect(elevationInUserUnit(100, 'km')).toEqual({ value: 100, unit: 'm' });
    expect(elevationInUserUnit(0.3048, 1).value).toBeCloseTo(1, 12);
    expect(elevationInUserUnit(1, 'mi').unit).toBe('ft');
  });
});

describe('temperature unit', () => {
  it('keeps Celsius and converts to Fahrenheit', () => {
    expect(temperatureInUserUnit(-10, 'c')).toBe(-10);
    expect(temperatureInUserUnit(-10, 'f')).toBe(14);
    expect(temperatureInUserUnit(50, 'f')).toBe(122);
  });
});

describe('figures in the user unit', () => {
  it('are written with their unit, to the digits asked, or up to them', () => {
    expect(formatInUserUnit('distance', 42_700, 0, { locale: 'en-US', digits: 2 })).toBe(
      '42.70\u00a0km',
    );
    expect(formatInUserUnit('distance', 42_700, 1, { locale: 'en-US', digits: 1 })).toBe(
      '26.5\u00a0mi',
    );
    expect(formatInUserUnit('speed', 10, 'km', { locale: 'de', digits: 1 })).toBe('36,0\u00a0km/h');
    expect(formatInUserUnit('elevation', 1000, 'mi', { locale: 'en-US', digits: 0 })).toBe(
      '3,281\u00a0ft',
    );
    expect(
      formatInUserUnit('distance', 13_000, 0, { locale: 'en-US', digits: 1, upTo: true }),
    ).toBe('13\u00a0km');
  });

  it('write a dash for no value', () => {
    expect(formatInUserUnit('speed', null, 0, { digits: 1 })).toBe('—');
    expect(formatInUserUnit('distance', Number.NaN, 0, { digits: 1 })).toBe('—');
  });
});
