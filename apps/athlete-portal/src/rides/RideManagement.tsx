import type { WorkoutDetail } from '@xoss/api-contract';
import { Message, useT } from '@xoss/i18n/react';
import { useNavigate } from 'react-router';
import { api, client } from '../client.ts';
import {
  formText,
  saveFile,
  useFailureText,
  useSportName,
  useToast,
} from '../components/common.tsx';
import { ManageSection } from '../components/ManageSection.tsx';

/** A file name from a ride's name: letters, digits, spaces and dashes, never empty. */
const fileNameOf = (name: string, format: string) =>
  `${name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'ride'}.${format}`;

/**
 * The rider's notes on a ride, under its name, as they typed them: the line breaks kept
 * (`white-space: pre-line` in portal.css) and the text rendered as text, never as HTML.
 */
export function RideNotesText({ notes, gear }: { notes: string; gear?: string | null }) {
  const t = useT();
  return (
    <>
      {notes ? (
        <p className="portal__ride-notes">
          <span className="xoss-visually-hidden">{t('workouts.notes')}: </span>
          {notes}
        </p>
      ) : null}
      {gear ? (
        <p className="portal__note">
          {t('workouts.gear')}: {gear}
        </p>
      ) : null}
    </>
  );
}

/**
 * What a rider does with their own ride (below its figures and charts): rename it, change its sport,
 * name its gear, write notes; download the file it was imported from; delete it (after Confirm).
 */
export function RideManagement({ workout }: { workout: WorkoutDetail }) {
  const t = useT();
  const toast = useToast();
  const sport = useSportName();
  const failureText = useFailureText();
  const navigate = useNavigate();
  const [patch, patching] = api.usePatchWorkoutMutation();
  const [remove, removing] = api.useDeleteWorkoutMutation();

  const save = async (form: FormData) => {
    const result = await patch({
      params: { id: workout.id },
      body: {
        name: formText(form, 'name'),
        sport_type: Number(formText(form, 'sport')),
        notes: formText(form, 'notes'),
        gear: formText(form, 'gear').trim() || null,
      },
    });
    if ('error' in result) return failureText(result.error, { withDetail: true });
    toast(t('toast.saveSuccess'));
    return null;
  };

  const download = async () => {
    const reply = await client.transport.call('workoutFile', { params: { id: workout.id } });
    if (!reply.ok) return failureText(reply.error);
    saveFile(reply.value, fileNameOf(workout.name, workout.file_format));
    return null;
  };

  const deleteRide = async () => {
    const result = await remove({ params: { id: workout.id } });
    if ('error' in result) return failureText(result.error);
    toast(t('workouts.deleted', { name: workout.name }));
    await navigate('/dashboard/workouts/list', { replace: true });
    return null;
  };

  return (
    <ManageSection
      label={t('workouts.manage')}
      editLabel={<Message id="common.edit" />}
      downloadLabel={t('workouts.downloadOriginal', {
        format: workout.file_format.toUpperCase(),
      })}
      deleteLabel={<Message id="workouts.delete" />}
      confirmMessage={t('workouts.deleteConfirm', { name: workout.name })}
      saving={patching.isLoading}
      deleting={removing.isLoading}
      onSave={save}
      onDownload={download}
      onDelete={deleteRide}
      keptId="ride-edit"
      fields={(value) => (
        <>
          <label>
            <Message id="workouts.name" />
            <input
              className="xoss-select"
              name="name"
              required
              maxLength={120}
              defaultValue={value('name', workout.name)}
            />
          </label>
          <label>
            <Message id="workouts.filter.sport" />
            <select
              className="xoss-select"
              name="sport"
              defaultValue={value('sport', String(workout.sport_type))}
            >
              {Array.from({ length: 12 }, (_, type) => (
                <option key={type} value={type}>
                  {sport(type)}
                </option>
              ))}
            </select>
          </label>
          <label>
            <Message id="workouts.gear" />
            <input
              className="xoss-select"
              name="gear"
              maxLength={120}
              defaultValue={value('gear', workout.gear ?? '')}
            />
          </label>
          <label>
            <Message id="workouts.notes" />
            <textarea
              className="xoss-select"
              name="notes"
              rows={4}
              maxLength={4000}
              defaultValue={value('notes', workout.notes)}
            />
          </label>
        </>
      )}
    />
  );
}
