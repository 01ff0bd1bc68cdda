// What the portal's component tests share: the real routes, store and client rendered at an
// address in a language, and everything put back after each test. Test-only: nothing of the
// app imports it.
import { cleanup, render } from '@testing-library/react';
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
  vi.unstubAllGlobals();
}
