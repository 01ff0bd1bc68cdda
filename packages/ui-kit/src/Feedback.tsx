import type { ReactNode } from 'react';
import { Message, useHasIntl, useT } from '@xoss/i18n/react';

/**
 * The route progress bar: runs while `active`, then completes and fades. Like `Loading`, it
 * works without an `XossIntlProvider` (a plain English label): a fallback may show it.
 */
export function RouteProgress({ active }: { readonly active: boolean }) {
  // Whether a provider is above never changes for a mounted component: one of the two stays.
  return useHasIntl() ? (
    <TranslatedProgress active={active} />
  ) : (
    <ProgressBar active={active} label="Loading…" />
  );
}

function TranslatedProgress({ active }: { readonly active: boolean }) {
  const t = useT();
  return <ProgressBar active={active} label={t('common.loading')} />;
}

/** One element whether running or not, so its width and opacity transition between the two. */
function ProgressBar({ active, label }: { readonly active: boolean; readonly label: string }) {
  return active ? (
    <div className="xoss-progress" data-state="loading" role="progressbar" aria-label={label} />
  ) : (
    <div className="xoss-progress" data-state="idle" aria-hidden="true" />
  );
}

/**
 * A loading state: spinner and text, announced politely. Works without an
 * `XossIntlProvider` (as its `fallback`), with a plain English label.
 */
export function Loading({ label }: { readonly label?: ReactNode }) {
  // Also the fallback of an `XossIntlProvider` while its first language loads: no messages
  // yet, so a plain label.
  const hasIntl = useHasIntl();
  return (
    <div className="xoss-loading xoss-root" role="status">
      <span className="xoss-spinner" aria-hidden="true" />
      <span>{label ?? (hasIntl ? <Message id="common.loading" /> : 'Loading…')}</span>
    </div>
  );
}

export interface EmptyStateProps {
  readonly title?: ReactNode;
  readonly children?: ReactNode;
  /** What to do next (a button or link). */
  readonly action?: ReactNode;
}

/**
 * An empty list or page: what is missing and how to fill it. Without a `title` it says
 * "Nothing here yet", in the reader's language under an `XossIntlProvider`, else in English.
 */
export function EmptyState({ title, children, action }: EmptyStateProps) {
  const hasIntl = useHasIntl();
  return (
    <div className="xoss-empty xoss-root">
      <h2>{title ?? (hasIntl ? <Message id="common.empty" /> : 'Nothing here yet')}</h2>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  );
}

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
