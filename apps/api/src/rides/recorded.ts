import type { Analysis } from '../analysis/analyse.ts';

/**
 * Whether a decoded activity recorded anything: some value besides the clock in some stream.
 * A file of empty definitions whose records carry only a zero timestamp decodes without an
 * error, but it is not a ride (it would be stored as one dated the FIT epoch, 1989). Any
 * stored stream counts, not only position or speed: a muscle-oxygen sensor's file holds the
 * time, SmO2 and THb alone, and is a ride with those (indoor, no distance).
 */
export function hasRecordedData(analysis: Analysis): boolean {
  return Object.entries(analysis.streams).some(
    ([name, column]) =>
      name !== 'time' &&
      column !== undefined &&
      Array.prototype.some.call(column, (value: number) => Number.isFinite(value)),
  );
}
