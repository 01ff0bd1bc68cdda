/**
 * The stored distance-unit setting (spec 3): `0` is kilometres, any other number miles.
 */
export type DistanceUnitSetting = number;

/** Temperature unit setting: Celsius (the default) or Fahrenheit. */
export type TemperatureUnit = 'c' | 'f';

/** Metres in one statute mile. */
export const METRES_PER_MILE = 1609.344;

/** Whether a stored distance-unit setting means miles (any non-zero number). */
export function usesMiles(setting: DistanceUnitSetting): boolean {
  return setting !== 0;
}

/**
 * A distance in metres expressed in the user's unit, with the unit's label.
 *
 * @example
 * distanceInUserUnit(42195, 0); // { value: 42.195, unit: 'km' }
 * distanceInUserUnit(1609.344, 1); // { value: 1, unit: 'mi' }
 */
export function distanceInUserUnit(
  metres: number,
  setting: DistanceUnitSetting,
): { value: number; unit: 'km' | 'mi' } {
  return usesMiles(setting)
    ? { value: metres / METRES_PER_MILE, unit: 'mi' }
    : { value: metres / 1000, unit: 'km' };
}

/** A temperature in degrees Celsius expressed in the user's unit. */
export function temperatureInUserUnit(celsius: number, unit: TemperatureUnit): number {
  return unit === 'f' ? (celsius * 9) / 5 + 32 : celsius;
}
