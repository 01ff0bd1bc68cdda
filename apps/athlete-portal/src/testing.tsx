// What the portal's component tests share: the real routes, store and client rendered at an
// address in a language, and everything put back after each test. Test-only: nothing of the
// app imports it.
import { cleanup, render, waitFor } from '@testing-library/react';
import type { WorkoutDetail } from '@xoss/api-contract';
import type { loadMessages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { Provider } from 'react-redux';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { client } from './client.ts';
import { routes } from './routes.tsx';

/** The portal at `path`, in `language` with its `messages`; its router, to follow the address. */
export function renderPortal(
  path: string,
  messages: Awaited<ReturnType<typeof loadMessages>>,
  language = 'en-US',
) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Provider store={client.store}>
      <XossIntlProvider language={language} messages={messages}>
        <RouterProvider router={router} />
      </XossIntlProvider>
    </Provider>,
  );
  return router;
}

/** After each test: the page unmounted, the cache, session, storage and stubs as they were. */
export function resetPortal(): void {
  cleanup();
  client.store.dispatch(client.api.util.resetApiState());
  client.session.clear();
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
}

/** A rider signed in: tokens, and who they are (kept forms belong to one rider). */
export function signIn(id = '5'): void {
  client.session.setTokens({ access: 'a', refresh: 'r' });
  client.session.setUser({ name: 'Rider', avatar_url: null, uuid: `u-${id}`, id });
}

/**
 * The portal at `path` as the browser has it: the window's address is `path` too (the client
 * keeps the unsaved forms of `window.location.pathname` when the session ends).
 */
export function openAt(
  path: string,
  messages: Awaited<ReturnType<typeof loadMessages>>,
  language = 'en-US',
) {
  window.history.replaceState(null, '', path);
  return renderPortal(path, messages, language);
}

let sessionEnds = 0;
/**
 * From now on `method path` is answered 401 and so is the refresh: the session ends by itself
 * the next time the page sends it, as when a rider comes back after hours. The stubbed
 * `fetch` answers everything else. The clock moves a minute on for each test that does this,
 * so the client does not take it for a repeat of an earlier end (it ignores a second end
 * within seconds of the first).
 */
export function sessionEndsOn(method: string, path: string): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(vi.getRealSystemTime() + ++sessionEnds * 60_000);
  const inner = globalThis.fetch;
  const refused = () =>
    Promise.resolve(
      new Response(JSON.stringify({ code: 10001, msg: 'Token expired', detail: '' }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      }),
    );
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    const called = new URL(url, 'http://portal.test').pathname;
    const sent = init.method ?? 'GET';
    if (sent === 'POST' && called === '/api/v1/jwt-token/refresh/') return refused();
    if (sent === method && called === path) return refused();
    return inner(url, init);
  });
}

/**
 * After the session ended: it is over (no tokens), the page is gone, and the same rider
 * signs in again and comes back (the tab's session storage stays, as in the browser).
 */
export async function signInAgain(id = '5'): Promise<void> {
  await waitFor(() => {
    if (client.session.userId() !== undefined) throw new Error('the session has not ended');
  });
  cleanup();
  client.store.dispatch(client.api.util.resetApiState());
  signIn(id);
}

/**
 * The API as a test's `data` has it: each call (its address and what it sent) is answered
 * with the data `data` gives in the API's envelope, or the API's 404 when it gives none.
 */
export function answerApi(data: (address: URL, init: RequestInit) => unknown): void {
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    const found = data(new URL(url, 'http://portal.test'), init);
    return Promise.resolve(
      found === undefined
        ? new Response(JSON.stringify({ code: 10404, msg: 'Not found', detail: '' }), {
            status: 404,
          })
        : new Response(JSON.stringify({ code: 0, msg: 'ok', data: found }), { status: 200 }),
    );
  });
}

/**
 * What a ride's detail says of its corrections and its file, as for a ride imported as it
 * is: spread into a test's ride so each new field of the detail is added here once.
 */
export const uncorrected = {
  gear: null,
  exclude_from_bests: false,
  crop: null,
  recording_offset_s: 0,
  keep_removed: false,
  date_warning: null,
  time_shift_s: 0,
  file_ftp: null,
  ftp_choice: 'settings',
  legs: [],
} satisfies Partial<WorkoutDetail>;
