import { fieldByKey, type DataField, type FieldKey } from './fieldCatalogue.ts';
import {
  distanceInUserUnit,
  elevationInUserUnit,
  speedInUserUnit,
  temperatureInUserUnit,
  type DistanceUnitSetting,
  type TemperatureUnit,
} from './units.ts';
import { formatDuration, formatTimeOfDay } from './duration.ts';

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
