// Training days: calendar days in UTC written `YYYY-MM-DD`, the unit of the training log,
// the fitness series and the portal's calendar. Weeks run Monday to Sunday (ISO 8601).

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/**
 * The UTC day of a moment.
 *
 * @example
 * dayOf(new Date('2026-11-23T23:30:00Z')); // '2026-11-23'
 */
export const dayOf = (moment: Date | number): string => new Date(moment).toISOString().slice(0, 10);

/**
 * The first millisecond of a day (UTC), since the epoch.
 *
 * @example
 * startOfDay('1970-01-02'); // 86400000
 */
export const startOfDay = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/**
 * The day `days` after `day` (before it when negative).
 *
 * @example
 * addDays('2026-02-28', 1); // '2026-03-01'
 */
export const addDays = (day: string, days: number): string =>
  dayOf(startOfDay(day) + days * DAY_MS);

/** Days from `a` to `b` (`b − a`). */
export const daysBetween = (a: string, b: string): number =>
  Math.round((startOfDay(b) - startOfDay(a)) / DAY_MS);

/**
 * The Monday of the week of `day`.
 *
 * @example
 * mondayOf('2026-11-29'); // '2026-11-23' (a Sunday's week began on the Monday before)
 */
export function mondayOf(day: string): string {
  const weekday = (new Date(startOfDay(day)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}
