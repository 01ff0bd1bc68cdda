import { summarizeWorkout, timerFromSamples, type RiderSettings } from '@xoss/workout-stats';
import type { ActivityStreams } from './streams.ts';
import {
  recordColumnNames,
  type FitActivity,
  type FitMessage,
  type RecordColumns,
} from './types.ts';

/** What a FIT file says about the ride besides its streams. */
export interface ActivityMetadata {
  /** Unix seconds of the first sample. */
  readonly startTime: number;
  /** FIT sport (0-11 are the spec's sport types). */
  readonly sport: number;
  readonly serialNumber?: number;
  readonly productName?: string;
  readonly settings?: RiderSettings;
}

// Snaps a value to the grid a FIT field stores it at, so encode then decode gives it back.
// It uses the decoder's own arithmetic (raw / scale - offset), so the values are bit-exact.
const snap = (value: number, scale: number, offset = 0) =>
  Number.isNaN(value) ? Number.NaN : Math.round((value + offset) * scale) / scale - offset;
const snapColumn = (column: Float64Array | undefined, length: number, scale: number, offset = 0) =>
  column
    ? Float64Array.from(column, (value) => snap(value, scale, offset))
    : new Float64Array(length).fill(Number.NaN);
const SEMICIRCLE = 180 / 2 ** 31;
const snapPosition = (column: Float64Array | undefined, length: number) =>
  column
    ? Float64Array.from(column, (value) =>
        Number.isNaN(value) ? Number.NaN : Math.round(value / SEMICIRCLE) * SEMICIRCLE,
      )
    : new Float64Array(length).fill(Number.NaN);

/**
 * A FIT activity from streams: file id, sport, a start and stop event, records and one
 * lap and session holding the device's own summary (computed with `@xoss/workout-stats`).
 * Values are snapped to each field's FIT resolution. The demo data and tests write real
 * FIT files with it.
 */
export function activityFromStreams(
  streams: ActivityStreams,
  metadata: ActivityMetadata,
): FitActivity {
  const n = streams.time.length;
  const columns: Record<string, unknown> = {
    length: n,
    developer: {},
    timestamp: Float64Array.from(streams.time, (t) => metadata.startTime + Math.round(t)),
    latitude: snapPosition(streams.latitude, n),
    longitude: snapPosition(streams.longitude, n),
    altitude: snapColumn(streams.altitude, n, 5, 500),
    heartRate: snapColumn(streams.heartRate, n, 1),
    cadence: snapColumn(streams.cadence, n, 1),
    distance: snapColumn(streams.distance, n, 100),
    speed: snapColumn(streams.speed, n, 1000),
    power: snapColumn(streams.power, n, 1),
    temperature: snapColumn(streams.temperature, n, 1),
    leftRightBalance: snapColumn(streams.leftRightBalance, n, 1),
    leftTorqueEffectiveness: snapColumn(streams.torqueEffectiveness, n, 2),
    rightTorqueEffectiveness: snapColumn(streams.torqueEffectiveness, n, 2),
    leftPedalSmoothness: new Float64Array(n).fill(Number.NaN),
    rightPedalSmoothness: new Float64Array(n).fill(Number.NaN),
    combinedPedalSmoothness: snapColumn(streams.pedalSmoothness, n, 2),
    // A muscle-oxygen sensor's columns only when the streams have them (as a decoded file).
    ...(streams.smo2 ? { saturatedHemoglobinPercent: snapColumn(streams.smo2, n, 10) } : {}),
    ...(streams.thb ? { totalHemoglobinConc: snapColumn(streams.thb, n, 100) } : {}),
  };
  for (const name of recordColumnNames)
    if (!(name in columns)) throw new Error(`missing column ${name}`);
  const records = columns as RecordColumns;
  const summary = summarizeWorkout(streams, metadata.settings ?? {});
  const end = metadata.startTime + (n > 0 ? Math.round(streams.time[n - 1]!) : 0);
  const round = (value: number | undefined, scale: number) =>
    value === undefined ? undefined : snap(value, scale);
  const totals: Record<string, number | undefined> = {
    timestamp: end,
    startTime: metadata.startTime,
    totalElapsedTime: round(summary.totalTimeS, 1000),
    totalTimerTime: round(summary.timerTimeS, 1000),
    totalDistance: round(summary.distanceM, 100),
    totalCalories: round(summary.calories, 1),
    avgSpeed: round(summary.avgSpeedMs, 1000),
    maxSpeed: round(summary.maxSpeedMs, 1000),
    avgHeartRate: round(summary.avgHeartRate, 1),
    maxHeartRate: round(summary.maxHeartRate, 1),
    avgCadence: round(summary.avgCadence, 1),
    maxCadence: round(summary.maxCadence, 1),
    avgPower: round(summary.avgPower, 1),
    maxPower: round(summary.maxPower, 1),
    totalAscent: round(summary.elevationGainM, 1),
    totalDescent: round(summary.elevationLossM, 1),
  };
  const defined = (values: Record<string, number | string | undefined>): FitMessage =>
    Object.fromEntries(
      Object.entries(values).filter(([, value]) => value !== undefined),
    ) as FitMessage;
  return {
    fileId: defined({
      type: 4,
      manufacturer: 255,
      product: 1,
      serialNumber: metadata.serialNumber,
      timeCreated: metadata.startTime,
      productName: metadata.productName,
    }),
    deviceInfos: [],
    sports: [defined({ sport: metadata.sport, subSport: 0 })],
    zonesTargets:
      metadata.settings?.maxHeartRate || metadata.settings?.ftpWatts
        ? [
            defined({
              maxHeartRate: metadata.settings.maxHeartRate,
              functionalThresholdPower: metadata.settings.ftpWatts,
            }),
          ]
        : [],
    // Timer start and stop events where the timer ran (pauses as stop_all / start).
    events: timerFromSamples(streams).flatMap(([from, to]) => [
      defined({ timestamp: metadata.startTime + Math.round(from), event: 0, eventType: 0 }),
      defined({ timestamp: metadata.startTime + Math.round(to), event: 0, eventType: 4 }),
    ]),
    laps: [defined({ ...totals, messageIndex: 0, event: 9, eventType: 1, sport: metadata.sport })],
    lengths: [],
    sessions: [
      defined({
        ...totals,
        messageIndex: 0,
        event: 8,
        eventType: 1,
        sport: metadata.sport,
        subSport: 0,
        numLaps: 1,
        normalizedPower: round(summary.normalizedPower, 1),
        trainingStressScore: round(summary.trainingStressScore, 10),
        intensityFactor: round(summary.intensityFactor, 1000),
        thresholdPower: metadata.settings?.ftpWatts,
      }),
    ],
    timeInZones: [],
    developerDataIds: [],
    fieldDescriptions: [],
    records,
    skippedMessages: 0,
  };
}
