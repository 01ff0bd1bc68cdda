import { elevationGainLoss, gradeSeries } from './elevation.ts';
import { normalizedPower, intensityFactor, trainingStressScore } from './normalizedPower.ts';
import type { RideStreams } from './simulate.ts';
import { heartRateZoneTimes, powerZoneTimes, type ZoneDistribution } from './zones.ts';

/** A gap between samples longer than this (seconds) is a pause: auto-pause or signal loss. */
export const PAUSE_GAP_S = 5;
/** Below this speed (m/s, 1.8 km/h) the rider is stopped. */
export const MOVING_SPEED_MS = 0.5;
/** Mechanical efficiency used to turn work into food energy. */
export const GROSS_EFFICIENCY = 0.24;

/** The rider's settings the summary needs. */
export interface RiderSettings {
  readonly ftpWatts?: number;
  readonly maxHeartRate?: number;
  /** 0 = kilometres, any other number = miles (spec 3). */
  readonly distanceUnit?: number;
  /** For heart-rate-based calories only. */
  readonly weightKg?: number;
  readonly ageYears?: number;
  readonly sex?: 'male' | 'female';
}

/** The summary of a workout (spec 3), in base units unless named otherwise. */
export interface WorkoutSummary {
  readonly totalTimeS: number;
  readonly movingTimeS: number;
  readonly pausedTimeS: number;
  /** Metres, from the distance channel, else GPS positions, else speed. */
  readonly distanceM: number;
  /** Metres from integrating speed over moving time (speed sensor, trainer); `undefined` without speed. */
  readonly estimatedDistanceM?: number;
  /** Distance in the user's unit (km when the unit setting is 0, else mi). */
  readonly distance: { readonly value: number; readonly unit: 'km' | 'mi' };
  readonly avgSpeedMs?: number;
  readonly maxSpeedMs?: number;
  readonly avgHeartRate?: number;
  readonly maxHeartRate?: number;
  readonly avgPower?: number;
  readonly maxPower?: number;
  readonly normalizedPower?: number;
  readonly intensityFactor?: number;
  readonly trainingStressScore?: number;
  readonly avgCadence?: number;
  readonly maxCadence?: number;
  readonly calories?: number;
  readonly caloriesSource?: 'power' | 'heartRate';
  readonly elevationGainM?: number;
  readonly elevationLossM?: number;
  readonly maxElevationM?: number;
  readonly minElevationM?: number;
  readonly maxGradePercent?: number;
  readonly minGradePercent?: number;
  /** Percent of power from the left leg, power-weighted. */
  readonly leftRightBalance?: number;
  readonly torqueEffectiveness?: number;
  readonly pedalSmoothness?: number;
  readonly avgTemperatureC?: number;
  readonly heartRateZones?: ZoneDistribution;
  readonly powerZones?: ZoneDistribution;
}

const EARTH_RADIUS_M = 6371008.8;

/** Great-circle distance in metres between two positions in degrees. */
export function haversineMetres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

function valid(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value);
}

/**
 * Seconds each sample stands for: the time to the next sample, or 1 s for the last one;
 * gaps over `PAUSE_GAP_S` stand for 1 s and the rest of the gap is paused.
 */
export function sampleDurations(time: ArrayLike<number>): Float64Array {
  const n = time.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const dt = i + 1 < n ? time[i + 1]! - time[i]! : 1;
    out[i] = dt > PAUSE_GAP_S || !(dt > 0) ? (dt > 0 ? 1 : 0) : dt;
  }
  return out;
}

function weightedAverage(
  values: ArrayLike<number> | undefined,
  weights: ArrayLike<number>,
  include: (value: number, i: number) => boolean,
): number | undefined {
  if (!values) return undefined;
  let sum = 0;
  let weight = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (!Number.isFinite(value) || !include(value, i)) continue;
    sum += value * weights[i]!;
    weight += weights[i]!;
  }
  return weight > 0 ? sum / weight : undefined;
}

function maximum(values: ArrayLike<number> | undefined, sign = 1): number | undefined {
  if (!values) return undefined;
  let best: number | undefined;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (Number.isFinite(value) && (best === undefined || value * sign > best * sign)) best = value;
  }
  return best;
}

/**
 * The summary of a workout from its streams (1 Hz or irregular).
 *
 * @remarks
 * Conventions (see the README): a sample is moving when its speed is at least 0.5 m/s (or,
 * without speed, when power or cadence is above zero or distance grew); a gap of more than
 * 5 s between samples is paused time. Averages of speed, power, heart rate and cadence
 * are over moving time; power averages include zeros (coasting), cadence averages exclude
 * them. NP, IF and TSS use the moving 1 Hz power series and moving time.
 */
export function summarizeWorkout(
  streams: RideStreams,
  settings: RiderSettings = {},
): WorkoutSummary {
  const { time } = streams;
  const n = time.length;
  const durations = sampleDurations(time);
  const totalTimeS = n > 1 ? time[n - 1]! - time[0]! + 1 : n;
  const moving = new Uint8Array(n);
  let movingTimeS = 0;
  for (let i = 0; i < n; i++) {
    const speed = streams.speed?.[i];
    const isMoving = valid(speed)
      ? speed >= MOVING_SPEED_MS
      : (streams.power?.[i] ?? 0) > 0 ||
        (streams.cadence?.[i] ?? 0) > 0 ||
        (i + 1 < n && (streams.distance?.[i + 1] ?? 0) > (streams.distance?.[i] ?? 0));
    moving[i] = isMoving ? 1 : 0;
    if (isMoving) movingTimeS += durations[i]!;
  }

  // Distance: recorded, else from positions, else from speed.
  let estimatedDistanceM: number | undefined;
  if (streams.speed) {
    estimatedDistanceM = 0;
    for (let i = 0; i < n; i++)
      if (moving[i] && valid(streams.speed[i]))
        estimatedDistanceM += streams.speed[i]! * durations[i]!;
  }
  let distanceM = 0;
  const first = streams.distance
    ? Array.prototype.findIndex.call(streams.distance, Number.isFinite)
    : -1;
  if (streams.distance && first >= 0) {
    distanceM = (maximum(streams.distance) ?? 0) - streams.distance[first]!;
  } else if (streams.latitude && streams.longitude) {
    let previous = -1;
    for (let i = 0; i < n; i++) {
      if (!valid(streams.latitude[i]) || !valid(streams.longitude[i])) continue;
      if (previous >= 0)
        distanceM += haversineMetres(
          streams.latitude[previous]!,
          streams.longitude[previous]!,
          streams.latitude[i]!,
          streams.longitude[i]!,
        );
      previous = i;
    }
  } else {
    distanceM = estimatedDistanceM ?? 0;
  }
  const miles = (settings.distanceUnit ?? 0) !== 0;

  // Power over moving time as a 1 Hz series (an interval of k seconds repeats its sample k times).
  let movingPower: Float64Array | undefined;
  let workJ = 0;
  if (streams.power) {
    const series: number[] = [];
    for (let i = 0; i < n; i++) {
      if (!moving[i]) continue;
      const watts = valid(streams.power[i]) ? streams.power[i]! : 0;
      for (let k = 0; k < Math.max(1, Math.round(durations[i]!)); k++) series.push(watts);
      workJ += watts * durations[i]!;
    }
    movingPower = Float64Array.from(series);
  }
  const np = movingPower ? normalizedPower(movingPower) : undefined;
  const ftp = settings.ftpWatts;
  const avgPower =
    movingPower && movingPower.length > 0
      ? movingPower.reduce((a, b) => a + b, 0) / movingPower.length
      : undefined;

  const avgHeartRate = weightedAverage(
    streams.heartRate,
    durations,
    (value, i) => value > 0 && moving[i] === 1,
  );
  let calories: number | undefined;
  let caloriesSource: WorkoutSummary['caloriesSource'];
  if (streams.power && workJ > 0) {
    calories = workJ / 1000 / (4.184 * GROSS_EFFICIENCY);
    caloriesSource = 'power';
  } else if (avgHeartRate !== undefined) {
    // Keytel et al. (2005), kcal per minute from heart rate, weight and age.
    const weight = settings.weightKg ?? 75;
    const age = settings.ageYears ?? 35;
    const perMinute =
      settings.sex === 'female'
        ? (-20.4022 + 0.4472 * avgHeartRate - 0.1263 * weight + 0.074 * age) / 4.184
        : (-55.0969 + 0.6309 * avgHeartRate + 0.1988 * weight + 0.2017 * age) / 4.184;
    calories = Math.max(0, perMinute) * (movingTimeS / 60);
    caloriesSource = 'heartRate';
  }

  let elevation: Partial<WorkoutSummary> = {};
  if (streams.altitude) {
    const { gain, loss } = elevationGainLoss(streams.altitude);
    const grade = streams.distance ? gradeSeries(streams.distance, streams.altitude) : undefined;
    elevation = {
      elevationGainM: gain,
      elevationLossM: loss,
      maxElevationM: maximum(streams.altitude),
      minElevationM: maximum(streams.altitude, -1),
      ...(grade ? { maxGradePercent: maximum(grade), minGradePercent: maximum(grade, -1) } : {}),
    };
  }

  const powerWeights = streams.power
    ? Float64Array.from(streams.power, (watts, i) => (valid(watts) ? watts * durations[i]! : 0))
    : durations;
  const pedalling = (_: number, i: number) => moving[i] === 1 && (streams.power?.[i] ?? 0) > 0;
  const result: WorkoutSummary = {
    totalTimeS,
    movingTimeS,
    pausedTimeS: Math.max(0, totalTimeS - movingTimeS),
    distanceM,
    ...(estimatedDistanceM !== undefined ? { estimatedDistanceM } : {}),
    distance: miles
      ? { value: distanceM / 1609.344, unit: 'mi' }
      : { value: distanceM / 1000, unit: 'km' },
    avgSpeedMs: movingTimeS > 0 ? distanceM / movingTimeS : undefined,
    maxSpeedMs: maximum(streams.speed),
    avgHeartRate,
    maxHeartRate: maximum(streams.heartRate),
    avgPower,
    maxPower: maximum(streams.power),
    normalizedPower: np,
    intensityFactor: np !== undefined && ftp ? intensityFactor(np, ftp) : undefined,
    trainingStressScore:
      np !== undefined && ftp ? trainingStressScore(movingTimeS, np, ftp) : undefined,
    avgCadence: weightedAverage(
      streams.cadence,
      durations,
      (value, i) => value > 0 && moving[i] === 1,
    ),
    maxCadence: maximum(streams.cadence),
    calories,
    caloriesSource,
    ...elevation,
    leftRightBalance: weightedAverage(streams.leftRightBalance, powerWeights, pedalling),
    torqueEffectiveness: weightedAverage(streams.torqueEffectiveness, durations, pedalling),
    pedalSmoothness: weightedAverage(streams.pedalSmoothness, durations, pedalling),
    avgTemperatureC: weightedAverage(streams.temperature, durations, () => true),
    heartRateZones:
      streams.heartRate && settings.maxHeartRate
        ? heartRateZoneTimes(streams.heartRate, settings.maxHeartRate, durations)
        : undefined,
    powerZones: movingPower && ftp ? powerZoneTimes(movingPower, ftp) : undefined,
  };
  // Drop absent members so the summary serializes compactly.
  return Object.fromEntries(
    Object.entries(result).filter(([, value]) => value !== undefined),
  ) as unknown as WorkoutSummary;
}

/**
 * The summary of samples `from..to` (exclusive end) of a ride: the statistics of a zoomed
 * chart range on the share page.
 */
export function summarizeRange(
  streams: RideStreams,
  from: number,
  to: number,
  settings: RiderSettings = {},
): WorkoutSummary {
  const start = Math.max(0, Math.min(from, to));
  const end = Math.min(streams.time.length, Math.max(from, to));
  const sliced = Object.fromEntries(
    Object.entries(streams).map(([key, values]) => [
      key,
      (values as Float64Array).subarray(start, end),
    ]),
  ) as unknown as RideStreams;
  return summarizeWorkout(sliced, settings);
}
