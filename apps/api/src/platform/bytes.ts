/**
 * A size as a limit's message says it: the largest unit it has at least one of, to one
 * decimal when that is not whole (20 MiB is "20 MB", 4 GiB "4 GB", 1.5 GiB "1.5 GB"; units of
 * 1,024 as the limits are set). Every limit's message in the API says sizes this way.
 */
export function bytesText(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${shown.toLocaleString('en-US')} ${units[unit]}`;
}
