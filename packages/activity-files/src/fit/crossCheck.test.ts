import { simulateRide } from '@xoss/workout-stats';
import FitParser from 'fit-file-parser';
import { describe, expect, it } from 'vitest';
import { decodeFit } from './decode.ts';
import { encodeFit } from './encode.ts';
import { activityFromStreams } from './fromStreams.ts';
import type { FitActivity } from './types.ts';

// Cross-check against an MIT-licensed peer (a devDependency only): the same file must give
// the same records and the same device-stored session values.
async function peer(bytes: Uint8Array) {
  const parser = new FitParser({
    force: false,
    speedUnit: 'm/s',
    lengthUnit: 'm',
    temperatureUnit: 'celsius',
    mode: 'list',
  });
  return parser.parseAsync(bytes.slice().buffer);
}

function ours(bytes: Uint8Array): FitActivity {
  const result = decodeFit(bytes);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const close = (a: unknown, b: number, digits = 6) => {
  if (Number.isNaN(b)) expect(a ?? Number.NaN).toBeNaN();
  else expect(a as number).toBeCloseTo(b, digits);
};

describe('cross-check with fit-file-parser', () => {
  it.each([
    ['outdoor ride, little-endian', { seconds: 600, seed: 8 }, {}],
    ['indoor ride, big-endian', { seconds: 300, seed: 3, indoor: true }, { bigEndian: true }],
  ] as const)('%s: records and session match', async (_, simulation, options) => {
    const activity = activityFromStreams(simulateRide(simulation), {
      startTime: 1_760_000_000,
      sport: 2,
      settings: { ftpWatts: 240 },
    });
    const bytes = encodeFit(activity, options);
    const mine = ours(bytes);
    const theirs = await peer(bytes);
    const records = theirs.records ?? [];
    expect(records).toHaveLength(mine.records.length);
    records.forEach((record, i) => {
      const r = record as Record<string, unknown>;
      expect((r.timestamp as Date).getTime() / 1000).toBe(mine.records.timestamp[i]);
      close(r.power, mine.records.power[i]!);
      close(r.heart_rate, mine.records.heartRate[i]!);
      close(r.cadence, mine.records.cadence[i]!);
      close(r.speed, mine.records.speed[i]!);
      close(r.distance, mine.records.distance[i]!);
      close(r.temperature, mine.records.temperature[i]!);
      close(r.position_lat, mine.records.latitude[i]!);
      close(r.position_long, mine.records.longitude[i]!);
      close(r.altitude, mine.records.altitude[i]!, 3);
    });
    const session = (theirs.sessions ?? [])[0] as Record<string, unknown>;
    const mineSession = mine.sessions[0]!;
    expect(session.total_elapsed_time).toBeCloseTo(mineSession.totalElapsedTime as number, 6);
    expect(session.total_distance).toBeCloseTo(mineSession.totalDistance as number, 6);
    expect(session.avg_power).toBe(mineSession.avgPower);
    expect(session.normalized_power).toBe(mineSession.normalizedPower);
    expect(session.sport).toBe('cycling');
  });
});
