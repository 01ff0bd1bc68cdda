/** The year the product's copyright starts (spec 9). */
export const COPYRIGHT_START_YEAR = 2017;

/**
 * The copyright span shown in the footer and cookie notice: from 2017 to the current year.
 *
 * @example
 * copyrightYears(new Date('2026-11-22')); // '2017–2026'
 */
export function copyrightYears(now: Date = new Date()): string {
  const year = now.getFullYear();
  return year > COPYRIGHT_START_YEAR
    ? `${COPYRIGHT_START_YEAR}–${year}`
    : `${COPYRIGHT_START_YEAR}`;
}
