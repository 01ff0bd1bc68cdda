import {
  apiFailureOf,
  createXossClient,
  isErrorReply,
  preferencesSlice,
  TAB_CHANNEL,
  type ApiErrorReply,
} from '@xoss/api-client';
import type { ErrorCode } from '@xoss/api-contract/routes';
import type { MessageId } from '@xoss/i18n';
import { embeddedSlice } from './embedded.ts';
import { earlyCalls, firstVisitLanguage } from './earlyCalls.ts';
import { keepUnsavedForms } from './keptForms.ts';

type Notice = { message: string; durationMs: number };
const listeners = new Set<(notice: Notice) => void>();

/** Messages from outside React (the 1-second session-expiry notice of spec 8). */
export const notices = {
  subscribe(listener: (notice: Notice) => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};

/** The portal's one API client: session storage, the RTK Query slice and its store. */
export const client = createXossClient({
  storage: localStorage,
  sessionStorage,
  // A sign-in without "Remember me" is the browser's: new tabs and pasted links take it.
  ...(typeof BroadcastChannel === 'function' ? { tabs: new BroadcastChannel(TAB_CHANNEL) } : {}),
  // The first page's calls, started by the entry before this client existed.
  fetch: earlyCalls.fetch,
  reducers: { embedded: embeddedSlice.reducer },
  notify: (message, durationMs) => {
    for (const listener of listeners) listener({ message, durationMs });
  },
  // The page is still on screen: what the rider typed and did not save is kept for after
  // the next login (`useKeptForm`).
  onSessionExpired: () => keepUnsavedForms(window.location.pathname),
});

export const { api } = client;

/**
 * A first visit (no language chosen in the menu, the site or the app): the first of the
 * browser's languages we have texts in, else English. Applied, not stored, so the browser's
 * order keeps counting until the rider chooses; a choice, once made, wins.
 */
export function followBrowserLanguage(languages: readonly string[]): void {
  const language = firstVisitLanguage(localStorage, languages);
  if (language) client.store.dispatch(preferencesSlice.actions.changed({ language }));
}
followBrowserLanguage(navigator.languages);

/** The catalogue id that explains a failed call, and the server's detail if it sent one. */
export function failureMessage(error: unknown): {
  id: MessageId;
  detail?: string;
  /** For a file that cannot be read: the decoder's own message id (`activityFiles.…`). */
  reasonId?: string;
  /** For a limit met (10302): the minutes until the next try, from `Retry-After`. */
  minutes?: number;
} {
  const found = apiFailureOf(error);
  if (found?.status === 'NETWORK_ERROR') return { id: 'errors.network' };
  if (found?.status === 'TIMEOUT_ERROR') return { id: 'errors.timeout' };
  const failure: ApiErrorReply = found && isErrorReply(found) ? found : { status: 0 };
  // The contract's codes, each with its catalogue text; login's own 10301 is the site's login
  // form's to explain, and anything else reads as the server's generic failure. A limit met
  // (10302: requests, corrections) says when to try again.
  const known: Partial<Record<ErrorCode, MessageId>> = {
    10001: 'errors.10001',
    10302: 'errors.10302',
    10400: 'errors.10400',
    10403: 'errors.10403',
    10404: 'errors.10404',
    10409: 'errors.10409',
    10413: 'errors.10413',
    10415: 'errors.10415',
    10422: 'errors.10422',
    10503: 'errors.10503',
  };
  const id = (failure.code !== undefined && known[failure.code]) || 'errors.10500';
  const reasonId = failure.errors?.find((entry) =>
    entry.message.startsWith('activityFiles.'),
  )?.message;
  return {
    id,
    ...(failure.detail ? { detail: failure.detail } : {}),
    ...(reasonId ? { reasonId } : {}),
    ...(failure.code === 10302
      ? { minutes: Math.max(1, Math.ceil((failure.retryAfterS ?? 60) / 60)) }
      : {}),
  };
}
