import type { ReactNode } from 'react';

// Apart from Feedback.tsx so an app's first load (its frame) need not carry them.

/**
 * A problem to show, a form's or a page's: announced at once (`role="alert"`) and styled as
 * an error. Nothing at all when there is no problem, so a form can always render it.
 */
export function Alert({ children }: { readonly children?: ReactNode }) {
  if (children === undefined || children === null || children === false || children === '')
    return null;
  return (
    <p role="alert" className="xoss-alert xoss-root">
      {children}
    </p>
  );
}

export interface SubmitButtonProps {
  /** While the form's call runs: disabled (no double submit) and marked busy. */
  readonly busy?: boolean;
  readonly children: ReactNode;
}

/** A form's primary action. */
export function SubmitButton({ busy = false, children }: SubmitButtonProps) {
  return (
    <button
      type="submit"
      className="xoss-button"
      data-variant="primary"
      disabled={busy}
      aria-busy={busy || undefined}
    >
      {children}
    </button>
  );
}
