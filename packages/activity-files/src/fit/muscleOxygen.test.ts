import { describe, expect, it } from 'vitest';
import { wrapFit } from '../testing/fitBytes.ts';
import { decodeFit } from './decode.ts';
import { encodeFit } from './encode.ts';
import { activityFromStreams } from './fromStreams.ts';
import { activityOverview } from './streams.ts';
import { recordColumnNames, type FitActivity } from './types.ts';

// A muscle-oxygen sensor's file (a Moxy's): records of the time, SmO2 and total haemoglobin
// only, no position, speed, heart rate or power.
const START = 1_760_000_000;
const SECONDS = 120;
const smo2 = Float64Array.from({ length: SECONDS }, (_, i) => 62.5 - (i % 30) * 0.7);
const thb = Float64Array.from({ length: SECONDS }, (_, i) => 12.34 + (i % 10) * 0.05);
const moxy = activityFromStreams(
  { time: Float64Array.from({ length: SECONDS }, (_, i) => i), smo2, thb },
  { startTime: START, sport: 2 },
);

function decoded(bytes: Uint8Array): FitActivity {
  const result = decodeFit(bytes);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('muscle oxygen (SmO2, THb) records', () => {
  it('decodes fields 54 and 57 by their profile scales (g/dL x100, % x10), min and max too', () => {
    // One record written by hand, so the field numbers and scales are checked against the
    // FIT profile rather than against our own encoder: timestamp, total_hemoglobin_conc
    // 1234 (12.34 g/dL), its min 1200 and max 1250, saturated_hemoglobin_percent 625
    // (62.5 %), its min 610 and max 640; then a record with both invalid (0xffff).
    const fields = [253, 4, 0x86, 54, 2, 0x84, 55, 2, 0x84, 56, 2, 0x84, 57, 2, 0x84];
    const more = [58, 2, 0x84, 59, 2, 0x84];
    const u16 = (value: number) => [value & 0xff, value >> 8];
    const bytes = wrapFit([
      ...[0x40, 0, 0, 20, 0, 7, ...fields, ...more],
      ...[0x00, 0x10, 0x27, 0, 0, ...u16(1234), ...u16(1200), ...u16(1250)],
      ...[...u16(625), ...u16(610), ...u16(640)],
      ...[0x00, 0x11, 0x27, 0, 0, ...u16(0xffff), ...u16(0xffff), ...u16(0xffff)],
      ...[...u16(0xffff), ...u16(0xffff), ...u16(0xffff)],
    ]);
    const { records } = decoded(bytes);
    expect(records.length).toBe(2);
    expect(records.totalHemoglobinConc?.[0]).toBeCloseTo(12.34, 10);
    expect(records.totalHemoglobinConcMin?.[0]).toBe(12);
    expect(records.totalHemoglobinConcMax?.[0]).toBe(12.5);
    expect(records.saturatedHemoglobinPercent?.[0]).toBe(62.5);
    expect(records.saturatedHemoglobinPercentMin?.[0]).toBe(61);
    expect(records.saturatedHemoglobinPercentMax?.[0]).toBe(64);
    expect(records.saturatedHemoglobinPercent?.[1]).toBeNaN();
    expect(records.totalHemoglobinConc?.[1]).toBeNaN();
  });

  it('gives a file of timestamps, SmO2 and THb back as those columns and nothing else', () => {
    const activity = decoded(encodeFit(moxy));
    expect(activity).toEqual(moxy);
    const { records } = activity;
    expect(records.length).toBe(SECONDS);
    expect(Array.from(records.saturatedHemoglobinPercent!)).toEqual(
      Array.from(smo2, (value) => Math.round(value * 10) / 10),
    );
    expect(records.totalHemoglobinConc![7]).toBeCloseTo(12.69, 10);
    for (const name of recordColumnNames)
      if (name !== 'timestamp')
        expect(records[name].some((value) => !Number.isNaN(value))).toBe(false);
    // The minimum and maximum were not written: no columns for them.
    expect(records.saturatedHemoglobinPercentMin).toBeUndefined();
    expect(records.totalHemoglobinConcMax).toBeUndefined();
  });

  it('has no sensor columns for a file without them', () => {
    const plain = activityFromStreams(
      { time: Float64Array.of(0, 1, 2), power: Float64Array.of(100, 110, 120) },
      { startTime: START, sport: 2 },
    );
    const { records } = decoded(encodeFit(plain));
    expect(records.saturatedHemoglobinPercent).toBeUndefined();
    expect(records.totalHemoglobinConc).toBeUndefined();
  });

  it('makes smo2 and thb streams, with the time and no position, speed or distance', () => {
    const overview = activityOverview(decoded(encodeFit(moxy, { compressedTimestamps: true })));
    expect(overview.startTime).toBe(START);
    expect(Object.keys(overview.streams).sort()).toEqual(['smo2', 'thb', 'time']);
    expect(overview.streams.time[SECONDS - 1]).toBe(SECONDS - 1);
    expect(overview.streams.smo2![0]).toBe(62.5);
    expect(overview.streams.thb![0]).toBeCloseTo(12.34, 10);
  });
});
