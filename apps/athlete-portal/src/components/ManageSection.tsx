import { useState, type ReactNode } from 'react';
import { Message } from '@xoss/i18n/react';
import { Alert, ConfirmDialog, SubmitButton } from '@xoss/ui-kit';
import { useKeptForm } from '../useKeptForm.tsx';

/** What a step of managing a thing ends with: the problem to show, or null when it went well. */
type Step = () => Promise<string | null>;

export interface ManageSectionProps {
  /** The section's name for assistive technology ("Manage this ride"). */
  readonly label: string;
  readonly editLabel: ReactNode;
  readonly downloadLabel: ReactNode;
  readonly deleteLabel: ReactNode;
  /** Asked before deleting ("Delete Morning ride?"). */
  readonly confirmMessage: string;
  /**
   * The edit form's fields (named inputs read by `onSave`), each default from `value(name,
   * loaded)`: the loaded value, or what the rider had typed when their session ended and
   * chose to restore.
   */
  readonly fields: (value: (name: string, loaded: string) => string) => ReactNode;
  /** The edit form's name among the page's kept forms (`useKeptForm`). */
  readonly keptId: string;
  /** The form checks its fields itself in `onSave` instead of the browser's bubbles. */
  readonly noValidate?: boolean;
  readonly saving: boolean;
  readonly deleting: boolean;
  /** Saves the form; the form closes when it returns null. */
  readonly onSave: (form: FormData) => Promise<string | null>;
  readonly onDownload: Step;
  readonly onDelete: Step;
}

/**
 * What a rider does with something of their own below its figures (a ride, a routebook):
 * Edit opens a form, Download saves the file it came from, Delete asks first. A problem of
 * any of them shows in one alert under the buttons, replaced by the next attempt's outcome.
 */
export function ManageSection(props: ManageSectionProps) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // An edit survives the end of the session; after the next login the form stands open
  // under the offer to restore it, so its loaded values stay the baseline.
  const kept = useKeptForm(props.keptId, { onRestore: () => setEditing(true) });
  const { offer, attach, key, restored, saved } = kept;
  const open = editing || kept.offered;
  const value = (name: string, loaded: string) => {
    const typed = restored?.[name];
    return typeof typed === 'string' ? typed : loaded;
  };

  const save = async (form: FormData) => {
    const failed = await props.onSave(form);
    setProblem(failed);
    if (failed === null) {
      saved();
      setEditing(false);
    }
  };
  const run = async (step: Step) => {
    setProblem(null);
    setProblem(await step());
  };

  return (
    <section className="portal__manage" aria-label={props.label}>
      {offer}
      <div className="portal__actions">
        <button
          type="button"
          className="xoss-button"
          aria-expanded={open}
          onClick={() => setEditing(!open)}
        >
          {props.editLabel}
        </button>
        <button type="button" className="xoss-button" onClick={() => void run(props.onDownload)}>
          {props.downloadLabel}
        </button>
        <button
          type="button"
          className="xoss-button"
          data-variant="danger"
          disabled={props.deleting}
          onClick={() => setConfirming(true)}
        >
          {props.deleteLabel}
        </button>
      </div>
      {open ? (
        <form
          ref={attach}
          key={key}
          className="portal__form"
          noValidate={props.noValidate}
          onSubmit={(event) => {
            event.preventDefault();
            void save(new FormData(event.currentTarget));
          }}
        >
          {props.fields(value)}
          <SubmitButton busy={props.saving}>
            <Message id="common.save" />
          </SubmitButton>
        </form>
      ) : null}
      <Alert>{problem}</Alert>
      <ConfirmDialog
        open={confirming}
        tone="danger"
        message={props.confirmMessage}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void run(props.onDelete);
        }}
      />
    </section>
  );
}
