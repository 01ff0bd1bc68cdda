/**
 * The durations a curve of `length` seconds is sent at: `points` of them (all when shorter),
 * from 1 s to the longest, log-spaced, each step at least a second (so the first seconds
 * are all there): the chart's log axis gets an even density of points.
 */
export function curveDurations(length: number, points: number): number[] {
  if (length <= points) return Array.from({ length }, (_, index) => index + 1);
  const durations = [1];
  let previous = 1;
  while (durations.length < points - 1) {
    // Spread the steps still to take evenly on the log scale up to the longest.
    const ratio = (length / previous) ** (1 / (points - durations.length));
    const next = Math.max(previous + 1, Math.round(previous * ratio));
    if (next >= length) break;
    durations.push(next);
    previous = next;
  }
  durations.push(length);
  return durations;
}
