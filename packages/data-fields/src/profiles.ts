import { dataFields, type FieldKey } from './fieldCatalogue.ts';
import { layoutTemplates } from './layouts.ts';

/** The device models with data pages. */
export const deviceModels = ['NAV', 'NAV+', 'SPRINT', 'G2', 'G2+', 'G', 'G+'] as const;
export type DeviceModel = (typeof deviceModels)[number];

/**
 * What a device model supports: its fields, layouts and page limits, and the screen a
 * preview draws pages at.
 */
export interface DeviceProfile {
  readonly model: DeviceModel;
  /** The product name riders know. */
  readonly name: string;
  /** Pages are `free` (add, delete, reorder) or `fixed` (a set number; only their contents change). */
  readonly pages: 'free' | 'fixed';
  readonly minPages: number;
  readonly maxPages: number;
  /** The `pid`s of the layout templates this model draws. */
  readonly layouts: readonly number[];
  /** The fields this model can show, in picker order. */
  readonly fields: readonly FieldKey[];
  /** Screen in pixels (portrait) and its diagonal in inches. */
  readonly screen: { readonly width: number; readonly height: number; readonly inches: number };
  /** Ride history the device keeps, in kilometres, where it is limited (spec 9). */
  readonly historyLimitKm?: number;
}

// G-series field sets (spec 9: G 12 data types, G+ 24). The model chose the fields riders of
// a small, map-less computer use most; G+ adds heart-rate, cadence and power detail.
const gFields = [
  'Speed',
  'MaxSpeed',
  'AvgMovingSpeed',
  'MovingTime',
  'TotalTime',
  'CurrentTime',
  'Distance',
  'Odometer',
  'Elevation',
  'ElevationGain',
  'Heartrate',
  'Cadence',
] as const satisfies readonly FieldKey[];
const gPlusFields = [
  ...gFields,
  'Grade',
  'ElevationLoss',
  'MaxHR',
  'AvgHR',
  'AvgCadence',
  'MaxCadence',
  'Power',
  'AvgPower',
  'MaxPower',
  'AvgPower_3s',
  'Calories',
  'Temperature',
] as const satisfies readonly FieldKey[];

const allFields = dataFields.map((field) => field.key);
const allLayouts = layoutTemplates.map((template) => template.pid);
const upTo = (slots: number) =>
  layoutTemplates
    .filter((template) => template.slots.length <= slots)
    .map((template) => template.pid);

/** Every device profile, keyed by model. */
export const deviceProfiles: Readonly<Record<DeviceModel, DeviceProfile>> = Object.freeze({
  NAV: {
    model: 'NAV',
    name: 'XOSS NAV',
    pages: 'free',
    minPages: 1,
    maxPages: 6,
    layouts: allLayouts,
    fields: allFields,
    screen: { width: 240, height: 320, inches: 2.4 },
  },
  'NAV+': {
    model: 'NAV+',
    name: 'XOSS NAV+',
    pages: 'free',
    minPages: 1,
    maxPages: 6,
    layouts: allLayouts,
    fields: allFields,
    screen: { width: 240, height: 320, inches: 2.4 },
  },
  SPRINT: {
    model: 'SPRINT',
    name: 'XOSS SPRINT',
    pages: 'free',
    minPages: 1,
    maxPages: 5,
    layouts: allLayouts,
    fields: allFields,
    screen: { width: 240, height: 400, inches: 2.7 },
  },
  G2: {
    model: 'G2',
    name: 'XOSS G (2nd generation)',
    pages: 'fixed',
    minPages: 3,
    maxPages: 3,
    layouts: upTo(4),
    fields: gFields,
    screen: { width: 144, height: 168, inches: 1.8 },
  },
  'G2+': {
    model: 'G2+',
    name: 'XOSS G+ (2nd generation)',
    pages: 'fixed',
    minPages: 3,
    maxPages: 3,
    layouts: upTo(6),
    fields: gPlusFields,
    screen: { width: 144, height: 168, inches: 1.8 },
  },
  G: {
    model: 'G',
    name: 'XOSS G',
    pages: 'fixed',
    minPages: 2,
    maxPages: 2,
    layouts: upTo(4),
    fields: gFields,
    screen: { width: 144, height: 168, inches: 1.8 },
    historyLimitKm: 1500,
  },
  'G+': {
    model: 'G+',
    name: 'XOSS G+',
    pages: 'fixed',
    minPages: 2,
    maxPages: 2,
    layouts: upTo(4),
    fields: gPlusFields,
    screen: { width: 144, height: 168, inches: 1.8 },
    historyLimitKm: 1500,
  },
} satisfies Record<DeviceModel, DeviceProfile>);

/** The profile of a model name, or `undefined` for a model without data pages. */
export function profileFor(model: string): DeviceProfile | undefined {
  return Object.hasOwn(deviceProfiles, model) ? deviceProfiles[model as DeviceModel] : undefined;
}

/** Whether a profile supports a field key. */
export function profileSupports(profile: DeviceProfile, key: FieldKey): boolean {
  return profile.fields.includes(key);
}
