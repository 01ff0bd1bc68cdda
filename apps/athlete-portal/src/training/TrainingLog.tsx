// The training log (`/dashboard/training/log`): the calendar of rides, week and year totals.
import { useState } from 'react';
import type { PeriodTotals, TrainingLogReply } from '@xoss/api-contract';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { TotalsChart, TrainingCalendar } from '@xoss/ui-kit';
import { addDays, dayOf, mondayOf, startOfDay } from '@xoss/workout-stats';
import { Link } from 'react-router';
import { api } from '../client.ts';
import { useUnits } from '../units.ts';
import { Loaded, formatDuration, useSportName } from '../components/common.tsx';
import { TrainingLinks } from './TrainingLinks.tsx';
import { today, useFigures, useRideYears, type Metric } from './common.ts';

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
  const [chosen, setYear] = useState<number | null>(null);
  // The years with rides; the newest of them until the rider picks one (this year for a
  // rider without rides).
  const rideYears = useRideYears();
  const year = chosen ?? rideYears?.[0] ?? thisYear;
  const years = rideYears?.length ? rideYears : [year];
  const [period, setPeriod] = useState<'week' | 'month'>('week');
  const [metric, setMetric] = useState<Metric>('distance');
  const figures = useFigures();
  const totals = api.useTrainingTotalsQuery(
    { query: { year, period } },
    { skip: rideYears === undefined },
  );
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
            {years.map((option) => (
              <option key={option} value={option}>
                {option}
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
      <Loaded query={{ ...totals, isLoading: totals.isLoading || rideYears === undefined }}>
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
