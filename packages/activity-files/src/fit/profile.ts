import type { BaseTypeName } from './baseTypes.ts';

/** Seconds between the Unix epoch and the FIT epoch (1989-12-31T00:00:00Z). */
export const FIT_EPOCH_S = 631065600;
/** Degrees per semicircle (FIT positions are 2^31 semicircles per 180°). */
export const DEGREES_PER_SEMICIRCLE = 180 / 2 ** 31;

/** How a raw value becomes a value in base units. */
type Conversion = 'scale' | 'timestamp' | 'semicircles' | 'string';

/** One field of a FIT message as this codec reads and writes it. */
export interface FieldSpec {
  readonly num: number;
  readonly name: string;
  readonly type: BaseTypeName;
  readonly scale?: number;
  readonly offset?: number;
  readonly conversion?: Conversion;
  /** Array fields: how many elements (values of other lengths are written padded or cut). */
  readonly array?: boolean;
  /** String fields: bytes written. */
  readonly size?: number;
}

/** A FIT message this codec knows. */
export interface MessageSpec {
  readonly num: number;
  readonly name: string;
  readonly fields: readonly FieldSpec[];
}

const f = (
  num: number,
  name: string,
  type: BaseTypeName,
  extra: Partial<FieldSpec> = {},
): FieldSpec => ({ num, name, type, ...extra });
const timestamp = (num: number, name: string) =>
  f(num, name, 'uint32', { conversion: 'timestamp' });
const semicircles = (num: number, name: string) =>
  f(num, name, 'sint32', { conversion: 'semicircles' });
const text = (num: number, name: string, size: number) =>
  f(num, name, 'string', { conversion: 'string', size });

/** Global message numbers of the messages this codec knows. */
export const MesgNum = {
  fileId: 0,
  sport: 12,
  zonesTarget: 7,
  session: 18,
  lap: 19,
  record: 20,
  event: 21,
  deviceInfo: 23,
  length: 101,
  fieldDescription: 206,
  developerDataId: 207,
  timeInZone: 216,
} as const;

// Field numbers, types, scales and offsets from the public FIT profile.
const messages: readonly MessageSpec[] = [
  {
    num: MesgNum.fileId,
    name: 'fileId',
    fields: [
      f(0, 'type', 'enum'),
      f(1, 'manufacturer', 'uint16'),
      f(2, 'product', 'uint16'),
      f(3, 'serialNumber', 'uint32z'),
      timestamp(4, 'timeCreated'),
      f(5, 'number', 'uint16'),
      text(8, 'productName', 20),
    ],
  },
  {
    num: MesgNum.deviceInfo,
    name: 'deviceInfo',
    fields: [
      timestamp(253, 'timestamp'),
      f(0, 'deviceIndex', 'uint8'),
      f(1, 'deviceType', 'uint8'),
      f(2, 'manufacturer', 'uint16'),
      f(3, 'serialNumber', 'uint32z'),
      f(4, 'product', 'uint16'),
      f(5, 'softwareVersion', 'uint16', { scale: 100 }),
      f(6, 'hardwareVersion', 'uint8'),
      f(10, 'batteryVoltage', 'uint16', { scale: 256 }),
      f(11, 'batteryStatus', 'uint8'),
      text(27, 'productName', 20),
    ],
  },
  {
    num: MesgNum.record,
    name: 'record',
    fields: [
      timestamp(253, 'timestamp'),
      semicircles(0, 'latitude'),
      semicircles(1, 'longitude'),
      f(2, 'altitude', 'uint16', { scale: 5, offset: 500 }),
      f(3, 'heartRate', 'uint8'),
      f(4, 'cadence', 'uint8'),
      f(5, 'distance', 'uint32', { scale: 100 }),
      f(6, 'speed', 'uint16', { scale: 1000 }),
      f(7, 'power', 'uint16'),
      f(8, 'compressedSpeedDistance', 'byte', { array: true }),
      f(13, 'temperature', 'sint8'),
      f(30, 'leftRightBalance', 'uint8'),
      f(41, 'leftTorqueEffectiveness', 'uint8', { scale: 2 }),
      f(42, 'rightTorqueEffectiveness', 'uint8', { scale: 2 }),
      f(43, 'leftPedalSmoothness', 'uint8', { scale: 2 }),
      f(44, 'rightPedalSmoothness', 'uint8', { scale: 2 }),
      f(45, 'combinedPedalSmoothness', 'uint8', { scale: 2 }),
      // A muscle-oxygen sensor's (Moxy, BSX): total haemoglobin in g/dL, saturation (SmO2)
      // in percent, each with its minimum and maximum since the previous record.
      f(54, 'totalHemoglobinConc', 'uint16', { scale: 100 }),
      f(55, 'totalHemoglobinConcMin', 'uint16', { scale: 100 }),
      f(56, 'totalHemoglobinConcMax', 'uint16', { scale: 100 }),
      f(57, 'saturatedHemoglobinPercent', 'uint16', { scale: 10 }),
      f(58, 'saturatedHemoglobinPercentMin', 'uint16', { scale: 10 }),
      f(59, 'saturatedHemoglobinPercentMax', 'uint16', { scale: 10 }),
      f(73, 'enhancedSpeed', 'uint32', { scale: 1000 }),
      f(78, 'enhancedAltitude', 'uint32', { scale: 5, offset: 500 }),
    ],
  },
  {
    num: MesgNum.event,
    name: 'event',
    fields: [
      timestamp(253, 'timestamp'),
      f(0, 'event', 'enum'),
      f(1, 'eventType', 'enum'),
      f(3, 'data', 'uint32'),
      f(4, 'eventGroup', 'uint8'),
    ],
  },
  {
    num: MesgNum.lap,
    name: 'lap',
    fields: [
      timestamp(253, 'timestamp'),
      f(254, 'messageIndex', 'uint16'),
      f(0, 'event', 'enum'),
      f(1, 'eventType', 'enum'),
      timestamp(2, 'startTime'),
      semicircles(3, 'startLatitude'),
      semicircles(4, 'startLongitude'),
      f(7, 'totalElapsedTime', 'uint32', { scale: 1000 }),
      f(8, 'totalTimerTime', 'uint32', { scale: 1000 }),
      f(9, 'totalDistance', 'uint32', { scale: 100 }),
      f(11, 'totalCalories', 'uint16'),
      f(13, 'avgSpeed', 'uint16', { scale: 1000 }),
      f(14, 'maxSpeed', 'uint16', { scale: 1000 }),
      f(15, 'avgHeartRate', 'uint8'),
      f(16, 'maxHeartRate', 'uint8'),
      f(17, 'avgCadence', 'uint8'),
      f(18, 'maxCadence', 'uint8'),
      f(19, 'avgPower', 'uint16'),
      f(20, 'maxPower', 'uint16'),
      f(21, 'totalAscent', 'uint16'),
      f(22, 'totalDescent', 'uint16'),
      f(25, 'sport', 'enum'),
    ],
  },
  {
    num: MesgNum.session,
    name: 'session',
    fields: [
      timestamp(253, 'timestamp'),
      f(254, 'messageIndex', 'uint16'),
      f(0, 'event', 'enum'),
      f(1, 'eventType', 'enum'),
      timestamp(2, 'startTime'),
      semicircles(3, 'startLatitude'),
      semicircles(4, 'startLongitude'),
      f(5, 'sport', 'enum'),
      f(6, 'subSport', 'enum'),
      f(7, 'totalElapsedTime', 'uint32', { scale: 1000 }),
      f(8, 'totalTimerTime', 'uint32', { scale: 1000 }),
      f(9, 'totalDistance', 'uint32', { scale: 100 }),
      f(11, 'totalCalories', 'uint16'),
      f(14, 'avgSpeed', 'uint16', { scale: 1000 }),
      f(15, 'maxSpeed', 'uint16', { scale: 1000 }),
      f(16, 'avgHeartRate', 'uint8'),
      f(17, 'maxHeartRate', 'uint8'),
      f(18, 'avgCadence', 'uint8'),
      f(19, 'maxCadence', 'uint8'),
      f(20, 'avgPower', 'uint16'),
      f(21, 'maxPower', 'uint16'),
      f(22, 'totalAscent', 'uint16'),
      f(23, 'totalDescent', 'uint16'),
      f(26, 'numLaps', 'uint16'),
      f(34, 'normalizedPower', 'uint16'),
      f(35, 'trainingStressScore', 'uint16', { scale: 10 }),
      f(36, 'intensityFactor', 'uint16', { scale: 1000 }),
      f(33, 'numLengths', 'uint16'),
      f(44, 'poolLength', 'uint16', { scale: 100 }),
      f(45, 'thresholdPower', 'uint16'),
      f(47, 'numActiveLengths', 'uint16'),
      f(48, 'totalWork', 'uint32'),
      f(124, 'enhancedAvgSpeed', 'uint32', { scale: 1000 }),
      f(125, 'enhancedMaxSpeed', 'uint32', { scale: 1000 }),
    ],
  },
  {
    num: MesgNum.length,
    name: 'length',
    fields: [
      timestamp(253, 'timestamp'),
      f(254, 'messageIndex', 'uint16'),
      timestamp(2, 'startTime'),
      f(3, 'totalElapsedTime', 'uint32', { scale: 1000 }),
      f(4, 'totalTimerTime', 'uint32', { scale: 1000 }),
      f(5, 'totalStrokes', 'uint16'),
      f(6, 'avgSpeed', 'uint16', { scale: 1000 }),
      f(7, 'swimStroke', 'enum'),
      f(12, 'lengthType', 'enum'),
    ],
  },
  {
    num: MesgNum.sport,
    name: 'sport',
    fields: [f(0, 'sport', 'enum'), f(1, 'subSport', 'enum'), text(3, 'name', 16)],
  },
  {
    num: MesgNum.zonesTarget,
    name: 'zonesTarget',
    fields: [
      f(1, 'maxHeartRate', 'uint8'),
      f(2, 'thresholdHeartRate', 'uint8'),
      f(3, 'functionalThresholdPower', 'uint16'),
      f(5, 'hrCalcType', 'enum'),
      f(7, 'pwrCalcType', 'enum'),
    ],
  },
  {
    num: MesgNum.timeInZone,
    name: 'timeInZone',
    fields: [
      timestamp(253, 'timestamp'),
      f(0, 'referenceMesg', 'uint16'),
      f(1, 'referenceIndex', 'uint16'),
      f(2, 'timeInHrZone', 'uint32', { scale: 1000, array: true }),
      f(5, 'timeInPowerZone', 'uint32', { scale: 1000, array: true }),
      f(6, 'hrZoneHighBoundary', 'uint8', { array: true }),
      f(9, 'powerZoneHighBoundary', 'uint16', { array: true }),
      f(11, 'maxHeartRate', 'uint8'),
      f(13, 'thresholdHeartRate', 'uint8'),
      f(15, 'functionalThresholdPower', 'uint16'),
    ],
  },
  {
    num: MesgNum.developerDataId,
    name: 'developerDataId',
    fields: [
      f(1, 'applicationId', 'byte', { array: true }),
      f(3, 'developerDataIndex', 'uint8'),
      f(4, 'applicationVersion', 'uint32'),
    ],
  },
  {
    num: MesgNum.fieldDescription,
    name: 'fieldDescription',
    fields: [
      f(0, 'developerDataIndex', 'uint8'),
      f(1, 'fieldDefinitionNumber', 'uint8'),
      f(2, 'fitBaseTypeId', 'uint8'),
      text(3, 'fieldName', 32),
      f(6, 'scale', 'uint8'),
      f(7, 'offset', 'sint8'),
      text(8, 'units', 16),
    ],
  },
];

export const messageByNum = new Map(messages.map((message) => [message.num, message]));

/** FIT sports 0-11 are the spec's sport types (spec 3); anything else is Generic (0). */
export const sportTypes = [
  'Generic',
  'Running',
  'Cycling',
  'Transition',
  'Fitness equipment',
  'Swimming',
  'Basketball',
  'Soccer',
  'Tennis',
  'American football',
  'Training',
  'Walking',
] as const;

/** The spec's sport type (0-11) of a FIT sport value. */
export function sportType(fitSport: number | undefined): number {
  return fitSport !== undefined &&
    Number.isInteger(fitSport) &&
    fitSport >= 0 &&
    fitSport < sportTypes.length
    ? fitSport
    : 0;
}
