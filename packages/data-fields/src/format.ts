import { fieldByKey, type DataField, type FieldKey } from './fieldCatalogue.ts';
import {
  distanceInUserUnit,
  elevationInUserUnit,
  speedInUserUnit,
  temperatureInUserUnit,
  type DistanceUnitSetting,
  type TemperatureUnit,
} from './units.ts';

/** The user's unit settings (spec 3), as stored. */
export interface UnitSettings {
  /** 0 = kilometres, any other number = miles. */
  readonly distanceUnit: DistanceUnitSetting;
  readonly temperatureUnit: TemperatureUnit;
}

/** A value ready to show: the number as text and its unit label (empty for none). */
export interface FormattedValue {
  readonly text: string;
  readonly unit: string;
}

/** How `formatDuration` writes a duration. */
export interface DurationFormat {
  /** `auto` (the default): `m:ss` under an hour; `always`: `h:mm:ss` (`0:05:03`), for columns. */
  readonly hours?: 'auto' | 'always';
  /** `floor` (the default): whole seconds elapsed, as a device's timer shows; `round`: nearest. */
  readonly seconds?: 'floor' | 'round';
}

/**
 * Formats seconds as `h:mm:ss`, or `m:ss` under an hour. Negative or non-finite input
 * shows as `--`. The one duration format of the product: fields, charts and ride lists.
 *
 * @example
 * formatDuration(3725); // '1:02:05'
 * formatDuration(302.6, { hours: 'always', seconds: 'round' }); // '0:05:03'
 */
export function formatDuration(seconds: number, format: DurationFormat = {}): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--';
  const whole = format.seconds === 'round' ? Math.round(seconds) : Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const withHours = h > 0 || format.hours === 'always';
  const mm = withHours ? String(m).padStart(2, '0') : String(m);
  return `${withHours ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/**
 * Formats a time of day given in seconds since local midnight, 24-hour `HH:mm`.
 *
 * @example
 * formatTimeOfDay(6 * 3600 + 5 * 60); // '06:05'
 */
export function formatTimeOfDay(secondsSinceMidnight: number): string {
  if (!Number.isFinite(secondsSinceMidnight)) return '--:--';
  const minutes = Math.floor((((secondsSinceMidnight % 86400) + 86400) % 86400) / 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function number(value: number, digits: number, locale: string | undefined): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

/**
 * Converts and formats a field's value for the user's units. Values come in base units:
 * speed in m/s, distance and elevation in metres, durations in seconds, time of day in
 * seconds since midnight, temperature in °C, energy in kcal, the rest as named.
 *
 * @example
 * formatFieldValue('Speed', 10, { distanceUnit: 0, temperatureUnit: 'c' }); // { text: '36.0', unit: 'km/h' }
 * formatFieldValue('Elevation', 1000, { distanceUnit: 1, temperatureUnit: 'c' }); // { text: '3,281', unit: 'ft' }
 */
export function formatFieldValue(
  field: DataField | FieldKey,
  value: number | string,
  settings: UnitSettings,
  locale?: string,
): FormattedValue {
  const definition = typeof field === 'string' ? fieldByKey(field) : field;
  if (definition === undefined) return { text: String(value), unit: '' };
  if (typeof value === 'string') return { text: value, unit: '' };
  if (!Number.isFinite(value)) return { text: '--', unit: '' };
  switch (definition.unit) {
    case 'speed': {
      const speed = speedInUserUnit(value, settings.distanceUnit);
      return { text: number(speed.value, 1, locale), unit: speed.unit };
    }
    case 'distance': {
      const distance = distanceInUserUnit(value, settings.distanceUnit);
      return { text: number(distance.value, 2, locale), unit: distance.unit };
    }
    case 'elevation': {
      const elevation = elevationInUserUnit(value, settings.distanceUnit);
      return { text: number(elevation.value, 0, locale), unit: elevation.unit };
    }
    case 'duration':
      return { text: formatDuration(value), unit: '' };
    case 'timeOfDay':
      return { text: formatTimeOfDay(value), unit: '' };
    case 'percent':
      return {
        text: number(value, definition.category === 'Elevation' ? 1 : 0, locale),
        unit: '%',
      };
    case 'heartRate':
      return { text: number(value, 0, locale), unit: 'bpm' };
    case 'cadence':
      return { text: number(value, 0, locale), unit: 'rpm' };
    case 'power':
      return { text: number(value, 0, locale), unit: 'W' };
    case 'energy':
      return { text: number(value, 0, locale), unit: 'kcal' };
    case 'temperature':
      return {
        text: number(temperatureInUserUnit(value, settings.temperatureUnit), 0, locale),
        unit: settings.temperatureUnit === 'f' ? '°F' : '°C',
      };
    case 'score':
      return { text: number(value, 0, locale), unit: '' };
    case 'ratio':
      return { text: number(value, 2, locale), unit: '' };
    case 'text':
      return { text: String(value), unit: '' };
    default:
      return definition.unit satisfies never;
  }
}
