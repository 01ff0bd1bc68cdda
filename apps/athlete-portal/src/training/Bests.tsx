// The bests page (`/dashboard/training/bests`): best efforts, FTP and the best climbs.
import { useState } from 'react';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { Alert, EmptyState } from '@xoss/ui-kit';
import { startOfDay } from '@xoss/workout-stats';
import { Link } from 'react-router';
import { api, client } from '../client.ts';
import { Loaded, useFailureText, useToast } from '../components/common.tsx';
import { TrainingLinks } from './TrainingLinks.tsx';
import { POWER_EFFORTS, useEffortValue } from '../rides/RideBests.tsx';
import { useClimbColumns } from '../rides/RideAnalysis.tsx';
import { ColumnTable } from '../components/ColumnTable.tsx';
import { today, useRideYears } from './common.ts';

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
                    <td data-label="FTP">{row.ftp === null ? '—' : `${row.ftp}\u00a0W`}</td>
                    <td data-label={t('training.history.maxHr')}>
                      {row.max_hr === null ? '—' : `${row.max_hr}\u00a0bpm`}
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
  // Every year with rides (none offered until known: all time is the default).
  const years = useRideYears() ?? [];
  const [year, setYear] = useState<number | null>(null);
  // A runner's bests (running power and pace) are their own, never among a ride's.
  const [sport, setSport] = useState<'ride' | 'run'>('ride');
  const bests = api.usePersonalBestsQuery({
    query: { ...(year === null ? {} : { year }), ...(sport === 'run' ? { sport } : {}) },
  });
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
          {years.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </label>
      <label className="portal__inline">
        <Message id="training.bestsOf" />
        <select
          className="xoss-select"
          value={sport}
          onChange={(event) => setSport(event.target.value === 'run' ? 'run' : 'ride')}
        >
          <option value="ride">{t('training.bestsOf.ride')}</option>
          <option value="run">{t('training.bestsOf.run')}</option>
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
                {t('training.bests')} · {t(`training.bestsOf.${sport}`)} ·{' '}
                {year ?? t('training.range.all')}
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
