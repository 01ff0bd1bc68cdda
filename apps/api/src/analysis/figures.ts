// The figures computed from a ride's whole streams on request: a range's summary and the
// time in each zone. Pure: the API's thread runs them for ordinary rides, the figures worker
// (`figuresWorker.ts`) for long ones, whose streams it reads from shared memory.
import {
  heartRateZoneTimes,
  oneHertzSeries,
  powerZoneTimes,
  sampleIndexAt,
  summarizeRange,
  timeline,
  type TimerIntervals,
  type WorkoutSummary,
} from '@xoss/workout-stats';
import type { DistanceUnitSetting } from '@xoss/data-fields';
import { rideStreamsOf, type StoredStreams } from './series.ts';

export interface RangeTask {
  readonly streams: StoredStreams;
  readonly from: number;
  readonly to: number;
  readonly distanceUnit: DistanceUnitSetting;
  readonly ftpWatts: number | null;
  readonly timer: TimerIntervals | null;
}

/** The summary of `from`-`to` seconds of a ride, on its full-resolution streams. */
export function rangeFigures(
  task: RangeTask,
): { samples: number; whole: boolean; summary: WorkoutSummary } | undefined {
  const streams = rideStreamsOf(task.streams);
  if (!streams) return undefined;
  const { time } = streams;
  const start = sampleIndexAt(time, task.from);
  const end = sampleIndexAt(time, task.to);
  const summary = summarizeRange(
    streams,
    start,
    end,
    {
      distanceUnit: task.distanceUnit,
      ...(task.ftpWatts ? { ftpWatts: task.ftpWatts } : {}),
    },
    task.timer ? { timer: task.timer } : {},
  );
  return { samples: end - start, whole: start === 0 && end === time.length, summary };
}

export interface ZonesTask {
  readonly streams: StoredStreams;
  readonly maxHr: number | null;
  readonly ftp: number | null;
  readonly timer: TimerIntervals | null;
}

/** Seconds in each heart-rate and power zone, on the ride's timer. */
export function zoneFigures(task: ZonesTask) {
  const { streams, maxHr, ftp } = task;
  const ride = rideStreamsOf(streams);
  const line = ride ? timeline(ride, task.timer ? { timer: task.timer } : {}) : undefined;
  return {
    heartRate:
      streams.heart_rate && maxHr && line
        ? heartRateZoneTimes(streams.heart_rate, maxHr, line.running)
        : undefined,
    power:
      streams.power && ftp && line
        ? powerZoneTimes(oneHertzSeries(streams.power, line, 'timer'), ftp)
        : undefined,
  };
}

/**
 * Rides up to this many samples (about 14 hours recorded every second) are counted on the
 * API's thread: a few milliseconds, less than a trip to a worker. Longer ones go to the
 * figures worker, so the largest legal ride never stops the event loop.
 */
export const INLINE_SAMPLES = 50_000;
