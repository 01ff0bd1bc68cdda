import type { RideStreams, TimerIntervals } from '@xoss/workout-stats';
import type { ActivityFileError } from '../errors.ts';
import { sportType } from './profile.ts';
import type { FitActivity, FitMessage } from './types.ts';

/**
 * An activity's streams: the ones `@xoss/workout-stats` reads, and a muscle-oxygen sensor's,
 * which no statistic reads but the ride page draws.
 */
export type ActivityStreams = RideStreams & {
  /** Muscle oxygen saturation (SmO2), percent. */
  readonly smo2?: Float64Array;
  /** Total haemoglobin concentration (THb), g/dL. */
  readonly thb?: Float64Array;
};

/** One session of a file (multisport files have several), in the streams' time base. */
export interface ActivitySession {
  /** Seconds since the first record. */
  readonly start: number;
  readonly end: number;
  readonly sportType: number;
  /** The device's own session message (its totals). */
  readonly device: FitMessage;
}

/** What an import needs from a FIT file: when, which sport, the streams and the timer. */
export interface ActivityOverview {
  /** Unix seconds of the first record (else the session start or file creation). */
  readonly startTime: number | undefined;
  /** The spec's sport type 0-11 (0 Generic when unknown). */
  readonly sportType: number;
  readonly streams: ActivityStreams;
  /** Where the device's timer ran, from its timer events; absent when the file has none. */
  readonly timer?: TimerIntervals;
  /** The sessions the file holds, in order. */
  readonly sessions: readonly ActivitySession[];
  /** The laps the device recorded (lap button, auto-lap), in order; none when it wrote none. */
  readonly laps?: readonly ActivityLap[];
  /** The FTP and max heart rate the device was set to, when the file stores them. */
  readonly ftpWatts?: number;
  readonly maxHeartRate?: number;
  /** Set when the file is damaged: everything before the damage is in the streams. */
  readonly damage?: ActivityFileError;
}

/**
 * A lap as the device summed it up: where it starts (seconds from the first record) and
 * the device's own totals and averages; absent values were not recorded.
 */
export interface ActivityLap {
  readonly start: number;
  readonly timerS?: number;
  readonly elapsedS?: number;
  readonly distanceM?: number;
  readonly avgSpeedMs?: number;
  readonly maxSpeedMs?: number;
  readonly avgHeartRate?: number;
  readonly maxHeartRate?: number;
  readonly avgPower?: number;
  readonly maxPower?: number;
  readonly avgCadence?: number;
  readonly ascentM?: number;
  readonly calories?: number;
}

/** A FIT lap message as an `ActivityLap` (times relative to `first`), when it has a start. */
function lapOf(message: FitMessage, first: number): ActivityLap | undefined {
  const start = numberOf(message, 'startTime');
  if (start === undefined) return undefined;
  const entries: [keyof ActivityLap, number | undefined][] = [
    ['timerS', numberOf(message, 'totalTimerTime')],
    ['elapsedS', numberOf(message, 'totalElapsedTime')],
    ['distanceM', numberOf(message, 'totalDistance')],
    ['avgSpeedMs', numberOf(message, 'enhancedAvgSpeed') ?? numberOf(message, 'avgSpeed')],
    ['maxSpeedMs', numberOf(message, 'enhancedMaxSpeed') ?? numberOf(message, 'maxSpeed')],
    ['avgHeartRate', numberOf(message, 'avgHeartRate')],
    ['maxHeartRate', numberOf(message, 'maxHeartRate')],
    ['avgPower', numberOf(message, 'avgPower')],
    ['maxPower', numberOf(message, 'maxPower')],
    ['avgCadence', numberOf(message, 'avgCadence')],
    ['ascentM', numberOf(message, 'totalAscent')],
    ['calories', numberOf(message, 'totalCalories')],
  ];
  return {
    start: start - first,
    ...Object.fromEntries(entries.filter(([, value]) => value !== undefined)),
  };
}

// Timer event types: start, and the four kinds of stop.
export const TIMER_START = 0;
export const TIMER_STOPS: ReadonlySet<number> = new Set([1, 4, 8, 9]);

/** A timer event (FIT event 0) with its time and type. */
export const isTimerEvent = (
  event: FitMessage,
): event is FitMessage & { timestamp: number; eventType: number } =>
  event.event === 0 && typeof event.timestamp === 'number' && typeof event.eventType === 'number';

/**
 * The timer intervals of a file's timer events, relative to `first` (Unix seconds); the
 * timer still running at the end runs to `last`. `undefined` when the file has no timer
 * events.
 */
export function timerFromEvents(
  events: readonly FitMessage[],
  first: number,
  last: number,
): TimerIntervals | undefined {
  const timerEvents = events
    .filter(isTimerEvent)
    .map((event) => ({ t: event.timestamp - first, type: event.eventType }))
    .sort((a, b) => a.t - b.t);
  if (timerEvents.length === 0) return undefined;
  const intervals: [number, number][] = [];
  let open: number | undefined;
  for (const { t, type } of timerEvents) {
    if (type === TIMER_START) open ??= t;
    else if (TIMER_STOPS.has(type)) {
      // A stop with no start before it: the timer ran from the first record.
      const from = open ?? (intervals.length === 0 ? Math.min(0, t) : undefined);
      if (from !== undefined && t > from) intervals.push([from, t]);
      open = undefined;
    }
  }
  if (open !== undefined && last - first > open) intervals.push([open, last - first]);
  return intervals.length > 0 ? intervals : undefined;
}

/**
 * Records made from the pool lengths of a swim whose file holds no timed records (some
 * watches write only lengths): a point at each length's start, the distance growing by the
 * pool length over each active length.
 */
function recordsFromLengths(activity: FitActivity): FitActivity['records'] | undefined {
  const poolLength = numberOf(activity.sessions[0], 'poolLength');
  const lengths = activity.lengths
    .filter((length) => typeof length.startTime === 'number')
    .sort((a, b) => (a.startTime as number) - (b.startTime as number));
  if (lengths.length === 0) return undefined;
  const time: number[] = [];
  const distance: number[] = [];
  const speed: number[] = [];
  let metres = 0;
  // A point at each length's start (the distance before it), and one at the last one's end.
  for (const [index, length] of lengths.entries()) {
    const start = length.startTime as number;
    const active = length.lengthType !== 0;
    time.push(start);
    distance.push(poolLength !== undefined ? metres : Number.NaN);
    speed.push(active ? (numberOf(length, 'avgSpeed') ?? Number.NaN) : 0);
    if (active && poolLength !== undefined) metres += poolLength;
    if (index === lengths.length - 1) {
      const elapsed =
        numberOf(length, 'totalElapsedTime') ?? numberOf(length, 'totalTimerTime') ?? 0;
      time.push(start + elapsed);
      distance.push(poolLength !== undefined ? metres : Number.NaN);
      speed.push(0);
    }
  }
  const nan = () => new Float64Array(time.length).fill(Number.NaN);
  const columns: Record<string, unknown> = { length: time.length, developer: {} };
  for (const name of Object.keys(activity.records))
    if (name !== 'length' && name !== 'developer') columns[name] = nan();
  Object.assign(columns, {
    timestamp: Float64Array.from(time),
    distance: Float64Array.from(distance),
    speed: Float64Array.from(speed),
  });
  return columns as FitActivity['records'];
}

/**
 * A pool swim's speed and distance at each record, from the device's lengths: watches write
 * a lap swim's records with the time (and heart rate) only, or speed on a few of them, while
 * its lengths say when the swimmer swam (active lengths, each one pool length) and when they
 * rested (idle lengths). A record inside an active length swims at that length's speed, the
 * distance growing through it; anywhere else the swimmer rests. `undefined` when the file is
 * no pool swim with active lengths.
 */
function poolColumns(
  activity: FitActivity,
  records: FitActivity['records'],
): { speed: Float64Array; distance: Float64Array } | undefined {
  const poolLength = numberOf(activity.sessions[0], 'poolLength');
  if (poolLength === undefined) return undefined;
  const lengths = activity.lengths
    .filter(
      (length) =>
        typeof length.startTime === 'number' &&
        (numberOf(length, 'totalElapsedTime') ?? numberOf(length, 'totalTimerTime')) !== undefined,
    )
    .map((length) => {
      const start = length.startTime as number;
      const seconds = (numberOf(length, 'totalElapsedTime') ?? numberOf(length, 'totalTimerTime'))!;
      return {
        start,
        end: start + seconds,
        active: length.lengthType !== 0,
        speed: numberOf(length, 'avgSpeed') ?? poolLength / seconds,
      };
    })
    .sort((a, b) => a.start - b.start);
  if (!lengths.some((length) => length.active)) return undefined;
  const before: number[] = [];
  let metres = 0;
  for (const length of lengths) {
    before.push(metres);
    if (length.active) metres += poolLength;
  }
  const n = records.length;
  const speed = new Float64Array(n).fill(Number.NaN);
  const distance = new Float64Array(n).fill(Number.NaN);
  for (let i = 0; i < n; i++) {
    const t = records.timestamp[i]!;
    if (Number.isNaN(t)) continue;
    // The last length starting at or before t (lengths are few: a binary search).
    let lo = 0;
    let hi = lengths.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lengths[mid]!.start <= t) lo = mid + 1;
      else hi = mid;
    }
    const k = lo - 1;
    const length = lengths[k];
    if (length && length.active && t < length.end) {
      speed[i] = length.speed;
      distance[i] = before[k]! + (poolLength * (t - length.start)) / (length.end - length.start);
    } else {
      speed[i] = 0;
      distance[i] = length ? before[k]! + (length.active ? poolLength : 0) : 0;
    }
  }
  return { speed, distance };
}

/** Each session's [start, end] in Unix seconds (NaN where the message does not tell). */
function sessionWindows(sessions: readonly FitMessage[]): [number, number][] {
  const field = (message: FitMessage, name: string) =>
    typeof message[name] === 'number' ? message[name] : Number.NaN;
  const byStart = sessions.map((message): [number, number] => {
    const start = field(message, 'startTime');
    const elapsed = field(message, 'totalElapsedTime');
    const stamp = field(message, 'timestamp');
    // The later of its elapsed end and its timestamp (a watch's elapsed time may leave out
    // time its timer events count).
    const end = Math.max(Number.isFinite(elapsed) ? start + elapsed : -Infinity, stamp);
    return [start, Number.isFinite(end) ? end : Number.NaN];
  });
  return byStart.map((window, index) => {
    const next = byStart[index + 1];
    const message = sessions[index]!;
    const stamp = field(message, 'timestamp');
    const elapsed = field(message, 'totalElapsedTime');
    if (
      next &&
      window[1] > next[0] + 1 &&
      stamp - elapsed <= next[0] + 1 &&
      stamp > next[0] - elapsed - 1
    )
      return [stamp - elapsed, stamp];
    return window;
  });
}

const numberOf = (message: FitMessage | undefined, field: string) => {
  const value = message?.[field];
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
};

function meanOf(a: Float64Array, b: Float64Array): Float64Array {
  return Float64Array.from(a, (left, i) => {
    const right = b[i]!;
    if (Number.isNaN(left)) return right;
    if (Number.isNaN(right)) return left;
    return (left + right) / 2;
  });
}

const recorded = (column: Float64Array | undefined) =>
  column && column.some((value) => !Number.isNaN(value)) ? column : undefined;

/**
 * The streams of a decoded FIT activity: records ordered as stored, records without a
 * timestamp dropped. Torque effectiveness and pedal smoothness are the mean of the legs
 * (pedal smoothness prefers the combined value). A muscle-oxygen sensor's saturation and
 * total haemoglobin are `smo2` and `thb` (their per-record minimum and maximum stay in the
 * record columns).
 */
export function activityOverview(activity: FitActivity): ActivityOverview {
  let timed = 0;
  for (let i = 0; i < activity.records.length && timed < 2; i++)
    if (!Number.isNaN(activity.records.timestamp[i]!)) timed++;
  const records =
    timed >= 2 ? activity.records : (recordsFromLengths(activity) ?? activity.records);
  const keep: number[] = [];
  for (let i = 0; i < records.length; i++) if (!Number.isNaN(records.timestamp[i]!)) keep.push(i);
  const pick = (column: Float64Array) => Float64Array.from(keep, (i) => column[i]!);
  // A sensor's column, present only in the files whose records carry it.
  const pickSensor = (column: Float64Array | undefined) => (column ? pick(column) : undefined);
  const first = keep.length > 0 ? records.timestamp[keep[0]!]! : undefined;
  const session = activity.sessions[0];
  const fallbackStart =
    typeof session?.startTime === 'number'
      ? session.startTime
      : typeof activity.fileId?.timeCreated === 'number'
        ? activity.fileId.timeCreated
        : undefined;
  const sport = session?.sport ?? activity.sports[0]?.sport;
  const torque = recorded(
    pick(meanOf(records.leftTorqueEffectiveness, records.rightTorqueEffectiveness)),
  );
  // A lap swim's speed and distance come from its lengths (see `poolColumns`).
  const pool = timed >= 2 ? poolColumns(activity, records) : undefined;
  const combined = recorded(pick(records.combinedPedalSmoothness));
  const smoothness =
    combined ?? recorded(pick(meanOf(records.leftPedalSmoothness, records.rightPedalSmoothness)));
  const channels = {
    power: recorded(pick(records.power)),
    heartRate: recorded(pick(records.heartRate)),
    cadence: recorded(pick(records.cadence)),
    speed: recorded(pick(pool?.speed ?? records.speed)),
    distance: recorded(pick(pool?.distance ?? records.distance)),
    altitude: recorded(pick(records.altitude)),
    latitude: recorded(pick(records.latitude)),
    longitude: recorded(pick(records.longitude)),
    temperature: recorded(pick(records.temperature)),
    leftRightBalance: recorded(pick(records.leftRightBalance)),
    torqueEffectiveness: torque,
    pedalSmoothness: smoothness,
    smo2: recorded(pickSensor(records.saturatedHemoglobinPercent)),
    thb: recorded(pickSensor(records.totalHemoglobinConc)),
  };
  const streams: ActivityStreams = {
    time: Float64Array.from(keep, (i) => records.timestamp[i]! - first!),
    ...Object.fromEntries(Object.entries(channels).filter(([, column]) => column !== undefined)),
  };
  const lastRecord = keep.length > 0 ? records.timestamp[keep[keep.length - 1]!]! : undefined;
  // A session runs from its start time to its end. Some watches write a wrong start
  // time into a session of a multisport file: where that window runs into the next
  // session's, the session is taken to end at its timestamp instead.
  const windows = sessionWindows(activity.sessions);
  const sessionEnds = windows.map(([, end]) => end);
  const last = Math.max(lastRecord ?? -Infinity, ...sessionEnds.filter(Number.isFinite));
  const timer =
    first !== undefined && Number.isFinite(last)
      ? timerFromEvents(activity.events, first, last)
      : undefined;
  const sessions: ActivitySession[] =
    first === undefined
      ? []
      : activity.sessions.map((message, index) => ({
          start: (Number.isFinite(windows[index]![0]) ? windows[index]![0] : first) - first,
          end: (Number.isFinite(sessionEnds[index]!) ? sessionEnds[index]! : last) - first,
          sportType: sportType(typeof message.sport === 'number' ? message.sport : undefined),
          device: message,
        }));
  const zones = activity.zonesTargets[0];
  const ftpWatts =
    numberOf(session, 'thresholdPower') ?? numberOf(zones, 'functionalThresholdPower');
  const maxHeartRate = numberOf(zones, 'maxHeartRate');
  const laps =
    first === undefined
      ? []
      : activity.laps.flatMap((message) => {
          const lap = lapOf(message, first);
          return lap ? [lap] : [];
        });
  return {
    startTime: first ?? fallbackStart,
    sportType: sportType(typeof sport === 'number' ? sport : undefined),
    streams,
    ...(timer ? { timer } : {}),
    sessions,
    ...(laps.length > 0 ? { laps } : {}),
    ...(ftpWatts !== undefined ? { ftpWatts } : {}),
    ...(maxHeartRate !== undefined ? { maxHeartRate } : {}),
    ...(activity.damage ? { damage: activity.damage } : {}),
  };
}
