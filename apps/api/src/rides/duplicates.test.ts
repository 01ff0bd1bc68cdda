// One ride whatever its format: a real FIT ride against copies of it as another app converts
// it (a GPX of its track and heart rate, without its power, its first seconds before the GPS
// fixed, positions and altitude rounded), and against rides that are not it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyseActivity } from '../analysis/analyse.ts';
import { sameRecording } from './duplicates.ts';

const corpus = new URL('../../../../packages/activity-files/test/corpus/fit/', import.meta.url);

function storedOf(file: string): Record<string, Float64Array> {
  const result = analyseActivity(new Uint8Array(readFileSync(new URL(file, corpus))));
  if (!result.ok) throw new Error(result.error.message);
  return result.value.streams;
}

/**
 * What a GPX export keeps: samples with a position, from `from` on; time, track, heart rate.
 * Stored times count from a ride's first sample: `start` is where the copy's first is.
 */
function asGpx(
  ride: Record<string, Float64Array>,
  from = 0,
): { streams: Record<string, Float64Array>; start: number } {
  const keep: number[] = [];
  for (let i = from; i < ride.time!.length; i++)
    if (Number.isFinite(ride.latitude![i]) && Number.isFinite(ride.longitude![i])) keep.push(i);
  const pick = (name: string, round: (value: number) => number) =>
    Float64Array.from(keep, (i) => round(ride[name]![i]!));
  const first = ride.time![keep[0]!]!;
  return {
    start: first,
    streams: {
      time: pick('time', (t) => Math.round(t - first)),
      latitude: pick('latitude', (value) => Math.round(value * 1e6) / 1e6),
      longitude: pick('longitude', (value) => Math.round(value * 1e6) / 1e6),
      altitude: pick('altitude', (value) => Math.round(value * 10) / 10),
      heart_rate: pick('heart_rate', Math.round),
    },
  };
}

describe('sameRecording: one ride, whatever its format', () => {
  const fit = storedOf('fitparse-Edge810-Vector-2013-08-16-15-35-10.fit');
  const other = storedOf('fitparse-2019-02-17-062644-ELEMNT-297E-195-0.fit');

  it('has a ride with a track, heart rate and power to convert', () => {
    expect(fit.latitude).toBeDefined();
    expect(fit.heart_rate).toBeDefined();
    expect(fit.power).toBeDefined();
  });

  it('takes a GPX of a FIT ride for the ride, in either order', () => {
    const gpx = asGpx(fit);
    expect(sameRecording(fit, gpx.streams, 0, gpx.start)).toBe(true);
    expect(sameRecording(gpx.streams, fit, gpx.start, 0)).toBe(true);
  });

  it('takes a GPX that starts 40 s later (the GPS fixing) for the ride', () => {
    const gpx = asGpx(fit, 40);
    expect(gpx.start).toBeGreaterThanOrEqual(40);
    expect(sameRecording(fit, gpx.streams, 0, gpx.start)).toBe(true);
  });

  it('does not take another ride, the same ride on another clock or half of it', () => {
    const another = asGpx(other);
    expect(sameRecording(fit, another.streams, 0, another.start)).toBe(false);
    const gpx = asGpx(fit, 40);
    expect(sameRecording(fit, gpx.streams, 0, 0)).toBe(false);
    expect(sameRecording(fit, gpx.streams, 0, gpx.start + 3600)).toBe(false);
    const half = asGpx(fit);
    const n = Math.floor(half.streams.time!.length / 2);
    for (const name of Object.keys(half.streams))
      half.streams[name] = half.streams[name]!.slice(0, n);
    expect(sameRecording(fit, half.streams, 0, half.start)).toBe(false);
  });

  it('does not take a second device’s recording of the same ride (another heart rate)', () => {
    const second = asGpx(fit);
    const streams = second.streams;
    streams.heart_rate = streams.heart_rate!.map((bpm, i) => bpm + 3 + (i % 5));
    streams.altitude = streams.altitude!.map((metres) => metres + 12);
    expect(sameRecording(fit, streams, 0, second.start)).toBe(false);
  });
});
