// A data table kept whole: the catalogue of the 49 fields, from which `FieldKey` is typed.
import type { Category } from './categories.ts';
import { fieldIcon } from './icons.ts';

/**
 * What a field's value measures, which decides how it is converted and formatted.
 * `percent` values are already percentages (grade, % of max HR, % of FTP, battery).
 */
export type UnitKind =
  | 'speed'
  | 'distance'
  | 'elevation'
  | 'duration'
  | 'timeOfDay'
  | 'percent'
  | 'heartRate'
  | 'cadence'
  | 'power'
  | 'energy'
  | 'temperature'
  | 'score'
  | 'ratio'
  | 'text';

/**
 * How a field is drawn: a number, a chart of the ride so far, or a gauge. Charts and gauges
 * need a Large slot.
 */
export type FieldDisplay = 'value' | 'chart' | 'gauge';

/** How a chart field is drawn. */
export type ChartType = 'line' | 'area';
export const chartTypes = ['line', 'area'] as const satisfies readonly ChartType[];

interface FieldSpec {
  readonly key: string;
  readonly id: number;
  readonly category: Category;
  readonly unit: UnitKind;
  readonly display?: FieldDisplay;
  readonly name: string;
  readonly description: string;
  /** Why the model added a field the spec does not name; absent for the spec's 42. */
  readonly addedBecause?: string;
}

// The catalogue. Ids are grouped by hundreds per category, keeping the ids the devices
// already use (100, 103, 200, 300, 400, 403, 404, 500, 600, 801).
const specs = [
  // Time: 1xx
  {
    key: 'MovingTime',
    id: 100,
    category: 'Time',
    unit: 'duration',
    name: 'Moving time',
    description: 'Time spent moving, pauses excluded.',
  },
  {
    key: 'TotalTime',
    id: 101,
    category: 'Time',
    unit: 'duration',
    name: 'Total time',
    description: 'Time since the ride started, pauses included.',
  },
  {
    key: 'PausedTime',
    id: 102,
    category: 'Time',
    unit: 'duration',
    name: 'Paused time',
    description: 'Time spent stopped or paused.',
  },
  {
    key: 'CurrentTime',
    id: 103,
    category: 'Time',
    unit: 'timeOfDay',
    name: 'Time of day',
    description: 'The current local time.',
  },
  {
    key: 'SunriseTime',
    id: 104,
    category: 'Time',
    unit: 'timeOfDay',
    name: 'Sunrise',
    description: 'Time of sunrise at your position.',
  },
  {
    key: 'SunsetTime',
    id: 105,
    category: 'Time',
    unit: 'timeOfDay',
    name: 'Sunset',
    description: 'Time of sunset at your position.',
  },
  {
    key: 'LapTime',
    id: 106,
    category: 'Time',
    unit: 'duration',
    name: 'Lap time',
    description: 'Time since the current lap started.',
    addedBecause:
      'Interval and lap riders read lap time more than total time; every competing computer offers it.',
  },
  // Distance: 2xx
  {
    key: 'Distance',
    id: 200,
    category: 'Distance',
    unit: 'distance',
    name: 'Distance',
    description: 'Distance ridden so far.',
  },
  {
    key: 'Odometer',
    id: 201,
    category: 'Distance',
    unit: 'distance',
    name: 'Odometer',
    description: 'Total distance the device has recorded.',
  },
  {
    key: 'LapDistance',
    id: 202,
    category: 'Distance',
    unit: 'distance',
    name: 'Lap distance',
    description: 'Distance since the current lap started.',
    addedBecause: 'Pairs with lap time for interval and lap training.',
  },
  // Speed: 3xx
  {
    key: 'Speed',
    id: 300,
    category: 'Speed',
    unit: 'speed',
    name: 'Speed',
    description: 'Current speed.',
  },
  {
    key: 'MaxSpeed',
    id: 301,
    category: 'Speed',
    unit: 'speed',
    name: 'Max speed',
    description: 'Highest speed of the ride.',
  },
  {
    key: 'AvgMovingSpeed',
    id: 302,
    category: 'Speed',
    unit: 'speed',
    name: 'Avg moving speed',
    description: 'Average speed while moving.',
  },
  {
    key: 'SpeedPanel',
    id: 303,
    category: 'Speed',
    unit: 'speed',
    display: 'gauge',
    name: 'Speed gauge',
    description: 'Current speed on a dial.',
  },
  {
    key: 'AvgSpeed',
    id: 304,
    category: 'Speed',
    unit: 'speed',
    name: 'Avg speed',
    description: 'Average speed over total time, pauses included.',
    addedBecause:
      'Riders planning café stops and audax controls need the average over elapsed time, not only moving time.',
  },
  // Elevation: 4xx
  {
    key: 'Elevation',
    id: 400,
    category: 'Elevation',
    unit: 'elevation',
    name: 'Elevation',
    description: 'Current elevation above sea level.',
  },
  {
    key: 'MaxElevation',
    id: 401,
    category: 'Elevation',
    unit: 'elevation',
    name: 'Max elevation',
    description: 'Highest elevation of the ride.',
  },
  {
    key: 'MinElevation',
    id: 402,
    category: 'Elevation',
    unit: 'elevation',
    name: 'Min elevation',
    description: 'Lowest elevation of the ride.',
  },
  {
    key: 'Grade',
    id: 403,
    category: 'Elevation',
    unit: 'percent',
    name: 'Grade',
    description: 'Current gradient of the road.',
  },
  {
    key: 'ElevationGain',
    id: 404,
    category: 'Elevation',
    unit: 'elevation',
    name: 'Elevation gain',
    description: 'Total climbing of the ride.',
  },
  {
    key: 'ElevationLoss',
    id: 405,
    category: 'Elevation',
    unit: 'elevation',
    name: 'Elevation loss',
    description: 'Total descending of the ride.',
  },
  {
    key: 'MaxGrade',
    id: 406,
    category: 'Elevation',
    unit: 'percent',
    name: 'Max grade',
    description: 'Steepest uphill gradient of the ride.',
  },
  {
    key: 'MinGrade',
    id: 407,
    category: 'Elevation',
    unit: 'percent',
    name: 'Min grade',
    description: 'Steepest downhill gradient of the ride.',
  },
  // HeartRate: 5xx
  {
    key: 'Heartrate',
    id: 500,
    category: 'HeartRate',
    unit: 'heartRate',
    name: 'Heart rate',
    description: 'Current heart rate.',
  },
  {
    key: 'MaxHR',
    id: 501,
    category: 'HeartRate',
    unit: 'heartRate',
    name: 'Max heart rate',
    description: 'Highest heart rate of the ride.',
  },
  {
    key: 'AvgHR',
    id: 502,
    category: 'HeartRate',
    unit: 'heartRate',
    name: 'Avg heart rate',
    description: 'Average heart rate of the ride.',
  },
  {
    key: 'MAX_HR',
    id: 503,
    category: 'HeartRate',
    unit: 'percent',
    name: '% max heart rate',
    description: 'Current heart rate as a percentage of your maximum.',
  },
  {
    key: 'LTHR',
    id: 504,
    category: 'HeartRate',
    unit: 'percent',
    name: '% threshold heart rate',
    description: 'Current heart rate as a percentage of your lactate threshold heart rate.',
  },
  // Cadence: 6xx
  {
    key: 'Cadence',
    id: 600,
    category: 'Cadence',
    unit: 'cadence',
    name: 'Cadence',
    description: 'Current pedalling cadence.',
  },
  {
    key: 'MaxCadence',
    id: 601,
    category: 'Cadence',
    unit: 'cadence',
    name: 'Max cadence',
    description: 'Highest cadence of the ride.',
  },
  {
    key: 'AvgCadence',
    id: 602,
    category: 'Cadence',
    unit: 'cadence',
    name: 'Avg cadence',
    description: 'Average cadence of the ride.',
  },
  // Power: 7xx
  {
    key: 'Power',
    id: 700,
    category: 'Power',
    unit: 'power',
    name: 'Power',
    description: 'Current power.',
  },
  {
    key: 'MaxPower',
    id: 701,
    category: 'Power',
    unit: 'power',
    name: 'Max power',
    description: 'Highest power of the ride.',
  },
  {
    key: 'AvgPower',
    id: 702,
    category: 'Power',
    unit: 'power',
    name: 'Avg power',
    description: 'Average power of the ride.',
  },
  {
    key: 'AvgPower_3s',
    id: 703,
    category: 'Power',
    unit: 'power',
    name: '3 s power',
    description: 'Average power over the last 3 seconds.',
  },
  {
    key: 'AvgPower_10s',
    id: 704,
    category: 'Power',
    unit: 'power',
    name: '10 s power',
    description: 'Average power over the last 10 seconds.',
  },
  {
    key: 'AvgPower_30s',
    id: 705,
    category: 'Power',
    unit: 'power',
    name: '30 s power',
    description: 'Average power over the last 30 seconds.',
  },
  {
    key: 'FTP',
    id: 706,
    category: 'Power',
    unit: 'percent',
    name: '% FTP',
    description: 'Current power as a percentage of your functional threshold power.',
  },
  {
    key: 'NP',
    id: 707,
    category: 'Power',
    unit: 'power',
    name: 'Normalized power',
    description: 'Normalized power (NP) of the ride.',
  },
  {
    key: 'TSS',
    id: 708,
    category: 'Power',
    unit: 'score',
    name: 'TSS',
    description: 'Training stress score of the ride.',
  },
  {
    key: 'IF',
    id: 709,
    category: 'Power',
    unit: 'ratio',
    name: 'Intensity factor',
    description: 'Intensity factor (IF): NP divided by FTP.',
  },
  // General: 8xx
  {
    key: 'Calories',
    id: 800,
    category: 'General',
    unit: 'energy',
    name: 'Calories',
    description: 'Energy burned during the ride.',
  },
  {
    key: 'NavigationInstruction',
    id: 801,
    category: 'General',
    unit: 'text',
    name: 'Next turn',
    description: 'The next navigation instruction and its distance.',
    addedBecause:
      'Id 801 is already in device files; NAV and SPRINT riders put turn prompts on data pages.',
  },
  {
    key: 'Battery',
    id: 802,
    category: 'General',
    unit: 'percent',
    name: 'Battery',
    description: 'Charge left in the device battery.',
    addedBecause: 'Long-distance riders watch the battery to plan charging.',
  },
  // Chart: 9xx
  {
    key: 'SpeedLineChart',
    id: 900,
    category: 'Chart',
    unit: 'speed',
    display: 'chart',
    name: 'Speed chart',
    description: 'Speed over the ride so far.',
  },
  {
    key: 'ElevationLineChart',
    id: 901,
    category: 'Chart',
    unit: 'elevation',
    display: 'chart',
    name: 'Elevation chart',
    description: 'Elevation profile of the ride so far.',
  },
  {
    key: 'HeartrateLineChart',
    id: 902,
    category: 'Chart',
    unit: 'heartRate',
    display: 'chart',
    name: 'Heart rate chart',
    description: 'Heart rate over the ride so far.',
    addedBecause: 'Riders training by heart rate want its trend, like speed and elevation.',
  },
  {
    key: 'PowerLineChart',
    id: 903,
    category: 'Chart',
    unit: 'power',
    display: 'chart',
    name: 'Power chart',
    description: 'Power over the ride so far.',
    addedBecause: 'Power trend for pacing on climbs and in time trials.',
  },
  // Weather: 10xx
  {
    key: 'Temperature',
    id: 1000,
    category: 'Weather',
    unit: 'temperature',
    name: 'Temperature',
    description: 'Air temperature measured by the device.',
  },
] as const satisfies readonly FieldSpec[];

/** The key of one of the 49 data fields, spelled as the spec spells it (`AvgPower_3s`, `MAX_HR`, ...). */
export type FieldKey = (typeof specs)[number]['key'];

/**
 * A data field's numeric id, as devices store it in `panels.json` (`LayoutPage.items`) and as
 * the field picker takes and gives it: one id type from the file to the screen. An id the
 * catalogue does not know (a newer device's) is kept in a layout but offered nowhere;
 * `fieldById` says which field an id names.
 */
export type FieldId = number;

/** One data field of the catalogue. */
export interface DataField {
  /** The key as the spec spells it. */
  readonly key: FieldKey;
  /** The stable numeric id devices store in `panels.json`. */
  readonly id: FieldId;
  readonly category: Category;
  readonly unit: UnitKind;
  readonly display: FieldDisplay;
  /** Charts and gauges need a Large slot. */
  readonly needsLargeSlot: boolean;
  /** i18n message ids for the field's name and description. */
  readonly messageIds: {
    readonly name: `dataFields.${FieldKey}.name`;
    readonly description: `dataFields.${FieldKey}.description`;
  };
  /** English texts, for consumers without the i18n catalogue. */
  readonly defaultText: { readonly name: string; readonly description: string };
  /** SVG icons (viewBox 0 0 36 36): normal, and the light one drawn on a selected tile. */
  readonly icons: { readonly normal: string; readonly selected: string };
  /** Set on the 7 fields the model added to the spec's 42, with the reason. */
  readonly addedBecause?: string;
}

/**
 * The catalogue of all 49 data fields, in picker order within each category.
 *
 * @example
 * dataFields.filter((field) => field.category === 'Power').map((field) => field.key);
 */
export const dataFields: readonly DataField[] = Object.freeze(
  specs.map((spec): DataField => {
    const display: FieldDisplay = 'display' in spec ? spec.display : 'value';
    return Object.freeze({
      key: spec.key,
      id: spec.id,
      category: spec.category,
      unit: spec.unit,
      display,
      needsLargeSlot: display !== 'value',
      messageIds: {
        name: `dataFields.${spec.key}.name` as const,
        description: `dataFields.${spec.key}.description` as const,
      },
      defaultText: { name: spec.name, description: spec.description },
      icons: {
        normal: fieldIcon(spec.key, spec.category, 'normal'),
        selected: fieldIcon(spec.key, spec.category, 'selected'),
      },
      ...('addedBecause' in spec ? { addedBecause: spec.addedBecause } : {}),
    });
  }),
);

const byId = new Map(dataFields.map((field) => [field.id, field]));
const byKey = new Map<string, DataField>(dataFields.map((field) => [field.key, field]));

/** The field with a numeric device id, or `undefined` for an unknown id. */
export function fieldById(id: FieldId): DataField | undefined {
  return byId.get(id);
}

/** The field with a key, or `undefined` for an unknown key. */
export function fieldByKey(key: string): DataField | undefined {
  return byKey.get(key);
}

/** Whether a string is the key of a catalogue field. */
export function isFieldKey(key: string): key is FieldKey {
  return byKey.has(key);
}
