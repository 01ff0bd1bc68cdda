// The units rule of the product, in one place: every package and app converts and names
// distances, speeds and temperatures through these.

/** The distance unit by name, as the apps and the browser's storage speak of it. */
export type DistanceUnit = 'km' | 'mi';

/**
 * The stored distance-unit setting (spec 3): `0` is kilometres, any other number miles.
 */
export type DistanceUnitSetting = number;

/** Temperature unit setting: Celsius (the default) or Fahrenheit. */
export type TemperatureUnit = 'c' | 'f';

/** Metres in one statute mile. */
export const METRES_PER_MILE = 1609.344;

/** Feet in one metre (a foot is 0.3048 m exactly). */
export const FEET_PER_METRE = 1 / 0.3048;

/** Whether a stored distance-unit setting (any non-zero number) or a unit name means miles. */
export function usesMiles(setting: DistanceUnitSetting | DistanceUnit): boolean {
  return typeof setting === 'string' ? setting === 'mi' : setting !== 0;
}

/**
 * The unit a stored setting or a stored value names: a non-zero number or `'mi'` is miles,
 * anything else (nothing stored, `0`, `'km'`) kilometres.
 *
 * @example
 * distanceUnitOf(1); // 'mi'
 * distanceUnitOf(undefined); // 'km'
 */
export function distanceUnitOf(stored: unknown): DistanceUnit {
  return (typeof stored === 'number' && stored !== 0) || stored === 'mi' ? 'mi' : 'km';
}

/**
 * The stored setting of a unit: `0` for kilometres, `1` for miles.
 *
 * @example
 * distanceUnitSetting('mi'); // 1
 */
export function distanceUnitSetting(unit: DistanceUnit): 0 | 1 {
  return unit === 'mi' ? 1 : 0;
}

/**
 * A distance in metres expressed in the user's unit, with the unit's label.
 *
 * @example
 * distanceInUserUnit(42195, 0); // { value: 42.195, unit: 'km' }
 * distanceInUserUnit(1609.344, 'mi'); // { value: 1, unit: 'mi' }
 */
export function distanceInUserUnit(
  metres: number,
  setting: DistanceUnitSetting | DistanceUnit,
): { value: number; unit: DistanceUnit } {
  return usesMiles(setting)
    ? { value: metres / METRES_PER_MILE, unit: 'mi' }
    : { value: metres / 1000, unit: 'km' };
}

/**
 * A speed in metres per second expressed in the user's unit, with the unit's label.
 *
 * @example
 * speedInUserUnit(10, 0); // { value: 36, unit: 'km/h' }
 */
export function speedInUserUnit(
  metresPerSecond: number,
  setting: DistanceUnitSetting | DistanceUnit,
): { value: number; unit: 'km/h' | 'mph' } {
  return usesMiles(setting)
    ? { value: (metresPerSecond * 3600) / METRES_PER_MILE, unit: 'mph' }
    : { value: metresPerSecond * 3.6, unit: 'km/h' };
}

/**
 * A height in metres expressed in the user's unit (feet with miles), with the unit's label.
 *
 * @example
 * elevationInUserUnit(1000, 'mi').unit; // 'ft'
 */
export function elevationInUserUnit(
  metres: number,
  setting: DistanceUnitSetting | DistanceUnit,
): { value: number; unit: 'm' | 'ft' } {
  return usesMiles(setting)
    ? { value: metres * FEET_PER_METRE, unit: 'ft' }
    : { value: metres, unit: 'm' };
}

/** A temperature in degrees Celsius expressed in the user's unit. */
export function temperatureInUserUnit(celsius: number, unit: TemperatureUnit): number {
  return unit === 'f' ? (celsius * 9) / 5 + 32 : celsius;
}

/** What a value in base units measures: a distance (m), a speed (m/s) or an elevation (m). */
export type Measure = 'distance' | 'speed' | 'elevation';

const inUserUnit = {
  distance: distanceInUserUnit,
  speed: speedInUserUnit,
  elevation: elevationInUserUnit,
} as const;

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A distance, speed or elevation (in metres, metres per second, metres) in the user's unit as
 * text with its label; a dash when there is no value. `digits` decimals are written, or at
 * most that many with `upTo` (axis labels: `12.5 km`, `13 km`). The one way figures in the
 * user's unit are written: ride pages, lists, charts.
 *
 * @example
 * formatInUserUnit('distance', 42_700, 0, { locale: 'en-US', digits: 2 }); // '42.70 km'
 * formatInUserUnit('speed', 10, 1, { locale: 'en-US', digits: 1 }); // '22.4 mph'
 */
export function formatInUserUnit(
  measure: Measure,
  value: number | null | undefined,
  setting: DistanceUnitSetting | DistanceUnit,
  options: { readonly locale?: string; readonly digits: number; readonly upTo?: boolean },
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const converted = inUserUnit[measure](value, setting);
  const key = `${options.locale ?? ''}|${options.digits}|${options.upTo ? 1 : 0}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(options.locale, {
      maximumFractionDigits: options.digits,
      minimumFractionDigits: options.upTo ? 0 : options.digits,
    });
    numberFormats.set(key, format);
  }
  // A no-break space: a figure never wraps away from its unit (as Intl's own unit style).
  return `${format.format(converted.value)}\u00a0${converted.unit}`;
}
