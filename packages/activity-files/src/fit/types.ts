import type { ActivityFileError } from '../errors.ts';

/** A decoded field value: a number in base units, text, or an array of numbers. */
export type FitValue = number | string | readonly number[];

/** A decoded FIT message other than `record`: field name to value; invalid fields are absent. */
export type FitMessage = { readonly [field: string]: FitValue };

/**
 * Names of the record columns every decoded file has, in base units (degrees, metres, m/s,
 * W, bpm, rpm, °C, %).
 */
export const recordColumnNames = [
  'timestamp',
  'latitude',
  'longitude',
  'altitude',
  'heartRate',
  'cadence',
  'distance',
  'speed',
  'power',
  'temperature',
  'leftRightBalance',
  'leftTorqueEffectiveness',
  'rightTorqueEffectiveness',
  'leftPedalSmoothness',
  'rightPedalSmoothness',
  'combinedPedalSmoothness',
] as const;

export type RecordColumnName = (typeof recordColumnNames)[number];

/**
 * Record columns only some devices write: a muscle-oxygen sensor's total haemoglobin (g/dL)
 * and saturation (SmO2, %), each also as the minimum and maximum over the record's interval.
 * A column is present only when some record definition carries its field, so the files of
 * every other device (nearly all) do not pay for six columns of NaN.
 */
export const sensorColumnNames = [
  'totalHemoglobinConc',
  'totalHemoglobinConcMin',
  'totalHemoglobinConcMax',
  'saturatedHemoglobinPercent',
  'saturatedHemoglobinPercentMin',
  'saturatedHemoglobinPercentMax',
] as const;

export type SensorColumnName = (typeof sensorColumnNames)[number];

/**
 * The `record` messages as columns: one `Float64Array` per field, NaN where a record lacks
 * it. `timestamp` is in Unix seconds; `leftRightBalance` is the left leg's percent. The
 * `sensorColumnNames` are there only when the file's records carry them.
 */
export type RecordColumns = {
  readonly length: number;
  readonly developer: Readonly<Record<string, Float64Array>>;
} & {
  readonly [name in RecordColumnName]: Float64Array;
} & {
  readonly [name in SensorColumnName]?: Float64Array;
};

/** A decoded FIT file (chained files are concatenated). */
export interface FitActivity {
  readonly fileId?: FitMessage;
  readonly deviceInfos: readonly FitMessage[];
  readonly sports: readonly FitMessage[];
  readonly zonesTargets: readonly FitMessage[];
  readonly events: readonly FitMessage[];
  readonly laps: readonly FitMessage[];
  /** Pool lengths (swims). */
  readonly lengths: readonly FitMessage[];
  readonly sessions: readonly FitMessage[];
  readonly timeInZones: readonly FitMessage[];
  readonly developerDataIds: readonly FitMessage[];
  readonly fieldDescriptions: readonly FitMessage[];
  readonly records: RecordColumns;
  /** Messages of types this codec does not read, skipped. */
  readonly skippedMessages: number;
  /**
   * Present when the file is damaged (cut short, bad CRC, a broken message): what was wrong
   * and where. Everything before that point was read.
   */
  readonly damage?: ActivityFileError;
}
