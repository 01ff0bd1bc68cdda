/**
 * The clock the fastest distances are timed on, at each sample: while the distance grows the
 * real time passes (a ride cannot cover ground in no time), while it does not only the timer
 * time does (a stop with the timer paused does not count; one with it running does).
 */
export function effortClock(
  time: ArrayLike<number>,
  distance: ArrayLike<number>,
  running: ArrayLike<number>,
): Float64Array {
  const clock = new Float64Array(time.length);
  for (let i = 1; i < time.length; i++) {
    const gap = time[i]! - time[i - 1]!;
    const moved = distance[i]! > distance[i - 1]!;
    const step = moved ? gap : Math.min(gap, running[i - 1] ?? gap);
    clock[i] = clock[i - 1]! + (Number.isFinite(step) && step > 0 ? step : 0);
  }
  return clock;
}
