// The fitness page (`/dashboard/training/fitness`): fitness, fatigue and form, and the
// efficiency trend.
import { useState } from 'react';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { EmptyState, FitnessChart, TrendChart } from '@xoss/ui-kit';
import { Link } from 'react-router';
import { addDays } from '@xoss/workout-stats';
import { api } from '../client.ts';
import { Loaded } from '../components/common.tsx';
import { TrainingLinks } from './TrainingLinks.tsx';
import { today } from './common.ts';

/** Rides the efficiency trend's rolling mean spans. */
const TREND_RIDES = 5;

/**
 * Efficiency factor and aerobic decoupling ride by ride over the fitness page's period, each
 * with the rolling mean of the last rides: a rising EF and a falling decoupling show the
 * aerobic base growing.
 */
function EfficiencyTrend({ from, to }: { from: string; to: string }) {
  const t = useT();
  const locale = useLocale();
  const efficiency = api.useTrainingEfficiencyQuery({ query: { from, to } });
  const number = (digits: number) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return (
    <section aria-labelledby="efficiency">
      <h2 id="efficiency">{t('training.efficiency')}</h2>
      <Loaded query={efficiency}>
        {(data) => {
          const ef = data.points.flatMap((point) =>
            point.efficiency_factor === null
              ? []
              : [{ date: point.date, value: point.efficiency_factor }],
          );
          const decoupling = data.points.flatMap((point) =>
            point.decoupling_pct === null
              ? []
              : [{ date: point.date, value: point.decoupling_pct }],
          );
          const mean = t('training.rollingMean', { count: TREND_RIDES });
          return (
            <>
              {ef.length === 0 && decoupling.length === 0 ? (
                <p>{t('training.noEfficiency')}</p>
              ) : null}
              {ef.length > 0 ? (
                <TrendChart
                  title={t('training.ef')}
                  points={ef}
                  window={TREND_RIDES}
                  pointLabel={t('training.ridePoint')}
                  meanLabel={mean}
                  format={(value) => number(2).format(value)}
                />
              ) : null}
              {decoupling.length > 0 ? (
                <TrendChart
                  title={t('training.decoupling')}
                  points={decoupling}
                  window={TREND_RIDES}
                  pointLabel={t('training.ridePoint')}
                  meanLabel={mean}
                  format={(value) => `${number(1).format(value)}\u00a0%`}
                />
              ) : null}
              {data.pending > 0 ? (
                <p className="portal__note">{t('training.pending', { count: data.pending })}</p>
              ) : null}
              <p>
                <Message id="training.efficiencyNote" />
              </p>
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

type FitnessRange = 'days90' | 'season' | 'all';

/** `/dashboard/training/fitness`: fitness, fatigue, form and ramp rate over a period. */
export function FitnessPage() {
  const t = useT();
  const locale = useLocale();
  const [range, setRange] = useState<FitnessRange>('days90');
  const end = addDays(today(), 1);
  const from =
    range === 'days90'
      ? addDays(end, -90)
      : range === 'season'
        ? `${today().slice(0, 4)}-01-01`
        : undefined;
  const fitness = api.useTrainingFitnessQuery({
    query: { to: end, ...(from ? { from } : {}) },
  });
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  // All time starts at the first ride: the fitness reply's `from` (the efficiency endpoint
  // without `from` answers only the last 365 days).
  const efficiencyFrom = range === 'all' ? fitness.currentData?.from : from;
  return (
    <>
      <h1>{t('training.fitness')}</h1>
      <TrainingLinks />
      <label className="portal__inline">
        <Message id="training.range" />
        <select
          className="xoss-select"
          value={range}
          onChange={(event) => setRange(event.target.value as FitnessRange)}
        >
          {(['days90', 'season', 'all'] as const).map((value) => (
            <option key={value} value={value}>
              {t(`training.range.${value}`)}
            </option>
          ))}
        </select>
      </label>
      <Loaded query={fitness}>
        {(data) => {
          const last = data.days[data.days.length - 1];
          // No ride's load in the period and none carried in: flat zero lines say nothing.
          if (data.days.every((day) => day.tss === 0 && day.ctl === 0))
            return (
              <EmptyState
                title={t('training.fitnessEmpty')}
                action={
                  <Link className="xoss-button" to="/dashboard/workouts/list">
                    {t('workouts.import')}
                  </Link>
                }
              >
                {t('training.fitnessEmptyBody')}
              </EmptyState>
            );
          return (
            <>
              {last ? (
                <dl className="portal__figures">
                  <div>
                    <dt>{t('training.ctl')}</dt>
                    <dd>{number.format(last.ctl)}</dd>
                  </div>
                  <div>
                    <dt>{t('training.atl')}</dt>
                    <dd>{number.format(last.atl)}</dd>
                  </div>
                  <div>
                    <dt>{t('training.form')}</dt>
                    <dd>{number.format(last.form)}</dd>
                  </div>
                  <div>
                    <dt>{t('training.ramp')}</dt>
                    <dd>{t('training.rampValue', { value: number.format(last.ramp) })}</dd>
                  </div>
                </dl>
              ) : null}
              <FitnessChart title={t('training.fitness')} days={data.days} />
              <p>
                <Message id="training.pmcNote" />
              </p>
            </>
          );
        }}
      </Loaded>
      {efficiencyFrom ? <EfficiencyTrend from={efficiencyFrom} to={end} /> : null}
    </>
  );
}
