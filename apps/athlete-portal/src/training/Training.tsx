import { useState } from 'react';
import type { PeriodTotals, TrainingLogReply } from '@xoss/api-contract';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import {
  Alert,
  EmptyState,
  FitnessChart,
  TotalsChart,
  TrainingCalendar,
  TrendChart,
} from '@xoss/ui-kit';
import { addDays, dayOf, mondayOf, startOfDay } from '@xoss/workout-stats';
import { Link } from 'react-router';
import { api, client } from '../client.ts';
import { useUnits } from '../units.ts';
import { Loaded, formatDuration, useFailureText, useSportName, useToast } from './common.tsx';
import { TrainingLinks } from './TrainingLinks.tsx';
import { POWER_EFFORTS, useEffortValue } from './RideBests.tsx';
import { useClimbColumns } from './RideAnalysis.tsx';
import { ColumnTable } from './ColumnTable.tsx';

/** Rides the efficiency trend's rolling mean spans. */
const TREND_RIDES = 5;

/**
 * Efficiency factor and aerobic decoupling ride by ride over the fitness page's period, each
 * with the rolling mean of the last rides: a rising EF and a falling decoupling show the
 * aerobic base growing.
 */
function EfficiencyTrend({ from, to }: { from: string | undefined; to: string }) {
  const t = useT();
  const locale = useLocale();
  const efficiency = api.useTrainingEfficiencyQuery({ query: { to, ...(from ? { from } : {}) } });
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
                  format={(value) => `${number(1).format(value)} %`}
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

/** The hardest climbs of the year or of all time, each with a link to its ride. */
function BestClimbs({ year }: { year: number | null }) {
  const t = useT();
  const locale = useLocale();
  const climbs = api.useBestClimbsQuery({
    query: { limit: 10, ...(year === null ? {} : { year }) },
  });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const columns = useClimbColumns();
  return (
    <section aria-labelledby="best-climbs">
      <h2 id="best-climbs">{t('training.climbs')}</h2>
      <Loaded query={climbs}>
        {(data) =>
          data.climbs.length === 0 ? (
            <p>{t('training.noClimbs')}</p>
          ) : (
            <ColumnTable
              labelledBy="best-climbs"
              rowHeading={t('training.ride')}
              rows={data.climbs}
              rowKey={(climb) => `${climb.workout_id}-${climb.start_s}`}
              rowHead={(climb) => (
                <>
                  <Link to={`/dashboard/workouts/share/${climb.workout_id}`}>{climb.name}</Link>
                  <br />
                  {date.format(new Date(climb.start_time))}
                </>
              )}
              columns={columns}
            />
          )
        }
      </Loaded>
    </section>
  );
}

/** Today as the API counts days (UTC). */
const today = () => dayOf(Date.now());

type Metric = 'time' | 'distance' | 'climbing' | 'tss';

/** A period's figures in the rider's units, for a chart or a cell. */
function useFigures() {
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

function DayRides({ day }: { day: TrainingLogReply['days'][number] }) {
  const units = useUnits(useLocale());
  const sport = useSportName();
  if (day.rides_list.length === 0) return null;
  return (
    <ul>
      {day.rides_list.map((ride) => (
        <li key={ride.id}>
          <Link to={`/dashboard/workouts/share/${ride.id}`}>{ride.name}</Link>
          <br />
          {sport(ride.sport_type)} · {formatDuration(ride.moving_time_s)} ·{' '}
          {units.distance(ride.distance_m)}
          {ride.tss !== null ? ` · TSS ${Math.round(ride.tss)}` : ''}
        </li>
      ))}
    </ul>
  );
}

function WeekTotals({ week }: { week: PeriodTotals | undefined }) {
  const t = useT();
  const units = useUnits(useLocale());
  if (!week) return null;
  return (
    <>
      {t('training.rides', { count: week.rides })}
      {week.rides > 0 ? (
        <>
          <br />
          {formatDuration(week.moving_time_s)}
          <br />
          {units.distance(week.distance_m)}
          <br />
          {units.elevation(week.elevation_gain_m)}
          <br />
          TSS {Math.round(week.tss)}
        </>
      ) : null}
    </>
  );
}

/** Weekly or monthly totals of a year, one figure at a time. */
function YearTotals() {
  const t = useT();
  const thisYear = new Date().getUTCFullYear();
  const [year, setYear] = useState(thisYear);
  const [period, setPeriod] = useState<'week' | 'month'>('week');
  const [metric, setMetric] = useState<Metric>('distance');
  const figures = useFigures();
  const totals = api.useTrainingTotalsQuery({ query: { year, period } });
  const metrics: Metric[] = ['time', 'distance', 'climbing', 'tss'];
  return (
    <section aria-labelledby="year-totals">
      <h2 id="year-totals">{t('training.totals', { year })}</h2>
      <div className="portal__actions">
        <label className="portal__inline">
          <Message id="training.year" />
          <select
            className="xoss-select"
            value={year}
            onChange={(event) => setYear(Number(event.target.value))}
          >
            {[0, 1, 2, 3, 4].map((back) => (
              <option key={back} value={thisYear - back}>
                {thisYear - back}
              </option>
            ))}
          </select>
        </label>
        <label className="portal__inline">
          <Message id="training.view" />
          <select
            className="xoss-select"
            value={period}
            onChange={(event) => setPeriod(event.target.value === 'month' ? 'month' : 'week')}
          >
            <option value="week">{t('training.weekly')}</option>
            <option value="month">{t('training.monthly')}</option>
          </select>
        </label>
        <label className="portal__inline">
          <Message id="training.metric" />
          <select
            className="xoss-select"
            value={metric}
            onChange={(event) => setMetric(event.target.value as Metric)}
          >
            {metrics.map((m) => (
              <option key={m} value={m}>
                {t(`training.metric.${m}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Loaded query={totals}>
        {(data) => (
          <TotalsChart
            title={`${t(`training.metric.${metric}`)} · ${t(
              period === 'week' ? 'training.weekly' : 'training.monthly',
            )}`}
            period={data.period}
            bars={data.periods.map((p) => ({ start: p.start, value: figures.value(p, metric) }))}
            format={figures.format(metric)}
          />
        )}
      </Loaded>
    </section>
  );
}

/** `/dashboard/training/log`: a month calendar or a week of rides, and a year's totals. */
export function TrainingLogPage() {
  const t = useT();
  const locale = useLocale();
  const [view, setView] = useState<'month' | 'week'>('month');
  const [anchor, setAnchor] = useState(today);
  const month = anchor.slice(0, 7);
  const from = view === 'month' ? mondayOf(`${month}-01`) : mondayOf(anchor);
  const length = view === 'month' ? 42 : 7;
  const to = addDays(from, length);
  const log = api.useTrainingLogQuery({ query: { from, to } });
  const move = (direction: 1 | -1) => {
    if (view === 'week') setAnchor(addDays(anchor, 7 * direction));
    else {
      const date = new Date(startOfDay(`${month}-01`));
      date.setUTCMonth(date.getUTCMonth() + direction);
      setAnchor(dayOf(date));
    }
  };
  const title =
    view === 'month'
      ? new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
          startOfDay(`${month}-01`),
        )
      : `${new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(
          startOfDay(from),
        )} – ${new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(
          startOfDay(addDays(from, 6)),
        )}`;
  return (
    <>
      <h1>{t('training.log')}</h1>
      <TrainingLinks />
      <div className="portal__actions">
        <button type="button" className="xoss-button" onClick={() => move(-1)}>
          <Message id="training.previous" />
        </button>
        <button type="button" className="xoss-button" onClick={() => setAnchor(today())}>
          <Message id="training.today" />
        </button>
        <button type="button" className="xoss-button" onClick={() => move(1)}>
          <Message id="training.next" />
        </button>
        <label className="portal__inline">
          <Message id="training.view" />
          <select
            className="xoss-select"
            value={view}
            onChange={(event) => setView(event.target.value === 'week' ? 'week' : 'month')}
          >
            <option value="month">{t('training.month')}</option>
            <option value="week">{t('training.week')}</option>
          </select>
        </label>
      </div>
      <Loaded query={log}>
        {(data) => (
          <TrainingCalendar
            title={title}
            today={today()}
            {...(view === 'month' ? { month } : {})}
            days={data.days.map((day) => ({ day: day.start, content: <DayRides day={day} /> }))}
            weekTotals={Array.from({ length: length / 7 }, (_, i) => (
              <WeekTotals
                key={i}
                week={data.weeks.find((week) => week.start === addDays(from, i * 7))}
              />
            ))}
          />
        )}
      </Loaded>
      <YearTotals />
    </>
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
      <EfficiencyTrend from={from} to={end} />
    </>
  );
}

/** The FTP estimate of the season, its rule, a suggestion and the threshold history. */
function FtpSection() {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const failureText = useFailureText();
  const estimate = api.useFtpEstimateQuery({ query: { days: 365 } });
  const [save, saving] = api.usePatchAthleteMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const id = Number(client.session.userId() ?? 0);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const adoptFtp = async (watts: number) => {
    const result = await save({
      params: { id },
      body: { settings: { ftp: watts }, thresholds_from: today() },
    });
    if ('error' in result) setProblem(failureText(result.error));
    else {
      setProblem(null);
      toast(t('toast.saveSuccess'));
    }
  };
  return (
    <section aria-labelledby="ftp">
      <h2 id="ftp">{t('training.ftp.title')}</h2>
      <Loaded query={estimate}>
        {(data) => (
          <>
            <p>
              {t(data.rule === 'hour' ? 'training.ftp.rule.hour' : 'training.ftp.rule.twenty')} ·{' '}
              {t('training.ftp.season', { days: 365 })}
            </p>
            <p>
              {data.estimate === null ? (
                t('training.ftp.none')
              ) : (
                <strong>
                  {t('training.ftp.estimate', { watts: data.estimate })}
                  {data.weight_kg
                    ? ` · ${t('training.ftp.wkg', { value: number.format(data.estimate / data.weight_kg) })}`
                    : ''}
                </strong>
              )}
              {data.ftp !== null ? <> · {t('training.ftp.current', { watts: data.ftp })}</> : null}
            </p>
            {data.suggestion !== null ? (
              <p className="portal__card" data-testid="ftp-suggestion">
                {t('training.ftp.suggestion', { watts: data.suggestion })}{' '}
                <button
                  type="button"
                  className="xoss-button"
                  disabled={saving.isLoading}
                  onClick={() => void adoptFtp(data.suggestion!)}
                >
                  {t('training.ftp.use', { watts: data.suggestion })}
                </button>
              </p>
            ) : null}
            {problem ? <Alert>{problem}</Alert> : null}
            <table className="xoss-table" data-stack>
              <caption>{t('training.history')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('training.history.from')}</th>
                  <th scope="col">FTP</th>
                  <th scope="col">{t('training.history.maxHr')}</th>
                </tr>
              </thead>
              <tbody>
                {data.history.map((row) => (
                  <tr key={row.from}>
                    <th scope="row">
                      {row.from === '1970-01-01'
                        ? '—'
                        : new Intl.DateTimeFormat(locale, {
                            dateStyle: 'medium',
                            timeZone: 'UTC',
                          }).format(startOfDay(row.from))}
                    </th>
                    <td data-label="FTP">{row.ftp === null ? '—' : `${row.ftp} W`}</td>
                    <td data-label={t('training.history.maxHr')}>
                      {row.max_hr === null ? '—' : `${row.max_hr} bpm`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Loaded>
    </section>
  );
}

/** `/dashboard/training/bests`: the best efforts of a year or of all time, with their rides. */
export function BestsPage() {
  const t = useT();
  const locale = useLocale();
  const thisYear = new Date().getUTCFullYear();
  const [year, setYear] = useState<number | null>(null);
  const bests = api.usePersonalBestsQuery({ query: year === null ? {} : { year } });
  const id = Number(client.session.userId() ?? 0);
  const athlete = api.useGetAthleteQuery({ params: { id } }, { skip: id === 0 });
  const valueOf = useEffortValue(athlete.data?.settings.weight_kg);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  return (
    <>
      <h1>{t('training.bests')}</h1>
      <TrainingLinks />
      <label className="portal__inline">
        <Message id="training.year" />
        <select
          className="xoss-select"
          value={year ?? 'all'}
          onChange={(event) =>
            setYear(event.target.value === 'all' ? null : Number(event.target.value))
          }
        >
          <option value="all">{t('training.range.all')}</option>
          {[0, 1, 2, 3, 4].map((back) => (
            <option key={back} value={thisYear - back}>
              {thisYear - back}
            </option>
          ))}
        </select>
      </label>
      <Loaded query={bests}>
        {(data) =>
          data.efforts.every((effort) => effort.bests.length === 0) ? (
            <EmptyState title={t('training.bests')}>
              <Message id="training.noBests" />
            </EmptyState>
          ) : (
            <table className="xoss-table" data-stack>
              <caption>
                {t('training.bests')} · {year ?? t('training.range.all')}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('training.effort')}</th>
                  {[1, 2, 3].map((rank) => (
                    <th key={rank} scope="col">
                      {t('training.rank')} {rank}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.efforts.map((effort) => (
                  <tr key={effort.effort} data-effort={effort.effort}>
                    <th scope="row">
                      {t(
                        POWER_EFFORTS.includes(effort.effort)
                          ? 'training.bestPower'
                          : 'training.fastestTime',
                      )}{' '}
                      {t(`training.effort.${effort.effort}`)}
                    </th>
                    {[0, 1, 2].map((index) => {
                      const best = effort.bests[index];
                      return (
                        <td key={index} data-label={`${t('training.rank')} ${index + 1}`}>
                          {best ? (
                            <>
                              <strong>{valueOf(effort.effort, best.value)}</strong>
                              <br />
                              <Link to={`/dashboard/workouts/share/${best.workout_id}`}>
                                {best.name}
                              </Link>
                              <br />
                              {date.format(new Date(best.start_time))}
                            </>
                          ) : (
                            '—'
                          )}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
      <BestClimbs year={year} />
      <FtpSection />
    </>
  );
}
