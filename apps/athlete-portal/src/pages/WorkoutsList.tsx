import { useId, useState, type DragEvent } from 'react';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { Alert, EmptyState, Loading } from '@xoss/ui-kit';
import { Link } from 'react-router';
import { api, client } from '../client.ts';
import { useUnits } from '../units.ts';
import {
  Loaded,
  formText,
  formatDate,
  formatDuration,
  Pager,
  useFailureText,
  useSportName,
  useToast,
} from './common.tsx';

const PAGE_SIZE = 20;

/**
 * `/dashboard/workouts/list`: the rider's workouts, newest first, with sport and date
 * filters and pages; an activity file (.fit, .tcx, .gpx, also .gz) is imported by choosing it
 * or dropping it on the page.
 */
export function WorkoutsList() {
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  const sport = useSportName();
  const toast = useToast();
  const failureText = useFailureText();
  const inputId = useId();
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<{ sport_type?: number; from?: string; to?: string }>({});
  const list = api.useListWorkoutsQuery({ query: { page, page_size: PAGE_SIZE, ...filters } });
  const [importing, setImporting] = useState<{ name: string; share: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const importFile = async (file: File) => {
    setError(null);
    setImporting({ name: file.name, share: 0 });
    const body = new FormData();
    body.set('file', file);
    // Straight through the transport for its upload progress; the list refreshes after.
    const result = await client.transport.call(
      'importWorkout',
      { body },
      {
        headers: { 'Idempotency-Key': crypto.randomUUID() },
        onUploadProgress: (sent, total) => setImporting({ name: file.name, share: sent / total }),
      },
    );
    setImporting(null);
    if (!result.ok) {
      setError(failureText(result.error, { limit: '32 MB', withDetail: true }));
    } else {
      client.store.dispatch(api.util.invalidateTags([{ type: 'Workout', id: 'LIST' }]));
      toast(t('workouts.imported', { name: file.name }));
      setPage(1);
    }
  };
  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    const file = event.dataTransfer.files[0];
    if (file) void importFile(file);
  };

  return (
    <>
      <h1>
        <Message id="workouts.title" />
      </h1>
      <p className="portal__actions">
        <Link className="xoss-button" to="/dashboard/workouts/shared">
          <Message id="shared.title" />
        </Link>
      </p>
      <section
        className="portal__drop"
        aria-labelledby={`${inputId}-label`}
        onDragOver={(event) => event.preventDefault()}
        onDrop={onDrop}
      >
        <label
          id={`${inputId}-label`}
          htmlFor={inputId}
          className="xoss-button"
          data-variant="primary"
        >
          <Message id="workouts.import" />
        </label>
        <input
          id={inputId}
          type="file"
          accept=".fit,.tcx,.gpx,.gz"
          className="xoss-visually-hidden"
          disabled={importing !== null}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void importFile(file);
          }}
        />
        <p>
          <Message id="workouts.drop" />
        </p>
        {importing && importing.share < 1 ? (
          <label className="portal__upload">
            {t('workouts.uploading', { name: importing.name, share: importing.share })}
            <progress max={1} value={importing.share} />
          </label>
        ) : null}
        {importing && importing.share >= 1 ? (
          <Loading label={t('workouts.importing', { name: importing.name })} />
        ) : null}
        <Alert>{error}</Alert>
      </section>
      <form
        className="portal__filters"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const sportValue = formText(form, 'sport');
          setFilters({
            ...(sportValue ? { sport_type: Number(sportValue) } : {}),
            ...(formText(form, 'from') ? { from: formText(form, 'from') } : {}),
            ...(formText(form, 'to') ? { to: formText(form, 'to') } : {}),
          });
          setPage(1);
        }}
      >
        <label>
          <Message id="workouts.filter.sport" />
          <select name="sport" className="xoss-select" defaultValue="">
            <option value="">{t('workouts.filter.all')}</option>
            {Array.from({ length: 12 }, (_, type) => (
              <option key={type} value={type}>
                {sport(type)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <Message id="workouts.filter.from" />
          <input type="date" name="from" className="xoss-select" />
        </label>
        <label>
          <Message id="workouts.filter.to" />
          <input type="date" name="to" className="xoss-select" />
        </label>
        <button type="submit" className="xoss-button">
          <Message id="common.apply" />
        </button>
      </form>
      <Loaded query={list}>
        {(data) =>
          data.results.length === 0 ? (
            <EmptyState title={t('workouts.count', { count: 0 })}>
              <Message id="workouts.empty" />
            </EmptyState>
          ) : (
            <>
              <p>{t('workouts.count', { count: data.count })}</p>
              <div className="portal__table-wrap">
                <table className="xoss-table" data-stack>
                  <caption className="xoss-visually-hidden">{t('workouts.title')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('workouts.name')}</th>
                      <th scope="col">{t('workouts.filter.sport')}</th>
                      <th scope="col">{t('workouts.date')}</th>
                      <th scope="col">{t('measure.distance')}</th>
                      <th scope="col">{t('measure.movingTime')}</th>
                      <th scope="col">{t('measure.speedAvg')}</th>
                      <th scope="col">{t('measure.hrAvg')}</th>
                      <th scope="col">{t('measure.powerAvg')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.results.map((workout) => (
                      <tr key={workout.id}>
                        <th scope="row">
                          <Link to={`/dashboard/workouts/share/${workout.id}`}>{workout.name}</Link>
                        </th>
                        <td data-label={t('workouts.filter.sport')}>{sport(workout.sport_type)}</td>
                        <td data-label={t('workouts.date')}>
                          {formatDate(workout.start_time, locale)}
                        </td>
                        <td data-label={t('measure.distance')}>
                          {units.distance(workout.distance_m)}
                        </td>
                        <td data-label={t('measure.movingTime')}>
                          {formatDuration(workout.moving_time_s)}
                        </td>
                        <td data-label={t('measure.speedAvg')}>
                          {units.speed(workout.speed_avg_ms)}
                        </td>
                        <td data-label={t('measure.hrAvg')}>
                          {units.plain(workout.hr_avg, 'bpm')}
                        </td>
                        <td data-label={t('measure.powerAvg')}>
                          {units.plain(workout.power_avg, 'W')}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={page} pageSize={PAGE_SIZE} list={data} onPage={setPage} />
            </>
          )
        }
      </Loaded>
    </>
  );
}
