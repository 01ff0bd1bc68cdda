import type { WorkoutDetail, WorkoutPatch } from '@xoss/api-contract';
import { useT } from '@xoss/i18n/react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api } from '../client.ts';
import { formatDuration, useFailureText, useSportName, useToast } from '../components/common.tsx';

/** `h:mm:ss`, `m:ss` or minutes as typed, in seconds; undefined when it is none of them. */
export function parseDuration(text: string): number | undefined {
  const parts = text.trim().split(':');
  if (parts.length > 3 || parts.some((part) => !/^\d+(\.\d+)?$/.test(part))) return undefined;
  const numbers = parts.map(Number);
  if (numbers.length === 1) return numbers[0]! * 60;
  return numbers.reduce((total, value) => total * 60 + value, 0);
}

/** A date as the `datetime-local` input takes it, in UTC (rides are dated in UTC). */
const localInput = (iso: string) => iso.slice(0, 16);

/**
 * What the rider can correct of their ride, beside its figures: a doubtful date, the legs of a
 * multisport file, samples the cleaning took out, whose FTP, leaving it out of bests and
 * training, and a crop (each undone the same way). The API analyses the ride again from its
 * file, which stays as it was.
 */
export function RideCorrections({ workout }: { workout: WorkoutDetail }) {
  const t = useT();
  const toast = useToast();
  const sport = useSportName();
  const failureText = useFailureText();
  const [patch, patching] = api.usePatchWorkoutMutation();
  const [error, setError] = useState<string | null>(null);
  const [start, setStart] = useState(localInput(workout.start_time));
  const [from, setFrom] = useState('0:00');
  const [to, setTo] = useState(formatDuration(workout.total_time_s));

  const send = async (body: WorkoutPatch, done: string) => {
    setError(null);
    const result = await patch({ params: { id: workout.id }, body });
    if ('error' in result) return setError(failureText(result.error, { withDetail: true }));
    toast(done);
  };
  const removed = workout.summary.removed_samples;
  const channels = removed
    ? (['power', 'heart_rate', 'cadence', 'speed', 'distance', 'points'] as const).filter(
        (channel) => removed[channel] > 0,
      )
    : [];
  const crop = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const startS = parseDuration(from);
    const endS = parseDuration(to);
    if (startS === undefined || endS === undefined || !(endS > startS))
      return setError(t('workouts.correct.cropInvalid'));
    // Typed in seconds of the ride as shown; sent in seconds of the whole recording, from
    // where the ride as shown begins in it (past the crop's start, and past what the cleaning
    // left out at the start).
    const origin = workout.recording_offset_s ?? workout.crop?.start_s ?? 0;
    void send(
      { crop: { start_s: origin + startS, end_s: origin + endS } },
      t('workouts.correct.cropped'),
    );
  };
  const move = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!start) return;
    void send({ start_time: `${start}:00Z` }, t('workouts.correct.moved'));
  };
  const busy = patching.isLoading;
  // When the ride really started: under a doubtful date's warning, or among the corrections.
  const moveFields = (
    <>
      <label>
        {t('workouts.correct.startedAt')}
        <input
          className="xoss-select"
          type="datetime-local"
          value={start}
          onChange={(event) => setStart(event.target.value)}
          required
        />
      </label>
      <button className="xoss-button" type="submit" disabled={busy}>
        {t('workouts.correct.move')}
      </button>
    </>
  );

  return (
    <>
      {workout.date_warning ? (
        <form className="xoss-alert portal__correct-date" role="status" onSubmit={move}>
          <p>{t('workouts.correct.dateWarning', { kind: workout.date_warning })}</p>
          {moveFields}
        </form>
      ) : null}
      {workout.legs.length > 1 ? (
        <nav className="portal__legs" aria-label={t('workouts.correct.legs')}>
          <span>{t('workouts.correct.legs')}: </span>
          {workout.legs.map((leg, index) => (
            <span key={leg.id}>
              {index > 0 ? ' · ' : ''}
              {leg.id === workout.id ? (
                <strong aria-current="page">{sport(leg.sport_type)}</strong>
              ) : (
                <Link to={`/dashboard/workouts/share/${leg.id}`}>{sport(leg.sport_type)}</Link>
              )}
            </span>
          ))}
        </nav>
      ) : null}
      {channels.length > 0 ? (
        <p className="portal__note">
          {t(workout.keep_removed ? 'workouts.correct.kept' : 'workouts.correct.removed', {
            list: channels
              .map((channel) =>
                t('workouts.correct.samples', { channel, count: removed![channel] }),
              )
              .join(', '),
          })}{' '}
          <button
            className="xoss-button"
            type="button"
            disabled={busy}
            onClick={() =>
              void send({ keep_removed: !workout.keep_removed }, t('workouts.correct.recomputed'))
            }
          >
            {t(workout.keep_removed ? 'workouts.correct.removeAgain' : 'workouts.correct.keep')}
          </button>
        </p>
      ) : null}
      {workout.exclude_from_bests ? (
        <p className="portal__note" role="status">
          {t('workouts.correct.excluded')}
        </p>
      ) : null}
      <details className="portal__card portal__correct">
        <summary>{t('workouts.correct.title')}</summary>
        <p>
          <label>
            <input
              type="checkbox"
              checked={workout.exclude_from_bests}
              disabled={busy}
              onChange={(event) =>
                void send(
                  { exclude_from_bests: event.target.checked },
                  t('workouts.correct.recomputed'),
                )
              }
            />{' '}
            {t('workouts.correct.exclude')}
          </label>
        </p>
        {workout.file_ftp !== null &&
        (workout.ftp_choice === 'file' || workout.file_ftp !== workout.ftp) ? (
          <p>
            <button
              className="xoss-button"
              type="button"
              disabled={busy}
              onClick={() =>
                void send(
                  { ftp_choice: workout.ftp_choice === 'file' ? 'settings' : 'file' },
                  t('workouts.correct.recomputed'),
                )
              }
            >
              {workout.ftp_choice === 'file'
                ? t('workouts.correct.useOwnFtp')
                : t('workouts.correct.useFileFtp', { ftp: workout.file_ftp })}
            </button>
          </p>
        ) : null}
        <form className="portal__crop" onSubmit={crop}>
          <p>{t('workouts.correct.cropHelp')}</p>
          <DurationField label={t('workouts.correct.cropFrom')} value={from} onChange={setFrom} />
          <DurationField label={t('workouts.correct.cropTo')} value={to} onChange={setTo} />
          <button className="xoss-button" type="submit" disabled={busy}>
            {t('workouts.correct.crop')}
          </button>
          {workout.crop ? (
            <button
              className="xoss-button"
              type="button"
              disabled={busy}
              onClick={() => void send({ crop: null }, t('workouts.correct.uncropped'))}
            >
              {t('workouts.correct.uncrop')}
            </button>
          ) : null}
        </form>
        {!workout.date_warning ? (
          <form className="portal__crop" onSubmit={move}>
            {moveFields}
          </form>
        ) : null}
      </details>
      {error ? (
        <p className="xoss-alert" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** A time of the ride as h:mm:ss (`parseDuration` reads it), labelled. */
function DurationField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {label}
      <input
        className="xoss-select"
        inputMode="numeric"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}
