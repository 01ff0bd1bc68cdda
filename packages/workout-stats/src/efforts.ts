import { MAX_SERIES_S, type Timeline } from './timeline.ts';

/**
 * A gap in the recording up to this long (seconds) is smart recording: the sample before it
 * stands for the whole gap. A longer gap is a hole in the recording, counted as zeros after
 * the sample's own second. 30 s is GoldenCheetah's default for FIT files (its "Garmin Smart
 * Recording" threshold, 25 s for GPX and TCX).
 */
export const SMART_RECORDING_GAP_S = 30;

/**
 * A ride on its clock as a 1 Hz series, the way the field computes mean-max power
 * (GoldenCheetah, WKO, TrainingPeaks and intervals.icu): from the first sample to the end of
 * the last, every second of the clock is in the series. Each sample stands for the timer
 * seconds until the next one (a gap of up to `SMART_RECORDING_GAP_S` held); a stop keeps the
 * readings the device recorded (0 W standing), a paused timer and a longer hole in the
 * recording count as zeros, and so do missing readings. So a best over 20 minutes may span a
 * traffic light, at 0 W while it lasted. Fractions of seconds carry over; at most
 * `MAX_SERIES_S` seconds.
 *
 * @example
 * const powerCurve = meanMaxCurve(clockSeries(streams.power, line, streams.time));
 */
export function clockSeries(
  values: ArrayLike<number>,
  line: Timeline,
  time: ArrayLike<number>,
): Float64Array {
  const { running, from } = line;
  const spanOf = (i: number) => {
    const start = time[from + i]!;
    const next = time[from + i + 1];
    const r = running[i]!;
    return next !== undefined && Number.isFinite(next) && Number.isFinite(start)
      ? Math.max(next - start, r)
      : r;
  };
  let total = 0;
  for (let i = 0; i < running.length; i++) {
    const span = spanOf(i);
    if (span > 0) total += span;
  }
  const out = new Float64Array(Math.min(Math.floor(total + 1e-9), MAX_SERIES_S));
  let clock = 0;
  let written = 0;
  for (let i = 0; i < running.length && written < out.length; i++) {
    const span = spanOf(i);
    if (!(span > 0)) continue;
    const ran = Math.min(Math.max(running[i]!, 0), span);
    const held = span <= SMART_RECORDING_GAP_S ? ran : Math.min(ran, 1);
    const value = values[from + i];
    const reading = value !== undefined && Number.isFinite(value) ? value : 0;
    clock += held;
    const upTo = Math.min(out.length, Math.floor(clock + 1e-9));
    if (upTo > written) {
      out.fill(reading, written, upTo);
      written = upTo;
    }
    // The rest of the span (a paused timer, a hole in the recording) stays 0.
    clock += span - held;
    written = Math.max(written, Math.min(out.length, Math.floor(clock + 1e-9)));
  }
  return out;
}
