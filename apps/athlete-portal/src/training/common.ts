// What the training pages share: today as the API counts days, and a period's figures in
// the rider's units.
import type { PeriodTotals } from '@xoss/api-contract';
import { useLocale } from '@xoss/i18n/react';
import { addDays, dayOf } from '@xoss/workout-stats';
import { api } from '../client.ts';
import { useUnits } from '../units.ts';

/** Today as the API counts days (UTC). */
export const today = () => dayOf(Date.now());

/**
 * The years a year picker offers, newest first: from the year of the rider's first ride
 * (the fitness reply's `first_day`, asked for one day only) to this year. Years between
 * without a ride are listed too (their totals are empty); only this year until it is known.
 */
export function useRideYears(): number[] {
  const day = today();
  const fitness = api.useTrainingFitnessQuery({ query: { from: day, to: addDays(day, 1) } });
  const thisYear = Number(day.slice(0, 4));
  const firstYear = Number(fitness.data?.first_day?.slice(0, 4) ?? thisYear);
  const years: number[] = [];
  for (let year = thisYear; year >= Math.min(firstYear, thisYear); year--) years.push(year);
  return years;
}

export type Metric = 'time' | 'distance' | 'climbing' | 'tss';

/** A period's figures in the rider's units, for a chart or a cell. */
export function useFigures() {
  const locale = useLocale();
  const units = useUnits(locale);
  const number = (digits: number) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: digits });
  const value = (totals: PeriodTotals, metric: Metric) =>
    metric === 'time'
      ? totals.moving_time_s / 3600
      : metric === 'distance'
        ? totals.distance_m * units.distanceFactor
        : metric === 'climbing'
          ? totals.elevation_gain_m * units.elevationFactor
          : totals.tss;
  const format = (metric: Metric) => (v: number) =>
    metric === 'time'
      ? `${number(1).format(v)} h`
      : metric === 'distance'
        ? `${number(0).format(v)} ${units.distanceUnit}`
        : metric === 'climbing'
          ? `${number(0).format(v)} ${units.elevationUnit}`
          : number(0).format(v);
  return { units, value, format, number };
}
