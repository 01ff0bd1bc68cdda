import { describe, expect, it } from 'vitest';
import { formatBytes, formatClock, importEstimate, importMinutes, timeTicks } from './format.ts';

describe('formatBytes', () => {
  it('picks the unit that fits, with up to three significant figures', () => {
    expect(formatBytes(78_120, 'en-US')).toBe('78.1 kB');
    expect(formatBytes(64 * 1024, 'en-US')).toBe('65.5 kB');
    expect(formatBytes(3_400_000, 'en-US')).toBe('3.4 MB');
    expect(formatBytes(512_000_000, 'en-US')).toBe('512 MB');
    expect(formatBytes(1_250_000_000, 'en-US')).toBe('1.25 GB');
    expect(formatBytes(900, 'en-US')).toBe('900 bytes');
    expect(formatBytes(1, 'en-US')).toBe('1 byte');
    expect(formatBytes(2_500_000, 'de')).toBe('2,5 MB');
  });

  it('writes no size as a dash, never "0 byte"', () => {
    for (const bytes of [0, -5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(formatBytes(bytes, 'en-US')).toBe('—');
  });

  it('never says 0 MB for a file that has bytes', () => {
    for (const bytes of [1, 999, 1000, 70_000, 999_999])
      expect(formatBytes(bytes, 'en-US')).not.toMatch(/^0\b/);
  });
});

describe('importEstimate', () => {
  it('rounds up to whole minutes and is never zero', () => {
    expect(importEstimate(0)).toEqual({ hours: 0, minutes: 1 });
    expect(importEstimate(12)).toEqual({ hours: 0, minutes: 1 });
    expect(importEstimate(61)).toEqual({ hours: 0, minutes: 2 });
    expect(importEstimate(3600)).toEqual({ hours: 1, minutes: 0 });
    expect(importEstimate(3601)).toEqual({ hours: 1, minutes: 1 });
  });

  it('says the same minutes as a region list does (importMinutes)', () => {
    expect([0, 12, 61, 89, 3601].map(importMinutes)).toEqual([1, 1, 2, 2, 61]);
  });
});

describe('timeTicks', () => {
  it('steps in round times a rider reads, never 8:20 or 16:40', () => {
    expect(timeTicks(0, 3600, 5)).toEqual([0, 900, 1800, 2700, 3600]);
    expect(timeTicks(0, 36_000, 6)).toEqual([0, 7200, 14_400, 21_600, 28_800, 36_000]);
    expect(timeTicks(130, 700, 4)).toEqual([300, 600]);
    for (const [to, max] of [
      [5000, 4],
      [10_000, 6],
      [2000, 3],
    ] as const) {
      const ticks = timeTicks(0, to, max);
      expect(ticks.length).toBeLessThanOrEqual(max);
      expect(ticks.every((tick) => tick % 60 === 0 || tick < 60)).toBe(true);
      expect(ticks).not.toContain(500);
      expect(ticks).not.toContain(1000);
    }
  });
});

describe('formatClock', () => {
  it('writes m:ss under an hour and h:mm:ss above, to the nearest second', () => {
    expect(formatClock(59.6)).toBe('1:00');
    expect(formatClock(3725.4)).toBe('1:02:05');
    expect(formatClock(0)).toBe('0:00');
  });
  it('shows anything below zero as 0:00', () => {
    expect(formatClock(-5)).toBe('0:00');
  });
});
