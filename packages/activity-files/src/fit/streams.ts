import { sportType } from './profile.ts';
import type { FitActivity } from './types.ts';

/**
 * Activity streams in base units, shaped as `@xoss/workout-stats` reads them (`RideStreams`):
 * `time` in seconds since the first record; channels never recorded are absent.
 */
export interface ActivityStreams {
  readonly time: Float64Array;
  readonly power?: Float64Array;
  readonly heartRate?: Float64Array;
  readonly cadence?: Float64Array;
  readonly speed?: Float64Array;
  readonly distance?: Float64Array;
  readonly altitude?: Float64Array;
  readonly latitude?: Float64Array;
  readonly longitude?: Float64Array;
  readonly temperature?: Float64Array;
  readonly leftRightBalance?: Float64Array;
  readonly torqueEffectiveness?: Float64Array;
  readonly pedalSmoothness?: Float64Array;
}

/** What an import needs from a FIT file: when, which sport, and the streams. */
export interface ActivityOverview {
  /** Unix seconds of the first record (else the session start or file creation). */
  readonly startTime: number | undefined;
  /** The spec's sport type 0-11 (0 Generic when unknown). */
  readonly sportType: number;
  readonly streams: ActivityStreams;
}

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
 * (pedal smoothness prefers the combined value).
 */
export function activityOverview(activity: FitActivity): ActivityOverview {
  const { records } = activity;
  const keep: number[] = [];
  for (let i = 0; i < records.length; i++) if (!Number.isNaN(records.timestamp[i]!)) keep.push(i);
  const pick = (column: Float64Array) => Float64Array.from(keep, (i) => column[i]!);
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
  const combined = recorded(pick(records.combinedPedalSmoothness));
  const smoothness =
    combined ?? recorded(pick(meanOf(records.leftPedalSmoothness, records.rightPedalSmoothness)));
  const channels = {
    power: recorded(pick(records.power)),
    heartRate: recorded(pick(records.heartRate)),
    cadence: recorded(pick(records.cadence)),
    speed: recorded(pick(records.speed)),
    distance: recorded(pick(records.distance)),
    altitude: recorded(pick(records.altitude)),
    latitude: recorded(pick(records.latitude)),
    longitude: recorded(pick(records.longitude)),
    temperature: recorded(pick(records.temperature)),
    leftRightBalance: recorded(pick(records.leftRightBalance)),
    torqueEffectiveness: torque,
    pedalSmoothness: smoothness,
  };
  const streams: ActivityStreams = {
    time: Float64Array.from(keep, (i) => records.timestamp[i]! - first!),
    ...Object.fromEntries(Object.entries(channels).filter(([, column]) => column !== undefined)),
  };
  return {
    startTime: first ?? fallbackStart,
    sportType: sportType(typeof sport === 'number' ? sport : undefined),
    streams,
  };
}
