import { useState } from 'react';
import type { WorkoutDetail } from '@xoss/api-contract';
import { Message, useT } from '@xoss/i18n/react';
import { Alert, ConfirmDialog, SubmitButton } from '@xoss/ui-kit';
import { useNavigate } from 'react-router';
import { api, client } from '../client.ts';
import { formText, saveFile, useFailureText, useSportName, useToast } from './common.tsx';

/** A file name from a ride's name: letters, digits, spaces and dashes, never empty. */
const fileNameOf = (name: string, format: string) =>
  `${name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'ride'}.${format}`;

/**
 * The rider's notes on a ride, under its name, as they typed them: the line breaks kept
 * (`white-space: pre-line` in portal.css) and the text rendered as text, never as HTML.
 */
export function RideNotesText({ notes }: { notes: string }) {
  const t = useT();
  if (!notes) return null;
  return (
    <p className="portal__ride-notes">
      <span className="xoss-visually-hidden">{t('workouts.notes')}: </span>
      {notes}
    </p>
  );
}

/**
 * What a rider does with their own ride (below its figures and charts): rename it, change its sport,
 * write notes; download the file it was imported from; delete it (after Confirm).
 */
export function RideManagement({ workout }: { workout: WorkoutDetail }) {
  const t = useT();
  const toast = useToast();
  const sport = useSportName();
  const failureText = useFailureText();
  const navigate = useNavigate();
  const [patch, patching] = api.usePatchWorkoutMutation();
  const [remove, removing] = api.useDeleteWorkoutMutation();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const save = async (form: FormData) => {
    const result = await patch({
      params: { id: workout.id },
      body: {
        name: formText(form, 'name'),
        sport_type: Number(formText(form, 'sport')),
        notes: formText(form, 'notes'),
      },
    });
    if ('error' in result) {
      setProblem(failureText(result.error, { withDetail: true }));
      return;
    }
    setProblem(null);
    setEditing(false);
    toast(t('toast.saveSuccess'));
  };

  const download = async () => {
    setProblem(null);
    const reply = await client.transport.call('workoutFile', { params: { id: workout.id } });
    if (!reply.ok) {
      setProblem(failureText(reply.error));
      return;
    }
    saveFile(reply.value, fileNameOf(workout.name, workout.file_format));
  };

  const deleteRide = async () => {
    const result = await remove({ params: { id: workout.id } });
    if ('error' in result) {
      setProblem(failureText(result.error));
      return;
    }
    toast(t('workouts.deleted', { name: workout.name }));
    await navigate('/dashboard/workouts/list', { replace: true });
  };

  return (
    <section className="portal__manage" aria-label={t('workouts.manage')}>
      <div className="portal__actions">
        <button
          type="button"
          className="xoss-button"
          aria-expanded={editing}
          onClick={() => setEditing(!editing)}
        >
          <Message id="common.edit" />
        </button>
        <button type="button" className="xoss-button" onClick={() => void download()}>
          {t('workouts.downloadOriginal', { format: workout.file_format.toUpperCase() })}
        </button>
        <button
          type="button"
          className="xoss-button"
          data-variant="danger"
          disabled={removing.isLoading}
          onClick={() => setConfirming(true)}
        >
          <Message id="workouts.delete" />
        </button>
      </div>
      {editing ? (
        <form
          className="portal__form"
          onSubmit={(event) => {
            event.preventDefault();
            void save(new FormData(event.currentTarget));
          }}
        >
          <label>
            <Message id="workouts.name" />
            <input
              className="xoss-select"
              name="name"
              required
              maxLength={120}
              defaultValue={workout.name}
            />
          </label>
          <label>
            <Message id="workouts.filter.sport" />
            <select className="xoss-select" name="sport" defaultValue={workout.sport_type}>
              {Array.from({ length: 12 }, (_, type) => (
                <option key={type} value={type}>
                  {sport(type)}
                </option>
              ))}
            </select>
          </label>
          <label>
            <Message id="workouts.notes" />
            <textarea
              className="xoss-select"
              name="notes"
              rows={4}
              maxLength={4000}
              defaultValue={workout.notes}
            />
          </label>
          <SubmitButton busy={patching.isLoading}>
            <Message id="common.save" />
          </SubmitButton>
        </form>
      ) : null}
      <Alert>{problem}</Alert>
      <ConfirmDialog
        open={confirming}
        tone="danger"
        message={t('workouts.deleteConfirm', { name: workout.name })}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void deleteRide();
        }}
      />
    </section>
  );
}
