import '@xoss/ui-kit/styles.css';
import './site.css';
import { StrictMode, useEffect } from 'react';
import { localeFor } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { loadMessages, type CompiledMessages } from '@xoss/i18n';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { loadChatWidget } from './helpWidget.ts';
import { routes } from './routes.tsx';
import { useSite } from './siteState.ts';

const router = createBrowserRouter(routes);

/** The language follows the stored one, so the menu applies it at once. */
function Root({ english }: { english?: CompiledMessages }) {
  const { language } = useSite();
  useEffect(() => {
    document.documentElement.lang = localeFor(language);
  }, [language]);
  return (
    <XossIntlProvider language={language} {...(english ? { initialMessages: english } : {})}>
      <RouterProvider router={router} />
    </XossIntlProvider>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const path = window.location.pathname.replace(/\/+$/, '') || '/';
if (container.dataset.prerendered === path) {
  // A prerendered page: hydrate it from English (what was rendered), then apply the
  // visitor's stored language and session.
  void loadMessages('en-US').then((english) =>
    hydrateRoot(
      container,
      <StrictMode>
        <Root english={english} />
      </StrictMode>,
    ),
  );
} else {
  createRoot(container).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
}
loadChatWidget();
