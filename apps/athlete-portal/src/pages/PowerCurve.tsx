import { useEffect, useState } from 'react';
import type { Comparison, PowerCurveReply } from '@xoss/api-contract';
import { skipToken } from '@reduxjs/toolkit/query';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { chartColors, CurveChart, type CurveSeries } from '@xoss/ui-kit';
import { Link, useParams } from 'react-router';
import { api } from '../client.ts';
import { useUnits } from '../units.ts';
import { Loaded } from './common.tsx';
import { curvesOf, ownRide } from './rideQueries.ts';

/** How long the pointer rests on a duration before its exact values are asked for. */
const HOVER_ASK_MS = 120;

/**
 * The duration the rider points at, once the pointer has rested there: the curves arrive
 * at log-spaced durations, and the value between them is fetched exact (`at=`), never
 * interpolated.
 */
function usePointedDuration() {
  const [pointed, setPointed] = useState<number | null>(null);
  const [asked, setAsked] = useState<number | null>(null);
  useEffect(() => {
    if (pointed === null) return;
    const timer = setTimeout(() => setAsked(pointed), HOVER_ASK_MS);
    return () => clearTimeout(timer);
  }, [pointed]);
  return { asked, setPointed };
}

/**
 * `/dashboard/workouts/powerCurve/{id}`: power and speed curves from 1 s to the ride's
 * length, compared with the last 6 weeks, this year or a past year (spec 9). It names the
 * ride it belongs to, with a link back to it (the ride's detail is usually in the cache).
 */
export function PowerCurvePage() {
  const t = useT();
  const units = useUnits(useLocale());
  const id = Number(useParams().id);
  const ride = api.useGetWorkoutQuery(ownRide(id).workout);
  const [compare, setCompare] = useState<Comparison>('last6weeks');
  const curves = api.usePowerCurveQuery(
    compare === 'last6weeks' ? curvesOf(id) : { params: { id }, query: { compare } },
  );
  const { asked, setPointed } = usePointedDuration();
  const exactReply = api.usePowerCurveQuery(
    asked === null ? skipToken : { params: { id }, query: { compare, at: asked } },
  );
  const exactOf = (
    which: 'power' | 'speed',
    factor: number,
  ): { duration: number; values: Record<string, number | null> } | undefined => {
    const data: PowerCurveReply | undefined = exactReply.data;
    if (asked === null || !data || exactReply.isFetching) return undefined;
    const pick = (curve: PowerCurveReply['power'] | undefined) => {
      const value = curve && curve.durations[0] === asked ? curve.values[0] : undefined;
      return value === null || value === undefined ? null : value * factor;
    };
    return {
      duration: asked,
      values: { ride: pick(data[which]), compare: pick(data.comparison?.[which]) },
    };
  };
  // The past years offered are the years the rider rode (the reply names them).
  const years = curves.data?.years_with_rides ?? [];
  const options: { value: Comparison; label: string }[] = [
    { value: 'none', label: t('workouts.compare.none') },
    { value: 'last6weeks', label: t('workouts.compare.last6weeks') },
    { value: 'currentYear', label: t('workouts.compare.currentYear') },
    ...years.map((year) => ({
      value: `year:${year}`,
      label: t('workouts.compare.year', { year }),
    })),
  ];
  const label = options.find((option) => option.value === compare)?.label ?? '';
  return (
    <>
      <h1>
        <Message id="workouts.powerCurve" />
      </h1>
      {ride.data ? (
        <p className="portal__back">
          <Link to={`/dashboard/workouts/share/${id}`}>
            {t('workouts.backToRide', { name: ride.data.name })}
          </Link>
        </p>
      ) : null}
      <label className="portal__inline">
        <Message id="workouts.compareWith" />
        <select
          className="xoss-select"
          value={compare}
          onChange={(event) => setCompare(event.target.value)}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <Loaded query={curves}>
        {(data) => {
          const curve = (which: 'power' | 'speed', factor: number): CurveSeries[] => {
            const own = data[which];
            const other = data.comparison?.[which];
            const scale = (values: (number | null)[]) =>
              values.map((value) => (value === null ? null : value * factor));
            return [
              ...(own
                ? [
                    {
                      id: 'ride',
                      label: t('workouts.thisRide'),
                      durations: own.durations,
                      values: scale(own.values),
                    },
                  ]
                : []),
              ...(other
                ? [
                    {
                      id: 'compare',
                      label,
                      durations: other.durations,
                      values: scale(other.values),
                      dashed: true,
                      color: chartColors.comparison,
                    },
                  ]
                : []),
            ];
          };
          return (
            <>
              {data.power ? (
                <CurveChart
                  title={t('workouts.powerCurve')}
                  unit="W"
                  series={curve('power', 1)}
                  onHover={setPointed}
                  {...optional(exactOf('power', 1))}
                />
              ) : null}
              {data.speed ? (
                <CurveChart
                  title={t('workouts.speedCurve')}
                  unit={units.speedUnit}
                  digits={1}
                  series={curve('speed', units.speedFactor)}
                  onHover={setPointed}
                  {...optional(exactOf('speed', units.speedFactor))}
                />
              ) : null}
              {data.ftp_estimate ? (
                <p>{t('workouts.ftpEstimate', { watts: Math.round(data.ftp_estimate) })}</p>
              ) : null}
            </>
          );
        }}
      </Loaded>
    </>
  );
}

const optional = <T,>(exact: T | undefined) => (exact ? { exact } : {});
