import { Component, type ReactNode } from 'react';
import { Message } from '@xoss/i18n/react';
import { Alert } from './Feedback.tsx';

// What an app shows in a page's place when the page fails: part of an app's frame.

export interface PageFailedProps {
  /** What "Try again" does (an app reloads: a failed chunk may be an older deployment's). */
  readonly onRetry: () => void;
}

/** A page that could not load (its code, its data): what happened and a way to try again. */
export function PageFailed({ onRetry }: PageFailedProps) {
  return (
    <div className="xoss-page-failed xoss-root">
      <Alert>
        <Message id="errors.pageFailed" />
      </Alert>
      <button type="button" className="xoss-button" onClick={onRetry}>
        <Message id="common.retry" />
      </button>
    </div>
  );
}

interface ErrorBoundaryProps {
  /** Shown instead of `children` after one of them threw while rendering. */
  readonly fallback: ReactNode;
  /** A new value clears the failure (the path: another page gets its chance). */
  readonly resetKey?: unknown;
  readonly children: ReactNode;
}

interface ErrorBoundaryState {
  readonly failed: boolean;
  readonly resetKey: unknown;
}

/**
 * Keeps a failing page (a chunk that did not arrive, a render error) from blanking the whole
 * app: the frame stays, `fallback` takes the page's place until `resetKey` changes.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<ErrorBoundaryState> {
    return { failed: true };
  }

  // Typed by what it reads, so the class is a plain `ComponentType` (Storybook's docs list it).
  static getDerivedStateFromProps(
    props: { readonly resetKey?: unknown },
    state: { readonly resetKey?: unknown },
  ): Partial<ErrorBoundaryState> | null {
    return Object.is(props.resetKey, state.resetKey)
      ? null
      : { failed: false, resetKey: props.resetKey };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
