import '@xoss/ui-kit/styles.css';
import './site.css';
import { StrictMode, useEffect } from 'react';
import { localeFor } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { loadChatWidget } from './helpWidget.ts';
import { routes } from './routes.tsx';
import { useSite } from './siteState.ts';

const router = createBrowserRouter(routes);

/** The language follows the stored one, so the menu applies it at once. */
function Root() {
  const { language } = useSite();
  useEffect(() => {
    document.documentElement.lang = localeFor(language);
  }, [language]);
  return (
    <XossIntlProvider language={language}>
      <RouterProvider router={router} />
    </XossIntlProvider>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
createRoot(container).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
loadChatWidget();
