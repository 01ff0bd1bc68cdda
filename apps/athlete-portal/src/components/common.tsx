import { formatDuration as formatDurationAs, type DeviceModel } from '@xoss/data-fields';
import type { MessageId } from '@xoss/i18n';
import { Message, useT, useTranslateKnown } from '@xoss/i18n/react';
import { EmptyState, Loading } from '@xoss/ui-kit';
import type { ReactNode } from 'react';
import { useOutletContext } from 'react-router';
import { failureMessage } from '../client.ts';
import type { ShowToast } from '../Shell.tsx';

/** The shell's toasts, for pages. */
export const useToast = () => useOutletContext<ShowToast>();

/**
 * The text of a failed call: its catalogue message with the values the error messages take
 * (`limit` for 10413; for 10415 when `withDetail`, the reason: the decoder's own message in
 * the rider's language when the catalogue has it, else the server's detail).
 */
export function useFailureText() {
  const t = useT();
  const known = useTranslateKnown();
  return (error: unknown, values: { limit?: string; withDetail?: boolean } = {}) => {
    const { id, detail, reasonId, minutes = 1 } = failureMessage(error);
    const translated = reasonId ? known(reasonId) : undefined;
    // Where in the file, as the server said it (a GPX's line and column).
    const where = /\((line \d+, column \d+)\)/.exec(detail ?? '')?.[0];
    // An id the catalogue lacks: then the server's words are better.
    const readable = translated ? `${translated}${where ? ` ${where}` : ''}` : detail;
    const limit = values.limit ?? '';
    // The server's detail may already be the whole sentence ("This file cannot be read: …"):
    // then it is shown once, not inside the same sentence again.
    const bare = t(id, { limit, minutes, reason: '' }).replace(/[\s:：]+$/, '');
    if (values.withDetail && readable && readable === detail && bare && detail.startsWith(bare))
      return detail;
    return t(id, { limit, minutes, reason: values.withDetail ? (readable ?? '') : '' });
  };
}

/** Loading, failure or the page: every data page goes through this. */
export function Loaded<T>({
  query,
  children,
}: {
  query: { data?: T; error?: unknown; isLoading: boolean };
  children: (data: T) => ReactNode;
}) {
  const failureText = useFailureText();
  if (query.isLoading) return <Loading />;
  if (query.error !== undefined || query.data === undefined) {
    const { detail } = failureMessage(query.error);
    return <EmptyState title={failureText(query.error)}>{detail}</EmptyState>;
  }
  return <>{children(query.data)}</>;
}

// The catalogue's sport names, by sport type (spec 3: 0-11).
const SPORT_NAMES = [
  'sport.0',
  'sport.1',
  'sport.2',
  'sport.3',
  'sport.4',
  'sport.5',
  'sport.6',
  'sport.7',
  'sport.8',
  'sport.9',
  'sport.10',
  'sport.11',
] as const satisfies readonly MessageId[];

/** The spec's sport names (3: 0-11), with a fallback for unknown types. */
export function useSportName() {
  const t = useT();
  return (type: number) => t(SPORT_NAMES[type] ?? 'sport.0');
}

export function formatDate(iso: string, locale: string) {
  // On one line wherever it stands (a list's date column wrapped it to four).
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
    .format(new Date(iso))
    .replace(/ /g, '\u00a0');
}

/** A ride's durations in lists and summaries: `h:mm:ss` always, to the nearest second. */
export const formatDuration = (seconds: number) =>
  formatDurationAs(seconds, { hours: 'always', seconds: 'round' });

/** A text field of a submitted form ('' when missing or a file). */
export const formText = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/** Previous and next page of a list, with "page n of m" between. */
export function Pager({
  page,
  pageSize,
  list,
  onPage,
}: {
  page: number;
  pageSize: number;
  list: { count: number; next: string | null; previous: string | null };
  onPage: (page: number) => void;
}) {
  const t = useT();
  const label = t('common.pageOf', { page, pages: Math.max(1, Math.ceil(list.count / pageSize)) });
  return (
    <nav className="portal__pager" aria-label={label}>
      <button
        type="button"
        className="xoss-button"
        disabled={!list.previous}
        onClick={() => onPage(page - 1)}
      >
        <Message id="common.previousPage" />
      </button>
      <span>{label}</span>
      <button
        type="button"
        className="xoss-button"
        disabled={!list.next}
        onClick={() => onPage(page + 1)}
      >
        <Message id="common.nextPage" />
      </button>
    </nav>
  );
}

/** Hands a file made in the page to the browser as a download named `name`. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Each model's product name, as the site names it (one catalogue entry per product). */
const PRODUCT_NAMES: Readonly<Record<DeviceModel, MessageId>> = {
  NAV: 'productName.NAV',
  'NAV+': 'productName.NAV+',
  SPRINT: 'productName.SPRINT',
  G2: 'productName.G2',
  'G2+': 'productName.G2+',
  G: 'productName.G',
  'G+': 'productName.G+',
};

/** A device model's name in the rider's language ("XOSS G 2. Generation"); unknown: as it is. */
export function useModelName() {
  const t = useT();
  return (model: string) => {
    const id = PRODUCT_NAMES[model as DeviceModel] as MessageId | undefined;
    return id ? `XOSS ${t(id)}` : model;
  };
}
