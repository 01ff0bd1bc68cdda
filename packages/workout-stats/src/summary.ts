import { distanceInUserUnit, type DistanceUnit, type DistanceUnitSetting } from '@xoss/data-fields';
import { elevationGainLoss, gradeSeries } from './elevation.ts';
import {
  intensityFactor,
  normalizedPower,
  trainingStressScore,
  tssSeconds,
} from './normalizedPower.ts';
import type { RideStreams } from './streams.ts';
import {
  clipTimer,
  haversineMetres,
  normalizeTimer,
  oneHertzSeries,
  sampleIndexAt,
  timerFromSamples,
  timeline,
  type Timeline,
  type TimerIntervals,
} from './timeline.ts';
import { heartRateZoneTimes, powerZoneTimes, type ZoneDistribution } from './zones.ts';

/** Mechanical efficiency used to turn work into food energy. */
export const GROSS_EFFICIENCY = 0.24;

/** The rider's settings the summary needs. */
export interface RiderSettings {
  readonly ftpWatts?: number;
  readonly maxHeartRate?: number;
  /** 0 = kilometres, any other number = miles (spec 3). */
  readonly distanceUnit?: DistanceUnitSetting;
  /** For heart-rate-based calories only. */
  readonly weightKg?: number;
  readonly ageYears?: number;
  readonly sex?: 'male' | 'female';
}

/** The summary of a workout (spec 3), in base units unless named otherwise. */
export interface WorkoutSummary {
  /** Elapsed time: from the first sample to the end of the last, seconds. */
  readonly totalTimeS: number;
  /** Seconds the device's timer ran (the bike computer's "Time"). */
  readonly timerTimeS: number;
  /** Seconds of timer time spent moving. */
  readonly movingTimeS: number;
  /** Seconds the timer was stopped (auto-pause, manual pause): elapsed minus timer time. */
  readonly pausedTimeS: number;
  /** Seconds the timer ran while the rider stood still: timer minus moving time. */
  readonly stoppedTimeS: number;
  /** Metres, from the distance channel, else GPS positions, else speed. */
  readonly distanceM: number;
  /** Metres from integrating speed over moving time (speed sensor, trainer); `undefined` without speed. */
  readonly estimatedDistanceM?: number;
  /** Distance in the user's unit (km when the unit setting is 0, else mi). */
  readonly distance: { readonly value: number; readonly unit: DistanceUnit };
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

function valid(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value);
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

/** Seconds over which a speed is read from the distance: one step of GPS noise is no speed. */
const SPEED_SPAN_S = 3;

/**
 * The highest speed the distance channel shows, without a speed channel (TCX and GPX files
 * often have none): the distance covered over at least `SPEED_SPAN_S` seconds from each
 * sample, so a single jump of the distance (a GPS fix catching up) does not count as speed.
 */
function maxSpeedFromDistance(streams: RideStreams): number | undefined {
  const { time, distance } = streams;
  if (!distance) return undefined;
  let best: number | undefined;
  let j = 0;
  for (let i = 0; i < time.length; i++) {
    if (!valid(distance[i]) || !valid(time[i])) continue;
    if (j <= i) j = i + 1;
    while (j < time.length && !(time[j]! - time[i]! >= SPEED_SPAN_S)) j++;
    if (j >= time.length) break;
    const span = time[j]! - time[i]!;
    const metres = distance[j]! - distance[i]!;
    // Across a pause the distance does not tell a speed.
    if (!valid(metres) || span > SPEED_SPAN_S * 4) continue;
    const speed = metres / span;
    if (best === undefined || speed > best) best = speed;
  }
  return best;
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

/** How the summary counts time: the device's timer, when the file tells it. */
export interface SummaryOptions {
  /** Where the timer ran (from the file's timer events); else judged from the samples. */
  readonly timer?: TimerIntervals;
}

/**
 * The summary of a workout from its streams (1 Hz, smart recording or irregular).
 *
 * @remarks
 * Conventions (see the README): the timer runs where the file's timer events say, else
 * between samples except across gaps of more than 5 s in which the rider did not move.
 * Each sample stands for the time to the next one; that time is moving when the device's
 * speed reading says 0.5 m/s or more, else when the distance (or position) grew at that
 * speed (a step without distance judged between the distance's updates around it). Averages of heart rate and power, NP,
 * IF and TSS are over timer time (as the bike computer counts them); speed is over moving
 * time; cadence excludes zeros.
 */
export function summarizeWorkout(
  streams: RideStreams,
  settings: RiderSettings = {},
  options: SummaryOptions = {},
): WorkoutSummary {
  return summarize(streams, timeline(streams, options), settings);
}

/**
 * The summary of samples `from..to` (exclusive end) of a ride: the statistics of a zoomed
 * chart range. Pass the same timer as for the whole ride; a range over every sample equals
 * the ride's summary.
 */
export function summarizeRange(
  streams: RideStreams,
  from: number,
  to: number,
  settings: RiderSettings = {},
  options: SummaryOptions = {},
): WorkoutSummary {
  const start = Math.max(0, Math.min(from, to, streams.time.length));
  const end = Math.min(streams.time.length, Math.max(from, to));
  const line = timeline(streams, { ...options, from: start, to: end });
  if (start === 0 && end === streams.time.length) return summarize(streams, line, settings);
  const sliced = Object.fromEntries(
    Object.entries(streams).map(([key, values]) => [
      key,
      (values as Float64Array).subarray(start, end),
    ]),
  ) as unknown as RideStreams;
  return summarize(sliced, line, settings);
}

/** The summary of `streams` (already cut to the timeline's range). */
function summarize(streams: RideStreams, line: Timeline, settings: RiderSettings): WorkoutSummary {
  const { time } = streams;
  const n = time.length;
  const { running, moving } = line;
  const movingTimeS = line.movingS;
  const timerTimeS = line.timerS;
  const totalTimeS = line.elapsedS;

  // Distance: recorded, else from positions, else from speed.
  let estimatedDistanceM: number | undefined;
  if (streams.speed) {
    estimatedDistanceM = 0;
    for (let i = 0; i < n; i++)
      if (moving[i] && valid(streams.speed[i]))
        estimatedDistanceM += streams.speed[i]! * running[i]!;
  }
  let distanceM = 0;
  const first = streams.distance
    ? Array.prototype.findIndex.call(streams.distance, Number.isFinite)
    : -1;
  if (streams.distance && first >= 0) {
    // Devices count distance from the timer's start: the first record of a ride may already
    // hold a few metres. A range counts from its own first sample.
    const from = line.from === 0 ? Math.min(0, streams.distance[first]!) : streams.distance[first]!;
    distanceM = (maximum(streams.distance) ?? 0) - from;
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

  // Power over timer time as a 1 Hz series: each sample held for the seconds it stands for.
  // The streams here are already cut to the range, so their first sample is the line's
  // first: read from 0, not from the line's place in the whole ride (a range read there
  // found no power past the ride's end and counted 0 W).
  const timerPower = streams.power
    ? oneHertzSeries(streams.power, { ...line, from: 0 }, 'timer')
    : undefined;
  let workJ = 0;
  if (streams.power)
    for (let i = 0; i < n; i++)
      if (valid(streams.power[i])) workJ += streams.power[i]! * running[i]!;
  const np = timerPower ? normalizedPower(timerPower) : undefined;
  const ftp = settings.ftpWatts;
  const avgPower =
    timerPower && timerPower.length > 0
      ? timerPower.reduce((a, b) => a + b, 0) / timerPower.length
      : undefined;

  const avgHeartRate = weightedAverage(streams.heartRate, running, (value) => value > 0);
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
    calories = Math.max(0, perMinute) * (timerTimeS / 60);
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
    ? Float64Array.from(streams.power, (watts, i) => (valid(watts) ? watts * running[i]! : 0))
    : running;
  const pedalling = (_: number, i: number) => moving[i] === 1 && (streams.power?.[i] ?? 0) > 0;
  const result: WorkoutSummary = {
    totalTimeS,
    timerTimeS,
    movingTimeS,
    pausedTimeS: Math.max(0, totalTimeS - timerTimeS),
    stoppedTimeS: Math.max(0, timerTimeS - movingTimeS),
    distanceM,
    ...(estimatedDistanceM !== undefined ? { estimatedDistanceM } : {}),
    distance: distanceInUserUnit(distanceM, settings.distanceUnit ?? 0),
    // No speed, distance or position at all (a trainer without a speed source): no speed
    // to tell, not 0 km/h.
    avgSpeedMs:
      movingTimeS > 0 && (streams.speed || streams.distance || streams.latitude)
        ? distanceM / movingTimeS
        : undefined,
    maxSpeedMs: maximum(streams.speed) ?? maxSpeedFromDistance(streams),
    avgHeartRate,
    maxHeartRate: maximum(streams.heartRate),
    avgPower,
    maxPower: maximum(streams.power),
    normalizedPower: np,
    intensityFactor: np !== undefined && ftp ? intensityFactor(np, ftp) : undefined,
    trainingStressScore:
      np !== undefined && ftp ? trainingStressScore(tssSeconds(timerTimeS), np, ftp) : undefined,
    avgCadence: weightedAverage(
      streams.cadence,
      running,
      (value, i) => value > 0 && moving[i] === 1,
    ),
    maxCadence: maximum(streams.cadence),
    calories,
    caloriesSource,
    ...elevation,
    leftRightBalance: weightedAverage(streams.leftRightBalance, powerWeights, pedalling),
    torqueEffectiveness: weightedAverage(streams.torqueEffectiveness, running, pedalling),
    pedalSmoothness: weightedAverage(streams.pedalSmoothness, running, pedalling),
    avgTemperatureC: weightedAverage(streams.temperature, running, () => true),
    heartRateZones:
      streams.heartRate && settings.maxHeartRate
        ? heartRateZoneTimes(streams.heartRate, settings.maxHeartRate, running)
        : undefined,
    powerZones: timerPower && ftp ? powerZoneTimes(timerPower, ftp) : undefined,
  };
  // Drop absent members so the summary serializes compactly.
  return Object.fromEntries(
    Object.entries(result).filter(([, value]) => value !== undefined),
  ) as unknown as WorkoutSummary;
}

/** One session of a multisport file, in the streams' time base. */
export interface SessionWindow {
  readonly start: number;
  readonly end: number;
}

/**
 * The summaries of a file's sessions (a triathlon: swim, transition, bike, ...) and of the
 * whole. Each session's timer is the file's timer inside the session, else (a file whose
 * timer events miss some sessions) judged from its samples; samples outside every session
 * (some devices keep recording after the session ends) are not counted. The whole adds the sessions'
 * timer, moving time and distance (devices restart the distance at each session); its other
 * figures come from all samples under that timer.
 */
export function summarizeSessions(
  streams: RideStreams,
  windows: readonly SessionWindow[],
  settings: RiderSettings = {},
  options: SummaryOptions = {},
): {
  readonly whole: WorkoutSummary;
  readonly sessions: readonly WorkoutSummary[];
  /** The timer every figure used: keep it to summarize ranges of the ride alike. */
  readonly timer: TimerIntervals;
} {
  windows = windows.filter(({ start, end }) => end > start);
  if (windows.length === 0) {
    const timer =
      options.timer && options.timer.length > 0
        ? normalizeTimer(options.timer)
        : timerFromSamples(streams);
    return { whole: summarizeWorkout(streams, settings, { timer }), sessions: [], timer };
  }
  const fromSamples = timerFromSamples(streams);
  const timer: [number, number][] = [];
  for (const { start, end } of windows) {
    const own = options.timer ? clipTimer(options.timer, start, end) : [];
    for (const interval of own.length > 0 ? own : clipTimer(fromSamples, start, end))
      timer.push([interval[0], interval[1]]);
  }
  const merged = normalizeTimer(timer);
  const { time } = streams;
  const index = (t: number) => sampleIndexAt(time, t);
  const sessions = windows.map(({ start, end }) =>
    summarizeRange(streams, index(start), index(end), settings, {
      timer: clipTimer(merged, start, end),
    }),
  );
  if (sessions.length === 1)
    return {
      whole: summarizeWorkout(streams, settings, { timer: merged }),
      sessions,
      timer: merged,
    };
  const whole = summarizeWorkout(streams, settings, { timer: merged });
  const sum = (pick: (summary: WorkoutSummary) => number) =>
    sessions.reduce((total, summary) => total + pick(summary), 0);
  const distanceM = sum((summary) => summary.distanceM);
  const movingTimeS = whole.movingTimeS;
  return {
    timer: merged,
    whole: {
      ...whole,
      distanceM,
      distance: distanceInUserUnit(distanceM, settings.distanceUnit ?? 0),
      ...(movingTimeS > 0 ? { avgSpeedMs: distanceM / movingTimeS } : {}),
    },
    sessions,
  };
}

/**
 * The summary with IF and TSS for another FTP (the one in effect on the ride's date): NP
 * does not depend on it, so no stream is read. Without an FTP, IF and TSS are absent.
 */
export function withFtp(summary: WorkoutSummary, ftpWatts: number | undefined): WorkoutSummary {
  const {
    intensityFactor: _intensity,
    trainingStressScore: _stress,
    powerZones: _zones,
    ...rest
  } = summary;
  const np = summary.normalizedPower;
  if (np === undefined || !ftpWatts || !(ftpWatts > 0)) return rest;
  return {
    ...rest,
    intensityFactor: intensityFactor(np, ftpWatts),
    trainingStressScore: trainingStressScore(tssSeconds(summary.timerTimeS), np, ftpWatts),
  };
}
