// Durations and times of day, in a module of their own: pages that only show durations
// (every ride page) then do not load the field catalogue that `formatFieldValue` needs.

/** How `formatDuration` writes a duration. */
export interface DurationFormat {
  /** `auto` (the default): `m:ss` under an hour; `always`: `h:mm:ss` (`0:05:03`), for columns. */
  readonly hours?: 'auto' | 'always';
  /** `floor` (the default): whole seconds elapsed, as a device's timer shows; `round`: nearest. */
  readonly seconds?: 'floor' | 'round';
}

/**
 * Formats seconds as `h:mm:ss`, or `m:ss` under an hour. Negative or non-finite input
 * shows as `--`. The one duration format of the product: fields, charts and ride lists.
 *
 * @example
 * formatDuration(3725); // '1:02:05'
 * formatDuration(302.6, { hours: 'always', seconds: 'round' }); // '0:05:03'
 */
export function formatDuration(seconds: number, format: DurationFormat = {}): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--';
  const whole = format.seconds === 'round' ? Math.round(seconds) : Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const withHours = h > 0 || format.hours === 'always';
  const mm = withHours ? String(m).padStart(2, '0') : String(m);
  return `${withHours ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/**
 * Formats a time of day given in seconds since local midnight, 24-hour `HH:mm`.
 *
 * @example
 * formatTimeOfDay(6 * 3600 + 5 * 60); // '06:05'
 */
export function formatTimeOfDay(secondsSinceMidnight: number): string {
  if (!Number.isFinite(secondsSinceMidnight)) return '--:--';
  const minutes = Math.floor((((secondsSinceMidnight % 86400) + 86400) % 86400) / 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
