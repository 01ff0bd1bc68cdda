import { isErrorReply } from '@xoss/api-client';
import { useId, useState, type DragEvent } from 'react';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { Alert, EmptyState, Loading } from '@xoss/ui-kit';
import { Link, useSearchParams } from 'react-router';
import { api, client, failureMessage } from '../client.ts';

/** The decoder's reason for a GPX without times: a planned route, not a ride. */
const PLANNED_ROUTE = 'activityFiles.gpx.noTimes';
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
} from '../components/common.tsx';
import { CompareBox, CompareLink, useComparePick } from './ComparePick.tsx';

const PAGE_SIZE = 20;

/**
 * `/dashboard/workouts/list`: the rider's workouts, newest first, with sport and date
 * filters and pages; an activity file (.fit, .tcx, .gpx, also .gz) is imported by choosing it
 * or dropping it on the page.
 */
/** What became of each file of an import, in the order they were chosen. */
type ImportResult =
  | { readonly name: string; readonly state: 'waiting' }
  | { readonly name: string; readonly state: 'uploading'; readonly share: number }
  | {
      readonly name: string;
      readonly state: 'imported';
      readonly id: number;
      /** The file's other activities, queued as rides of their own. */
      readonly others: number;
    }
  | { readonly name: string; readonly state: 'duplicate'; readonly id: number }
  | { readonly name: string; readonly state: 'overlap'; readonly id: number; readonly file: File }
  | {
      readonly name: string;
      readonly state: 'failed';
      readonly reason: string;
      /** A GPX of a planned route (no times): it belongs with the routes. */
      readonly route?: boolean;
    };

/** The list's filters and page, kept in the address so a reload or a shared link keeps them. */
function useListState() {
  const [params, setParams] = useSearchParams();
  const sportText = params.get('sport') ?? '';
  const filters = {
    ...(/^\d+$/.test(sportText) ? { sport_type: Number(sportText) } : {}),
    ...(params.get('from') ? { from: params.get('from')! } : {}),
    ...(params.get('to') ? { to: params.get('to')! } : {}),
  };
  const page = Math.max(1, Number(params.get('page')) || 1);
  const update = (next: { sport?: string; from?: string; to?: string; page?: number }) =>
    setParams((current) => {
      const out = new URLSearchParams(current);
      for (const [key, value] of Object.entries(next)) {
        if (value === undefined || value === '' || (key === 'page' && value === 1)) out.delete(key);
        else out.set(key, String(value));
      }
      return out;
    });
  return { filters, page, update, filtered: Object.keys(filters).length > 0 };
}

export function WorkoutsList() {
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  const sport = useSportName();
  const toast = useToast();
  const failureText = useFailureText();
  const inputId = useId();
  const { filters, page, update, filtered } = useListState();
  const list = api.useListWorkoutsQuery({ query: { page, page_size: PAGE_SIZE, ...filters } });
  const compare = useComparePick();
  const [results, setResults] = useState<readonly ImportResult[]>([]);
  const [filterProblem, setFilterProblem] = useState<string | null>(null);
  const importing = results.some(
    (result) => result.state === 'waiting' || result.state === 'uploading',
  );

  const importOne = async (file: File, index: number, keepOverlap = false) => {
    const set = (result: ImportResult) =>
      setResults((all) => all.map((old, at) => (at === index ? result : old)));
    set({ name: file.name, state: 'uploading', share: 0 });
    const body = new FormData();
    body.set('file', file);
    // The rider chose to import a file that starts like a ride already there.
    if (keepOverlap) body.set('overlap', 'keep');
    // Straight through the transport for its upload progress; the list refreshes after.
    const result = await client.transport.call(
      'importWorkout',
      { body },
      {
        // The rider's language names a ride imported without a name (the browser's own
        // Accept-Language may be another).
        headers: { 'Idempotency-Key': crypto.randomUUID(), 'Accept-Language': locale },
        onUploadProgress: (sent, total) =>
          set({ name: file.name, state: 'uploading', share: sent / total }),
      },
    );
    if (result.ok)
      set({
        name: file.name,
        state: 'imported',
        id: result.value.id,
        others: result.value.other_activities,
      });
    else if (
      isErrorReply(result.error) &&
      result.error.code === 10409 &&
      result.error.existingId !== undefined
    )
      set(
        result.error.errors?.some((error) => error.message === 'workouts.overlap')
          ? { name: file.name, state: 'overlap', id: result.error.existingId, file }
          : { name: file.name, state: 'duplicate', id: result.error.existingId },
      );
    else
      set({
        name: file.name,
        state: 'failed',
        reason: failureText(result.error, { limit: '32 MB', withDetail: true }),
        route: failureMessage(result.error).reasonId === PLANNED_ROUTE,
      });
    return result.ok ? 1 + result.value.other_activities : 0;
  };

  /** Several files in one go, one after another (each with its progress and its result). */
  const importFiles = async (files: readonly File[]) => {
    if (files.length === 0) return;
    setResults(files.map((file) => ({ name: file.name, state: 'waiting' as const })));
    let imported = 0;
    let queued = 0;
    for (const [index, file] of files.entries()) {
      const rides = await importOne(file, index);
      if (rides > 0) imported += 1;
      queued += Math.max(0, rides - 1);
    }
    if (imported > 0) {
      const refresh = () =>
        client.store.dispatch(api.util.invalidateTags([{ type: 'Workout', id: 'LIST' }]));
      refresh();
      // A file's other activities land in the list a little after its first.
      if (queued > 0) for (const ms of [3000, 10_000]) setTimeout(refresh, ms);
      if (files.length === 1) toast(t('workouts.imported', { name: files[0]!.name }));
      // The new rides are the newest: show the first page, unfiltered.
      update({ sport: '', from: '', to: '', page: 1 });
    }
  };
  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    if (!importing) void importFiles([...event.dataTransfer.files]);
  };

  return (
    <>
      <div className="portal__page-head">
        <h1>
          <Message id="workouts.title" />
        </h1>
        <p className="portal__actions">
          <Link className="xoss-button" to="/dashboard/workouts/shared">
            <Message id="shared.title" />
          </Link>
          <Link className="xoss-button" to="/dashboard/workouts/archive">
            <Message id="workouts.importArchive" />
          </Link>
        </p>
      </div>
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
          multiple
          accept=".fit,.tcx,.gpx,.gz"
          className="xoss-visually-hidden"
          disabled={importing}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void importFiles(files);
          }}
        />
        <p>
          <Message id="workouts.drop" />
        </p>
        {results.length > 0 ? (
          <ul
            className="portal__imports"
            aria-label={t('workouts.importResults')}
            aria-live="polite"
          >
            {results.map((result, index) => (
              <li key={`${index}-${result.name}`} data-state={result.state}>
                <ImportLine
                  result={result}
                  onKeep={(file) =>
                    void importOne(file, index, true).then((imported) => {
                      if (imported)
                        client.store.dispatch(
                          api.util.invalidateTags([{ type: 'Workout', id: 'LIST' }]),
                        );
                    })
                  }
                />
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <form
        className="portal__filters"
        noValidate
        key={JSON.stringify(filters)}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const from = formText(form, 'from');
          const to = formText(form, 'to');
          if (from && to && from > to) {
            setFilterProblem(t('workouts.filter.backwards'));
            return;
          }
          setFilterProblem(null);
          update({ sport: formText(form, 'sport'), from, to, page: 1 });
        }}
      >
        <label>
          <Message id="workouts.filter.sport" />
          <select
            name="sport"
            className="xoss-select"
            defaultValue={filters.sport_type !== undefined ? String(filters.sport_type) : ''}
          >
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
          <input
            type="date"
            name="from"
            className="xoss-select"
            defaultValue={filters.from ?? ''}
          />
        </label>
        <label>
          <Message id="workouts.filter.to" />
          <input type="date" name="to" className="xoss-select" defaultValue={filters.to ?? ''} />
        </label>
        <button type="submit" className="xoss-button">
          <Message id="common.apply" />
        </button>
        {filtered ? (
          <button
            type="button"
            className="xoss-button"
            onClick={() => update({ sport: '', from: '', to: '', page: 1 })}
          >
            <Message id="workouts.filter.clear" />
          </button>
        ) : null}
      </form>
      <Alert>{filterProblem}</Alert>
      <Loaded query={list}>
        {(data) =>
          data.results.length === 0 ? (
            <EmptyState title={t('workouts.count', { count: 0 })}>
              {filtered ? t('workouts.filter.noMatch') : t('workouts.empty')}
            </EmptyState>
          ) : (
            <>
              <div className="portal__list-head">
                <p>{t('workouts.count', { count: data.count })}</p>
                <CompareLink picked={compare.picked} />
              </div>
              <div className="portal__table-wrap">
                <table className="xoss-table" data-stack data-density="compact">
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
                      <th scope="col">{t('workouts.compareRides.column')}</th>
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
                        <td data-label={t('workouts.compareRides.column')}>
                          <CompareBox id={workout.id} name={workout.name} {...compare} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager
                page={page}
                pageSize={PAGE_SIZE}
                list={data}
                onPage={(next) => update({ page: next })}
              />
            </>
          )
        }
      </Loaded>
    </>
  );
}

/** One file of an import: its name, where it stands, and a link to the ride it made or met. */
function ImportLine({
  result,
  onKeep,
}: {
  result: ImportResult;
  /** The rider imports an overlapping file beside the ride it starts like. */
  onKeep: (file: File) => void;
}) {
  const t = useT();
  switch (result.state) {
    case 'waiting':
      return (
        <span>
          {result.name} · {t('workouts.importResult.waiting')}
        </span>
      );
    case 'uploading':
      return result.share < 1 ? (
        <label className="portal__upload">
          {t('workouts.uploading', { name: result.name, share: result.share })}
          <progress max={1} value={result.share} />
        </label>
      ) : (
        <Loading label={t('workouts.importing', { name: result.name })} />
      );
    case 'imported':
      return (
        <span>
          {result.name} · {t('workouts.importResult.imported')} ·{' '}
          <Link to={`/dashboard/workouts/share/${result.id}`}>{t('workouts.openExisting')}</Link>
          {result.others > 0
            ? ` · ${t('workouts.importResult.otherActivities', { count: result.others })}`
            : null}
        </span>
      );
    case 'duplicate':
      return (
        <span>
          {result.name} · {t('workouts.importResult.duplicate')}: {t('workouts.duplicate')}{' '}
          <Link to={`/dashboard/workouts/share/${result.id}`}>{t('workouts.openExisting')}</Link>
        </span>
      );
    case 'overlap':
      return (
        <span>
          {result.name} · {t('workouts.importResult.overlap')}: {t('workouts.overlap')}{' '}
          <Link to={`/dashboard/workouts/share/${result.id}`}>{t('workouts.openExisting')}</Link>{' '}
          <button type="button" className="xoss-button" onClick={() => onKeep(result.file)}>
            {t('workouts.importAnyway')}
          </button>
        </span>
      );
    case 'failed':
      return (
        <span role="alert">
          {result.name} · {t('workouts.importResult.failed')}: {result.reason}
          {result.route ? (
            <>
              {' '}
              <Link to="/upload/gpxFile">{t('workouts.uploadAsRoute')}</Link>
            </>
          ) : null}
        </span>
      );
  }
}
