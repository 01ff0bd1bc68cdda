import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Message } from '@xoss/i18n/react';

export interface ConfirmDialogProps {
  readonly open: boolean;
  /** What will happen, in a sentence ("Remove NAV+ from your account?"). */
  readonly message: ReactNode;
  readonly title?: ReactNode;
  readonly confirmLabel?: ReactNode;
  /** `danger` for destructive steps (delete, remove). */
  readonly tone?: 'default' | 'danger';
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/**
 * The Confirm/Cancel prompt before destructive steps (spec 4): a modal native dialog, so
 * focus moves into it, stays there, and Escape cancels.
 */
export function ConfirmDialog({
  open,
  message,
  title,
  confirmLabel,
  tone = 'default',
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const messageId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="xoss-dialog xoss-root"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{title ?? <Message id="dialog.title" />}</h2>
      <p id={messageId}>{message}</p>
      <div className="xoss-dialog__actions">
        <button type="button" className="xoss-button" onClick={onCancel}>
          <Message id="dialog.cancel" />
        </button>
        <button
          type="button"
          className="xoss-button"
          data-variant={tone === 'danger' ? 'danger' : 'primary'}
          onClick={onConfirm}
        >
          {confirmLabel ?? <Message id="dialog.confirm" />}
        </button>
      </div>
    </dialog>
  );
}
