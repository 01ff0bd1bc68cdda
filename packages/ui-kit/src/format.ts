import { formatDuration } from '@xoss/data-fields';

/**
 * `h:mm:ss` (or `m:ss` under an hour) for chart axes and read-outs, to the nearest second:
 * data-fields' `formatDuration`, with anything below zero shown as `0:00`.
 */
export function formatClock(seconds: number): string {
  return formatDuration(Math.max(0, seconds), { seconds: 'round' });
}

/** A duration of the power-curve axis: `5s`, `1m`, `20m`, `1h`, `2h30m`. */
export function formatShortDuration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)}s`;
  if (seconds < 3600) {
    const m = Math.floor(seconds / 60);
    const s = Math.round(seconds % 60);
    return s === 0 ? `${m}m` : `${m}m${s}s`;
  }
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return m === 0 ? `${h}h` : `${h}h${m}m`;
}

/**
 * A file size in the unit that fits (decimal, as drives and downloads count): `78 kB`,
 * `3.4 MB`, `1.25 GB`; never "0 MB" for a file that has bytes. No size (nothing picked, an
 * unknown or broken figure) is a dash, not "0 byte"; under a kilobyte the unit is written
 * out, as Intl's short form of `byte` is not plural ("900 byte") in every language.
 */
export function formatBytes(bytes: number, locale: string): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '—';
  const units = [
    [1e9, 'gigabyte'],
    [1e6, 'megabyte'],
    [1e3, 'kilobyte'],
  ] as const;
  const [size, unit] = units.find(([scale]) => bytes >= scale) ?? [1, 'byte'];
  const value = bytes / size;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    unitDisplay: unit === 'byte' ? 'long' : 'short',
    // Three significant figures at most: 1.25 GB, 12.5 MB, 125 kB.
    maximumFractionDigits: value >= 100 || unit === 'byte' ? 0 : value >= 10 ? 1 : 2,
  }).format(value);
}

/**
 * An import time in whole minutes, rounded up: any work takes at least a minute, and an
 * estimate that errs long disappoints no one.
 */
export function importMinutes(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

/** An import time as hours and minutes (`importMinutes`' rule: never "0 h 0 min"). */
export function importEstimate(seconds: number): { hours: number; minutes: number } {
  const minutes = importMinutes(seconds);
  return { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
}

/** Steps a rider reads on a time axis: seconds, minutes, quarter and half hours, hours. */
const TIME_STEPS_S = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400,
];

/**
 * Tick values for a time axis from `from` to `to` seconds: multiples of the smallest round
 * step (5 min, 15 min, 1 h, …) that gives at most `max` ticks, so labels read 0:30:00,
 * 1:00:00 rather than 8:20, 16:40.
 */
export function timeTicks(from: number, to: number, max: number): number[] {
  const span = Math.max(0, to - from);
  const step =
    TIME_STEPS_S.find((candidate) => Math.floor(span / candidate) + 1 <= Math.max(1, max)) ??
    TIME_STEPS_S[TIME_STEPS_S.length - 1]!;
  const ticks: number[] = [];
  for (let tick = Math.ceil(from / step) * step; tick <= to; tick += step) ticks.push(tick);
  return ticks;
}
