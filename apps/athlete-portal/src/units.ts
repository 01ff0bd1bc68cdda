import { selectPreferences } from '@xoss/api-client';
import { FEET_PER_METRE, METRES_PER_MILE, usesMiles } from '@xoss/data-fields';
import { useSelector } from 'react-redux';

/** Figures in the rider's units (spec 3: km when the setting is km, else mi). */
export function useUnits(locale: string) {
  const miles = usesMiles(useSelector(selectPreferences).distanceUnit);
  const number = (digits: number) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return {
    miles,
    distance: (metres: number | null | undefined) =>
      metres === null || metres === undefined
        ? '—'
        : `${number(2).format(miles ? metres / METRES_PER_MILE : metres / 1000)} ${miles ? 'mi' : 'km'}`,
    speed: (ms: number | null | undefined) =>
      ms === null || ms === undefined
        ? '—'
        : `${number(1).format(miles ? (ms * 3600) / METRES_PER_MILE : ms * 3.6)} ${miles ? 'mph' : 'km/h'}`,
    elevation: (metres: number | null | undefined) =>
      metres === null || metres === undefined
        ? '—'
        : `${number(0).format(miles ? metres * FEET_PER_METRE : metres)} ${miles ? 'ft' : 'm'}`,
    plain: (value: number | null | undefined, unit: string, digits = 0) =>
      value === null || value === undefined
        ? '—'
        : `${number(digits).format(value)} ${unit}`.trim(),
    /** Metres in km or mi (charts of totals). */
    distanceFactor: miles ? 1 / METRES_PER_MILE : 1 / 1000,
    distanceUnit: miles ? ('mi' as const) : ('km' as const),
    /** Speed stream values (m/s) in km/h or mph. */
    speedFactor: miles ? 3600 / METRES_PER_MILE : 3.6,
    speedUnit: miles ? 'mph' : 'km/h',
    elevationFactor: miles ? FEET_PER_METRE : 1,
    elevationUnit: miles ? 'ft' : 'm',
  };
}
