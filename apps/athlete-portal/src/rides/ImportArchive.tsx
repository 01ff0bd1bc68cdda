import type { ArchiveImport } from '@xoss/api-contract';
import { useEffect, useId, useMemo, useState } from 'react';
import { useSelector } from 'react-redux';
import type { MessageId } from '@xoss/i18n';
import { Message, useT, useTranslateKnown } from '@xoss/i18n/react';
import { Alert, ConfirmDialog, Loading } from '@xoss/ui-kit';
import { Link } from 'react-router';
import { api, client } from '../client.ts';
import { formatDuration, useFailureText } from '../components/common.tsx';

/** Where the archive being imported is remembered, so the rider can leave and come back. */
export const ARCHIVE_KEY = 'xoss.archiveImport';

/** Reasons the walk gives for an entry it skipped, and the import errors it reports. */
const REASONS: Readonly<Record<string, MessageId>> = {
  unsafePath: 'archive.reason.unsafePath',
  link: 'archive.reason.link',
  zipBomb: 'archive.reason.zipBomb',
  tooLarge: 'archive.reason.tooLarge',
  nestedTooDeep: 'archive.reason.nestedTooDeep',
  csv: 'archive.reason.csv',
  badEntry: 'archive.reason.badEntry',
  notActivity: 'archive.reason.notActivity',
  // The archive's own failures.
  notZip: 'archive.reason.notZip',
  badZip: 'archive.reason.badZip',
  tooManyEntries: 'archive.reason.tooManyEntries',
  tooManyZips: 'archive.reason.tooManyZips',
  archiveTooLarge: 'archive.reason.archiveTooLarge',
  noSpace: 'archive.reason.noSpace',
  walkFailed: 'archive.reason.walkFailed',
  '10400': 'archive.reason.10400',
  '10413': 'archive.reason.10413',
  '10415': 'archive.reason.10415',
  '10503': 'archive.reason.10503',
  // Listed after the failures: what was already here.
  duplicate: 'archive.duplicates',
};

/** The heading of each state of an import. */
const STATUS = {
  queued: 'archive.status.queued',
  running: 'archive.status.running',
  done: 'archive.status.done',
  cancelled: 'archive.status.cancelled',
  failed: 'archive.status.failed',
} as const;

const settled = (status: ArchiveImport['status']) =>
  status === 'done' || status === 'cancelled' || status === 'failed';

/**
 * `/dashboard/workouts/archive`: a whole history in one go, from Strava's or Garmin
 * Connect's export (or ours). The upload shows its progress; then the import's counts, an
 * estimate of the time left, and each activity not imported with its reason. The archive's
 * id is kept in the browser: the rider may leave (the portal stays usable) and come back.
 */
export function ImportArchive() {
  const t = useT();
  const failureText = useFailureText();
  const inputId = useId();
  const [id, setId] = useState<string | null>(() => localStorage.getItem(ARCHIVE_KEY));
  const [sent, setSent] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const upload = async (file: File) => {
    setProblem(null);
    setSent(0);
    const body = new FormData();
    body.set('file', file);
    const reply = await client.transport.call(
      'createArchiveImport',
      { body },
      { onUploadProgress: (done, total) => setSent(done / total) },
    );
    setSent(null);
    if (!reply.ok) {
      setProblem(failureText(reply.error, { limit: '4 GB', withDetail: true }));
      return;
    }
    localStorage.setItem(ARCHIVE_KEY, reply.value.id);
    setId(reply.value.id);
  };

  return (
    <>
      <h1>
        <Message id="archive.title" />
      </h1>
      <p>
        <Message id="archive.intro" />
      </p>
      {id ? (
        <ArchiveProgress
          id={id}
          onAnother={() => {
            localStorage.removeItem(ARCHIVE_KEY);
            setId(null);
          }}
        />
      ) : (
        <section className="portal__card" aria-labelledby={`${inputId}-label`}>
          <label
            id={`${inputId}-label`}
            htmlFor={inputId}
            className="xoss-button"
            data-variant="primary"
          >
            <Message id="archive.choose" />
          </label>
          <input
            id={inputId}
            type="file"
            accept=".zip,application/zip"
            className="xoss-visually-hidden"
            disabled={sent !== null}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void upload(file);
            }}
          />
          {sent !== null ? (
            <p>
              <Message id="archive.uploading" values={{ share: Math.round(sent * 100) }} />
              <progress max={1} value={sent} aria-label={t('archive.uploadProgress')} />
            </p>
          ) : null}
          {problem ? <Alert>{problem}</Alert> : null}
        </section>
      )}
      <p className="portal__link-row">
        <Link to="/dashboard/workouts/list">
          <Message id="archive.toRides" />
        </Link>
      </p>
    </>
  );
}

/** The import of one archive: counts, a progress bar, time left, failures, Cancel. */
function ArchiveProgress({ id, onAnother }: { id: string; onAnother: () => void }) {
  const t = useT();
  const failureText = useFailureText();
  // The last answer held in the store decides whether to keep asking.
  const select = useMemo(() => api.endpoints.getArchiveImport.select({ params: { id } }), [id]);
  const cached = useSelector(select).data?.status;
  const finished = cached !== undefined && settled(cached);
  const query = api.useGetArchiveImportQuery(
    { params: { id } },
    { pollingInterval: finished ? 0 : 2000 },
  );
  const [cancel, cancelling] = api.useCancelArchiveImportMutation();
  // Cancelling stops what is not imported yet: asked first.
  const [confirming, setConfirming] = useState(false);
  const known = useTranslateKnown();
  /**
   * Why an activity was not imported: a file that cannot be read as a ride says the API's
   * own reason (its detail: "The track has no times: it is a planned route…"), in the
   * rider's language when it is a catalogue id; the archive's own reasons from the catalogue.
   */
  const reasonOf = (failure: { code: string; message: string }) =>
    failure.code === '10415' && failure.message
      ? (known(failure.message) ?? failure.message)
      : REASONS[failure.code]
        ? t(REASONS[failure.code]!)
        : failure.message;
  const data = query.data;
  useEffect(() => {
    // The rides list and the training pages hold the new rides now.
    if (finished) client.store.dispatch(api.util.invalidateTags([{ type: 'Workout', id: 'LIST' }]));
  }, [finished]);
  if (query.isLoading) return <Loading />;
  if (!data) {
    return (
      <section className="portal__card">
        <Alert>{failureText(query.error)}</Alert>
        <button type="button" className="xoss-button" onClick={onAnother}>
          <Message id="archive.another" />
        </button>
      </section>
    );
  }
  const total = data.total ?? 0;
  // The pace so far (from the upload to the latest answer) gives the time left.
  const elapsedS = ((query.fulfilledTimeStamp ?? 0) - Date.parse(data.created_at)) / 1000;
  const rate = elapsedS > 0 ? data.done / elapsedS : 0;
  const left = total > data.done && rate > 0 ? (total - data.done) / rate : null;
  return (
    <section className="portal__card" aria-labelledby="archive-progress" aria-live="polite">
      <h2 id="archive-progress">{t(STATUS[data.status])}</h2>
      {data.total === null ? (
        <p>
          <Message id="archive.reading" />
        </p>
      ) : (
        <>
          <progress
            max={Math.max(1, total)}
            value={data.done}
            aria-label={t('archive.progress', { done: data.done, total })}
          />
          <p>
            <Message id="archive.progress" values={{ done: data.done, total }} />
            {left !== null && !finished ? (
              <>
                {' · '}
                <Message id="archive.timeLeft" values={{ time: formatDuration(left) }} />
              </>
            ) : null}
          </p>
          <dl className="portal__figures">
            <div>
              <dt>
                <Message id="archive.imported" />
              </dt>
              <dd>{data.imported}</dd>
            </div>
            <div>
              <dt>
                <Message id="archive.duplicates" />
              </dt>
              <dd>{data.duplicates}</dd>
            </div>
            <div>
              <dt>
                <Message id="archive.failed" />
              </dt>
              <dd>{data.failed}</dd>
            </div>
          </dl>
        </>
      )}
      {data.error ? (
        <Alert>
          <Message
            id="archive.unreadable"
            values={{
              reason: REASONS[data.error.code] ? t(REASONS[data.error.code]!) : data.error.message,
            }}
          />
        </Alert>
      ) : null}
      {data.failures.length > 0 ? (
        <>
          <h3 id="archive-failures">
            <Message id="archive.failures" />
          </h3>
          <ul className="portal__failures" aria-labelledby="archive-failures">
            {data.failures.map((failure, index) => (
              <li key={`${index}-${failure.name}`}>
                <code>{failure.name}</code>
                {' · '}
                {reasonOf(failure)}
                {failure.code === '10415' &&
                /\bplanned route\b|gpx\.noTimes/i.test(failure.message) ? (
                  <>
                    {' '}
                    <Link to="/upload/gpxFile">{t('workouts.uploadAsRoute')}</Link>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p className="portal__actions">
        {finished ? (
          <>
            <Link className="xoss-button" data-variant="primary" to="/dashboard/workouts/list">
              <Message id="archive.openRides" />
            </Link>
            <button type="button" className="xoss-button" onClick={onAnother}>
              <Message id="archive.another" />
            </button>
          </>
        ) : (
          <button
            type="button"
            className="xoss-button"
            disabled={cancelling.isLoading}
            onClick={() => setConfirming(true)}
          >
            <Message id="archive.cancel" />
          </button>
        )}
      </p>
      <ConfirmDialog
        open={confirming && !finished}
        tone="danger"
        message={t('archive.cancelConfirm')}
        confirmLabel={t('archive.cancel')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void cancel({ params: { id } }).then(() => query.refetch());
        }}
      />
    </section>
  );
}
