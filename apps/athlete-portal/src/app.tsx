/**
 * The portal's application: React, the router and the shell, loaded by `main.tsx` beside
 * the first page's messages, chunk and calls.
 */
import { StrictMode, useEffect } from 'react';
import { EXPIRY_NOTICE_MS, loginPathFor, selectPreferences } from '@xoss/api-client';
import { localeFor } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { createRoot } from 'react-dom/client';
import { Provider, useSelector } from 'react-redux';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { client } from './client.ts';
import { startEmbedded } from './embeddedRuntime.ts';
import { routes } from './routes.tsx';

let router: ReturnType<typeof createBrowserRouter> | undefined;
client.setNavigate((path, { replace }) => {
  // /login belongs to the public site: leave the portal with a full page load. When the
  // session has ended (a plain /login), the server's message stays up its second first
  // (spec 8), and the login brings the rider back to the page they were on.
  if (path === '/login') {
    const here = `${window.location.pathname}${window.location.search}`;
    setTimeout(() => window.location.replace(loginPathFor(here)), EXPIRY_NOTICE_MS);
  } else if (path.startsWith('/login')) window.location.replace(path);
  else void router?.navigate(path, { replace });
});

/** The language follows the store, so a change from the app or the menu applies at once. */
function Root({ router: current }: { router: ReturnType<typeof createBrowserRouter> }) {
  const { language } = useSelector(selectPreferences);
  useEffect(() => {
    document.documentElement.lang = localeFor(language);
  }, [language]);
  return (
    <XossIntlProvider language={language} scope="portal">
      <RouterProvider router={current} />
    </XossIntlProvider>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
// Inside the app, its `hello` (tokens, language, units) comes before the first guard runs.
void startEmbedded({
  window,
  client,
  navigate: (path) => void router?.navigate(path),
})
  // A task boundary between parsing the scripts and starting the router: two shorter tasks
  // rather than one long one (the portal's budget: no task over 200 ms).
  .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
  .then(() => {
    router = createBrowserRouter(routes);
    createRoot(container).render(
      <StrictMode>
        <Provider store={client.store}>
          <Root router={router} />
        </Provider>
      </StrictMode>,
    );
  });
