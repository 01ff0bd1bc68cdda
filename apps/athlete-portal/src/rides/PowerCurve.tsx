import { useEffect, useState } from 'react';
import type { Comparison, PowerCurveReply } from '@xoss/api-contract';
import { skipToken } from '@reduxjs/toolkit/query';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { chartColors, CurveChart, type CurveSeries } from '@xoss/ui-kit';
import { Link, useParams } from 'react-router';
import { api } from '../client.ts';
import { useUnits } from '../units.ts';
import { Loaded } from '../components/common.tsx';
import { curvesOf, ownRide } from './rideQueries.ts';
import { ModelHistory, ModelSection, modelCurve, useModel } from './PowerModel.tsx';

/** The curves the page can show: power and speed, and heart rate and pace when asked. */
type CurveKind = 'power' | 'speed' | 'heart_rate' | 'pace';
const CURVE_KINDS: readonly CurveKind[] = ['power', 'speed', 'heart_rate', 'pace'];
const EXTRA_CURVES = ['heart_rate', 'pace'] as const;

/** Seconds as `m:ss` (a pace per km or mile). */
const minutesSeconds = (seconds: number) => {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};

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
  const [kind, setKind] = useState<CurveKind>('power');
  const model = useModel();
  // Heart rate and pace are computed from the streams when asked: only once chosen.
  const extra = api.usePowerCurveQuery(
    kind === 'heart_rate' || kind === 'pace'
      ? { params: { id }, query: { compare: 'none', include: [...EXTRA_CURVES] } }
      : skipToken,
  );
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
    const modelled = which === 'power' ? modelCurve(model.data, [asked])[0] : undefined;
    return {
      duration: asked,
      values: {
        ride: pick(data[which]),
        compare: pick(data.comparison?.[which]),
        ...(modelled === undefined ? {} : { model: modelled }),
      },
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
        <Message id="workouts.curveKind" />
        <select
          className="xoss-select"
          value={kind}
          onChange={(event) => setKind(event.target.value as CurveKind)}
        >
          {CURVE_KINDS.map((value) => (
            <option key={value} value={value}>
              {t(
                value === 'power'
                  ? 'measure.power'
                  : value === 'speed'
                    ? 'measure.speed'
                    : value === 'heart_rate'
                      ? 'measure.heartRate'
                      : 'measure.pace',
              )}
            </option>
          ))}
        </select>
      </label>
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
          const power = curve('power', 1);
          const longest = power.reduce<ArrayLike<number>>(
            (best, series) => (series.durations.length > best.length ? series.durations : best),
            [],
          );
          const modelValues = modelCurve(model.data, Array.from(longest));
          const withModel: CurveSeries[] =
            modelValues.length > 0
              ? [
                  ...power,
                  {
                    id: 'model',
                    label: t('workouts.model.line'),
                    durations: longest,
                    values: modelValues,
                    dashed: true,
                    color: chartColors.form,
                  },
                ]
              : power;
          const extraCurve = kind === 'heart_rate' || kind === 'pace' ? extra.data?.[kind] : null;
          const paceFactor = units.miles ? 1.609344 : 1;
          return (
            <>
              {kind === 'power' && data.power ? (
                <CurveChart
                  title={t('workouts.powerCurve')}
                  unit="W"
                  series={withModel}
                  onHover={setPointed}
                  {...optional(exactOf('power', 1))}
                />
              ) : null}
              {extraCurve ? (
                <CurveChart
                  title={t(kind === 'pace' ? 'workouts.paceCurve' : 'workouts.heartRateCurve')}
                  unit={kind === 'pace' ? (units.miles ? '/mi' : '/km') : 'bpm'}
                  {...(kind === 'pace' ? { format: minutesSeconds } : {})}
                  series={[
                    {
                      id: 'ride',
                      label: t('workouts.thisRide'),
                      durations: extraCurve.durations,
                      values: extraCurve.values.map((value) =>
                        value === null ? null : kind === 'pace' ? value * paceFactor : value,
                      ),
                    },
                  ]}
                />
              ) : null}
              {kind === 'speed' && data.speed ? (
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
      <ModelSection model={model} />
      <ModelHistory />
    </>
  );
}

const optional = <T,>(exact: T | undefined) => (exact ? { exact } : {});
