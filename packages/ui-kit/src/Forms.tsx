import type { ReactNode } from 'react';

// Apart from Feedback.tsx so an app's first load (its frame) need not carry it.

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
