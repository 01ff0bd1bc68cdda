import { useState } from 'react';
import type { Comparison } from '@xoss/api-contract';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { CurveChart, type CurveSeries } from '@xoss/ui-kit';
import { useParams } from 'react-router';
import { api } from '../client.ts';
import { useUnits } from '../units.ts';
import { Loaded } from './common.tsx';

/**
 * `/dashboard/workouts/powerCurve/{id}`: power and speed curves from 1 s to the ride's
 * length, compared with the last 6 weeks, this year or a past year (spec 9).
 */
export function PowerCurvePage() {
  const t = useT();
  const units = useUnits(useLocale());
  const id = Number(useParams().id);
  const [compare, setCompare] = useState<Comparison>('last6weeks');
  const curves = api.usePowerCurveQuery({ params: { id }, query: { compare } });
  const thisYear = new Date().getFullYear();
  const options: { value: Comparison; label: string }[] = [
    { value: 'none', label: t('workouts.compare.none') },
    { value: 'last6weeks', label: t('workouts.compare.last6weeks') },
    { value: 'currentYear', label: t('workouts.compare.currentYear') },
    ...[1, 2, 3].map((back) => ({
      value: `year:${thisYear - back}`,
      label: t('workouts.compare.year', { year: thisYear - back }),
    })),
  ];
  const label = options.find((option) => option.value === compare)?.label ?? '';
  return (
    <>
      <h1>
        <Message id="workouts.powerCurve" />
      </h1>
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
                      label: t('workouts.summary'),
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
                      color: '#1660d0',
                    },
                  ]
                : []),
            ];
          };
          return (
            <>
              {data.power ? (
                <CurveChart title={t('workouts.powerCurve')} unit="W" series={curve('power', 1)} />
              ) : null}
              {data.speed ? (
                <CurveChart
                  title={t('workouts.speedCurve')}
                  unit={units.speedUnit}
                  digits={1}
                  series={curve('speed', units.speedFactor)}
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
