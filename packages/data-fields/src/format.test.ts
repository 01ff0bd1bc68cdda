import { describe, expect, it } from 'vitest';
import { formatDuration, formatTimeOfDay } from './duration.ts';
import { formatFieldValue } from './format.ts';

const km = { distanceUnit: 0, temperatureUnit: 'c' } as const;
const mi = { distanceUnit: 1, temperatureUnit: 'f' } as const;

describe('formatFieldValue', () => {
  it('converts speed, distance and elevation to the user unit', () => {
    expect(formatFieldValue('Speed', 10, km, 'en-US')).toEqual({ text: '36.0', unit: 'km/h' });
    expect(formatFieldValue('Speed', 10, mi, 'en-US')).toEqual({ text: '22.4', unit: 'mph' });
    expect(formatFieldValue('Distance', 42195, km, 'en-US')).toEqual({ text: '42.20', unit: 'km' });
    expect(formatFieldValue('Distance', 42195, mi, 'en-US')).toEqual({ text: '26.22', unit: 'mi' });
    expect(formatFieldValue('Elevation', 1000, mi, 'en-US')).toEqual({ text: '3,281', unit: 'ft' });
    expect(formatFieldValue('ElevationLineChart', 1000, km, 'en-US')).toEqual({
      text: '1,000',
      unit: 'm',
    });
  });
  it('formats temperature, percentages, durations and the rest', () => {
    expect(formatFieldValue('Temperature', 20, mi, 'en-US')).toEqual({ text: '68', unit: '°F' });
    expect(formatFieldValue('Grade', 7.25, km, 'en-US')).toEqual({ text: '7.3', unit: '%' });
    expect(formatFieldValue('FTP', 105.4, km, 'en-US')).toEqual({ text: '105', unit: '%' });
    expect(formatFieldValue('MovingTime', 3725, km)).toEqual({ text: '1:02:05', unit: '' });
    expect(formatFieldValue('IF', 0.853, km, 'en-US')).toEqual({ text: '0.85', unit: '' });
    expect(formatFieldValue('NavigationInstruction', 'Turn left', km)).toEqual({
      text: 'Turn left',
      unit: '',
    });
    expect(formatFieldValue('Power', Number.NaN, km)).toEqual({ text: '--', unit: '' });
  });
  it('uses the locale for separators', () => {
    expect(formatFieldValue('Distance', 1234567, km, 'de').text).toBe('1.234,57');
  });
});

describe('durations and times of day', () => {
  it('formats as h:mm:ss and HH:mm', () => {
    expect(formatDuration(59)).toBe('0:59');
    expect(formatDuration(3600)).toBe('1:00:00');
    expect(formatDuration(-1)).toBe('--');
    expect(formatDuration(59.6)).toBe('0:59');
  });

  it('formats durations for ride lists: hours always, to the nearest second', () => {
    const list = { hours: 'always', seconds: 'round' } as const;
    expect(formatDuration(302.6, list)).toBe('0:05:03');
    expect(formatDuration(59.4, list)).toBe('0:00:59');
    expect(formatDuration(36_000, list)).toBe('10:00:00');
    expect(formatDuration(59.6, { seconds: 'round' })).toBe('1:00');
    expect(formatDuration(Number.NaN, list)).toBe('--');
    expect(formatTimeOfDay(6 * 3600 + 5 * 60 + 59)).toBe('06:05');
    expect(formatTimeOfDay(86400 + 60)).toBe('00:01');
  });
});
