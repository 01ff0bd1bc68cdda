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
 * The years a year picker offers, newest first: every year the rider has rides in, and no
 * other (a history of 2008, 2013 and 2025 offers those three). The past years are the
 * power-curve reply's `years_with_rides` (one row per year ridden, kept by the API with
 * each import and delete), asked of the newest ride; this year is there when that ride is
 * from this year. Undefined until known; empty for a rider without rides.
 */
export function useRideYears(): readonly number[] | undefined {
  // The newest ride up to today: a ride dated ahead by a clock never set is not this year's.
  const newest = api.useListWorkoutsQuery({
    query: { page: 1, page_size: 1, to: addDays(today(), 1) },
  });
  const latest = newest.data?.results[0];
  const curves = api.usePowerCurveQuery(
    { params: { id: latest?.id ?? 0 }, query: { compare: 'none' } },
    { skip: !latest },
  );
  if (newest.isError || curves.isError) return [Number(today().slice(0, 4))];
  if (!newest.data) return undefined;
  if (!latest) return [];
  if (!curves.data) return undefined;
  const thisYear = Number(today().slice(0, 4));
  const latestYear = Number(latest.start_time.slice(0, 4));
  const past = curves.data.years_with_rides.filter((year) => year < thisYear);
  return latestYear === thisYear ? [thisYear, ...past] : past;
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
      ? `${number(1).format(v)}\u00a0h`
      : metric === 'distance'
        ? `${number(0).format(v)} ${units.distanceUnit}`
        : metric === 'climbing'
          ? `${number(0).format(v)} ${units.elevationUnit}`
          : number(0).format(v);
  return { units, value, format, number };
}
