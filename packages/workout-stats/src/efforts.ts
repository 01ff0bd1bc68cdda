import { MAX_HOLD_S, MAX_SERIES_S, type Timeline } from './timeline.ts';

/**
 * A stop longer than this (seconds: standing, timer paused, or both) ends an effort; a
 * shorter one (a junction, an auto-pause blip) stays inside it, second by second.
 */
export const EFFORT_MAX_STOP_S = 5;

/**
 * The efforts of a ride as 1 Hz series on its clock: each moving sample held for the timer
 * seconds it stands for (at most `MAX_HOLD_S`), a stop of up to `maxStopS` seconds kept in
 * place (its recorded readings while the timer ran, zeros while it was paused), and a
 * longer stop ending the effort, so no mean-max window spans it. Missing readings are
 * zeros, fractions of seconds carry over within an effort. The efforts together hold at
 * most `MAX_SERIES_S` seconds.
 *
 * @example
 * const curve = mergeCurves(effortSeries(streams.power, line, streams.time).map(meanMaxCurve));
 */
export function effortSeries(
  values: ArrayLike<number>,
  line: Timeline,
  time: ArrayLike<number>,
  maxStopS: number = EFFORT_MAX_STOP_S,
): Float64Array[] {
  const { running, moving, from } = line;
  const efforts: Float64Array[] = [];
  let effort: number[] = [];
  let clock = 0; // seconds of the current effort, with the carried fraction
  let budget = MAX_SERIES_S;
  // The stop since the last moving second: its parts (seconds, value) while it is short.
  let stopS = 0;
  let stop: [number, number][] = [];
  const hold = (seconds: number, value: number) => {
    clock += seconds;
    const upTo = Math.floor(clock + 1e-9);
    while (effort.length < upTo && budget > 0) {
      effort.push(value);
      budget--;
    }
  };
  const close = () => {
    if (effort.length > 0) efforts.push(Float64Array.from(effort));
    effort = [];
    clock = 0;
  };
  const reading = (i: number) => {
    const value = values[from + i];
    return value !== undefined && Number.isFinite(value) ? value : 0;
  };
  for (let i = 0; i < running.length && budget > 0; i++) {
    const start = time[from + i]!;
    const nextTime = time[from + i + 1];
    const r = running[i]!;
    const span =
      nextTime !== undefined && Number.isFinite(nextTime) && Number.isFinite(start)
        ? Math.max(nextTime - start, r)
        : r;
    if (!(span > 0)) continue;
    const held = moving[i] ? Math.min(r, MAX_HOLD_S) : 0;
    if (held > 0) {
      if (stopS > maxStopS) close();
      else for (const [seconds, value] of stop) hold(seconds, value);
      stopS = 0;
      stop = [];
      hold(held, reading(i));
    }
    // What of this sample's span is no effort: standing with the timer on, then paused.
    const standing = moving[i] ? 0 : r;
    const paused = span - held - standing;
    if (standing > 0 || paused > 0) {
      stopS += standing + paused;
      if (stopS <= maxStopS) {
        if (standing > 0) stop.push([standing, reading(i)]);
        if (paused > 0) stop.push([paused, 0]);
      } else stop = [];
    }
  }
  close();
  return efforts;
}
