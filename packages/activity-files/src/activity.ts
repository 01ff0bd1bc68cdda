import { MAX_HOLD_S, haversineMetres, type RideStreams } from '@xoss/workout-stats';
import type { ActivityLap, ActivityOverview } from './fit/streams.ts';
import type { GpxRoute } from './gpx/types.ts';
import type { TcxActivity } from './tcx/parse.ts';

// The spec's sport types of Training Center's three sports.
const TCX_SPORTS: Readonly<Record<string, number>> = { Running: 1, Biking: 2, Other: 0 };

const recorded = (column: Float64Array) =>
  column.some((value) => !Number.isNaN(value)) ? column : undefined;

/** Metres along the points from the first, haversine between consecutive positions. */
function distanceAlong(latitude: Float64Array, longitude: Float64Array): Float64Array {
  const out = new Float64Array(latitude.length).fill(Number.NaN);
  let metres = 0;
  let previous = -1;
  for (let i = 0; i < latitude.length; i++) {
    if (Number.isNaN(latitude[i]!) || Number.isNaN(longitude[i]!)) continue;
    if (previous >= 0)
      metres += haversineMetres(
        latitude[previous]!,
        longitude[previous]!,
        latitude[i]!,
        longitude[i]!,
      );
    out[i] = metres;
    previous = i;
  }
  return out;
}

/** The rows of `time` that carry a time, in recorded order (rows without one are dropped). */
function timedRows(time: Float64Array): number[] {
  const keep: number[] = [];
  for (let i = 0; i < time.length; i++) if (!Number.isNaN(time[i]!)) keep.push(i);
  return keep;
}

function streamsOf(
  time: Float64Array,
  keep: readonly number[],
  channels: Record<string, Float64Array | undefined>,
): RideStreams {
  const first = time[keep[0]!]!;
  const picked: Record<string, Float64Array> = {};
  for (const [name, column] of Object.entries(channels)) {
    if (!column) continue;
    const values = recorded(Float64Array.from(keep, (i) => column[i]!));
    if (values) picked[name] = values;
  }
  return { time: Float64Array.from(keep, (i) => time[i]! - first), ...picked };
}

/**
 * The activity of a TCX file: its trackpoints as streams (distance as the device recorded
 * it, else along the positions), its sport and its laps as one session. `undefined` when
 * fewer than two trackpoints carry a time (a course, not a recorded activity).
 */
/** Seconds a lap's timer may differ from its trackpoints' span before pauses are looked for. */
const LAP_TIMER_SLACK_S = 2;

/**
 * Where a lap says its timer ran for less than its trackpoints span (`TotalTimeSeconds`),
 * the timer was paused between two of them: the longest gaps between its trackpoints are
 * taken out of `timer` (in place), longest first, until the lap's timer is what it says.
 * A track of its own after each pause is the rule, but some devices and exports keep one
 * track and leave a gap; without this the ride counted its pauses as timer time.
 */
function pauseWithinLaps(
  timer: [number, number][],
  laps: TcxActivity['laps'],
  time: Float64Array,
  keep: readonly number[],
  startTime: number,
): void {
  const starts = laps.map((lap) => lap.startTime - startTime);
  laps.forEach((lap, index) => {
    if (lap.totalTimeS === undefined || !Number.isFinite(starts[index]!)) return;
    const from = starts[index]!;
    const to = starts[index + 1] ?? Infinity;
    const running = timer.reduce(
      (sum, [s, e]) => sum + Math.max(0, Math.min(e, to) - Math.max(s, from)),
      0,
    );
    let excess = running - lap.totalTimeS;
    if (!(excess > LAP_TIMER_SLACK_S)) return;
    const gaps: [number, number][] = [];
    for (let k = 0; k + 1 < keep.length; k++) {
      const a = time[keep[k]!]! - startTime;
      const b = time[keep[k + 1]!]! - startTime;
      // A sample stands for one second; the rest of a gap may be a pause.
      if (a >= from && b <= to && b - a > 1) gaps.push([a + 1, b]);
    }
    gaps.sort((x, y) => y[1] - y[0] - (x[1] - x[0]));
    for (const [a, b] of gaps) {
      if (excess <= 0) break;
      const cut = Math.min(b - a, excess);
      subtractInterval(timer, b - cut, b);
      excess -= cut;
    }
  });
}

/** Takes `[a, b)` out of sorted, disjoint `intervals`, in place. */
function subtractInterval(intervals: [number, number][], a: number, b: number): void {
  for (let i = intervals.length - 1; i >= 0; i--) {
    const [s, e] = intervals[i]!;
    if (e <= a || s >= b) continue;
    const parts: [number, number][] = [];
    if (s < a) parts.push([s, a]);
    if (e > b) parts.push([b, e]);
    intervals.splice(i, 1, ...parts);
  }
}

export function activityFromTcx(tcx: TcxActivity): ActivityOverview | undefined {
  const { points } = tcx;
  const keep = timedRows(points.time);
  if (keep.length < 2 || tcx.sport === 'Course') return undefined;
  const distance =
    recorded(points.distance) ?? recorded(distanceAlong(points.latitude, points.longitude));
  const streams = streamsOf(points.time, keep, {
    power: points.power,
    heartRate: points.heartRate,
    cadence: points.cadence,
    speed: points.speed,
    distance,
    altitude: points.altitude,
    latitude: points.latitude,
    longitude: points.longitude,
  });
  const startTime = points.time[keep[0]!]!;
  // The timer ran from the first to the last timed point of each track.
  const timer: [number, number][] = [];
  const starts = tcx.tracks.length > 0 ? tcx.tracks : [0];
  for (const [index, from] of starts.entries()) {
    const to = starts[index + 1] ?? points.length;
    const times = Array.from(points.time.subarray(from, to)).filter((t) => !Number.isNaN(t));
    if (times.length > 0)
      timer.push([Math.min(...times) - startTime, Math.max(...times) - startTime + 1]);
  }
  // The last lap may run on after the last trackpoint (a pool swim writes one per length).
  const lapsEnd = Math.max(
    ...tcx.laps
      .map((lap) => lap.startTime - startTime + (lap.totalTimeS ?? 0))
      .filter(Number.isFinite),
  );
  const lastInterval = timer[timer.length - 1];
  if (lastInterval && lapsEnd > lastInterval[1] && lapsEnd - lastInterval[1] < MAX_HOLD_S)
    lastInterval[1] = lapsEnd;
  pauseWithinLaps(timer, tcx.laps, points.time, keep, startTime);
  const total = (pick: (lap: TcxActivity['laps'][number]) => number | undefined) =>
    tcx.laps.reduce((sum, lap) => sum + (pick(lap) ?? 0), 0);
  const laps = tcx.laps.filter((lap) => Number.isFinite(lap.startTime));
  const lastTime = points.time[keep[keep.length - 1]!]!;
  const lapList: ActivityLap[] = laps.map((lap) => {
    const entries: [keyof ActivityLap, number | undefined][] = [
      ['timerS', lap.totalTimeS],
      ['distanceM', lap.distanceM],
      ['maxSpeedMs', lap.maxSpeedMs],
      ['avgHeartRate', lap.avgHeartRate],
      ['maxHeartRate', lap.maxHeartRate],
      ['calories', lap.calories],
    ];
    return {
      start: lap.startTime - startTime,
      ...Object.fromEntries(entries.filter(([, value]) => value !== undefined)),
    };
  });
  return {
    startTime,
    sportType: TCX_SPORTS[tcx.sport] ?? 0,
    streams,
    ...(timer.length > 0 ? { timer } : {}),
    ...(lapList.length > 0 ? { laps: lapList } : {}),
    sessions: [
      {
        start: 0,
        end: Math.max(
          lastTime - startTime,
          ...laps.map((lap) => lap.startTime - startTime + (lap.totalTimeS ?? 0)),
        ),
        sportType: TCX_SPORTS[tcx.sport] ?? 0,
        device: {
          totalTimerTime: total((lap) => lap.totalTimeS),
          totalDistance: total((lap) => lap.distanceM),
          totalCalories: total((lap) => lap.calories),
        },
      },
    ],
  };
}

/**
 * The activity of a GPX track with times: its points as streams (distance along the
 * positions within each track segment), sport unknown (Generic). `undefined` for a planned
 * route or a track without times.
 */
export function activityFromGpx(gpx: GpxRoute): ActivityOverview | undefined {
  const { points } = gpx;
  const keep = timedRows(points.time);
  if (keep.length < 2) return undefined;
  // Distance grows within segments only: the gap between two segments is not ridden.
  const distance = new Float64Array(points.length).fill(Number.NaN);
  let metres = 0;
  for (const part of gpx.parts) {
    let previous = -1;
    for (let i = part.start; i < part.end; i++) {
      if (previous >= 0)
        metres += haversineMetres(
          points.latitude[previous]!,
          points.longitude[previous]!,
          points.latitude[i]!,
          points.longitude[i]!,
        );
      distance[i] = metres;
      previous = i;
    }
  }
  const streams = streamsOf(points.time, keep, {
    power: points.power,
    heartRate: points.heartRate,
    cadence: points.cadence,
    distance,
    altitude: points.elevation,
    latitude: points.latitude,
    longitude: points.longitude,
    temperature: points.temperature,
  });
  return { startTime: points.time[keep[0]!]!, sportType: 0, streams, sessions: [] };
}
