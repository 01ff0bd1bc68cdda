import { describe, expect, it } from 'vitest';
import { DAY_MS, addDays, dayOf, daysBetween, mondayOf, startOfDay } from './days.ts';

describe('training days', () => {
  it('are UTC calendar days', () => {
    expect(dayOf(new Date('2026-11-23T23:59:59Z'))).toBe('2026-11-23');
    expect(dayOf(Date.UTC(2026, 10, 24))).toBe('2026-11-24');
    expect(DAY_MS).toBe(24 * 3600 * 1000);
    expect(startOfDay('2026-11-23')).toBe(Date.UTC(2026, 10, 23));
    expect(dayOf(startOfDay('2026-11-23'))).toBe('2026-11-23');
  });

  it('add across months, leap days and years', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysBetween('2025-12-31', '2026-03-01')).toBe(60);
    expect(daysBetween('2026-03-01', '2025-12-31')).toBe(-60);
  });

  it('start their weeks on Monday', () => {
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
    expect(mondayOf('2026-01-01')).toBe('2025-12-29');
  });
});
