import { describe, expect, it } from 'vitest';
import { clockSeries, SMART_RECORDING_GAP_S } from './efforts.ts';
import { meanMaxCurve } from './meanMax.ts';
import { timeline } from './timeline.ts';

const f64 = (values: number[]) => Float64Array.from(values);
/** `count` seconds at `value`. */
const run = (count: number, value: number): number[] => Array.from({ length: count }, () => value);

/** A 1 Hz ride: `power` per second, speed 8 m/s where power > 0, else standing. */
function ride(power: number[], timer?: [number, number][]) {
  const time = f64(power.map((_, i) => i));
  const speed = f64(power.map((watts) => (watts > 0 ? 8 : 0)));
  const streams = { time, speed, power: f64(power) };
  return { streams, line: timeline(streams, timer ? { timer } : {}) };
}

describe('clockSeries: a ride on its clock, as the field counts mean-max', () => {
  it('keeps a stop in the clock at the readings the device recorded (0 W)', () => {
    // 600 s at 300 W, a 60 s traffic light, 600 s at 300 W: the 20-minute best spans it.
    const power = [...run(600, 300), ...run(60, 0), ...run(600, 300)];
    const { streams, line } = ride(power);
    const series = clockSeries(streams.power, line, streams.time);
    expect(series.length).toBe(1260);
    const curve = meanMaxCurve(series);
    expect(curve[1199]).toBeCloseTo((1140 * 300) / 1200, 6);
    // Never above what the whole clock averages at the ride's length.
    expect(curve[1259]).toBeCloseTo((1200 * 300) / 1260, 6);
  });

  it('counts a paused timer as zeros in the clock', () => {
    // 300 s riding, the timer paused 120 s (no samples), 300 s riding.
    const time = f64([...Array(300).keys(), ...Array.from({ length: 300 }, (_, i) => 420 + i)]);
    const power = f64(run(600, 250));
    const speed = f64(run(600, 8));
    const streams = { time, speed, power };
    const line = timeline(streams, {
      timer: [
        [0, 300],
        [420, 720],
      ],
    });
    const series = clockSeries(power, line, time);
    expect(series.length).toBe(720);
    expect(series.subarray(300, 420).every((value) => value === 0)).toBe(true);
    expect(meanMaxCurve(series)[599]).toBeCloseTo((480 * 250) / 600, 6);
  });

  it('holds a reading across smart recording, and a longer hole in the recording is 0', () => {
    const gap = SMART_RECORDING_GAP_S;
    // Samples 0, gap (held across), then a hole of gap + 30 s with the timer running.
    const time = f64([0, gap, gap + 1, 2 * gap + 31, 2 * gap + 32]);
    const power = f64([200, 210, 220, 230, 240]);
    const speed = f64([8, 8, 8, 8, 8]);
    const streams = { time, speed, power };
    const line = timeline(streams, { timer: [[0, 2 * gap + 33]] });
    const series = clockSeries(power, line, time);
    expect(series.length).toBe(2 * gap + 33);
    expect([...series.subarray(0, gap)].every((value) => value === 200)).toBe(true);
    expect(series[gap]).toBe(210);
    expect(series[gap + 1]).toBe(220);
    expect([...series.subarray(gap + 2, 2 * gap + 31)].every((value) => value === 0)).toBe(true);
    expect(series[2 * gap + 31]).toBe(230);
    expect(series[2 * gap + 32]).toBe(240);
  });

  it('counts missing readings as 0 and starts the clock at the first sample', () => {
    const { streams, line } = ride([0, 0, 100, Number.NaN, 100]);
    const series = clockSeries(streams.power, line, streams.time);
    expect([...series]).toEqual([0, 0, 100, 0, 100]);
  });

  it('gives nothing for a ride without samples', () => {
    const streams = { time: f64([]), power: f64([]) };
    expect(clockSeries(streams.power, timeline(streams), streams.time).length).toBe(0);
  });
});
