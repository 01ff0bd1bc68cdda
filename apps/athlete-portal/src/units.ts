import { selectPreferences } from '@xoss/api-client';
import {
  distanceInUserUnit,
  elevationInUserUnit,
  formatInUserUnit,
  speedInUserUnit,
  usesMiles,
  type Measure,
} from '@xoss/data-fields';
import { useSelector } from 'react-redux';

/** Figures in the rider's units (spec 3: km when the setting is km, else mi). */
export function useUnits(locale: string) {
  const unit = useSelector(selectPreferences).distanceUnit;
  const miles = usesMiles(unit);
  const number = (digits: number) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  /** A value in the rider's unit as text with its label, or a dash when there is none. */
  const show = (measure: Measure, digits: number) => (value: number | null | undefined) =>
    formatInUserUnit(measure, value, unit, { locale, digits });
  return {
    miles,
    distance: show('distance', 2),
    speed: show('speed', 1),
    elevation: show('elevation', 0),
    plain: (value: number | null | undefined, label: string, digits = 0) =>
      value === null || value === undefined
        ? '—'
        : `${number(digits).format(value)}\u00a0${label}`.trim(),
    /** Metres in km or mi (charts of totals). */
    distanceFactor: distanceInUserUnit(1, unit).value,
    distanceUnit: distanceInUserUnit(1, unit).unit,
    /** Speed stream values (m/s) in km/h or mph. */
    speedFactor: speedInUserUnit(1, unit).value,
    speedUnit: speedInUserUnit(1, unit).unit,
    elevationFactor: elevationInUserUnit(1, unit).value,
    elevationUnit: elevationInUserUnit(1, unit).unit,
  };
}
