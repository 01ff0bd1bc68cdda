import '@xoss/ui-kit/styles.css';
import './site.css';
import { StrictMode, useEffect } from 'react';
import { selectPreferences } from '@xoss/api-client';
import { localeFor } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { createRoot } from 'react-dom/client';
import { Provider, useSelector } from 'react-redux';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { client } from './client.ts';
import { loadChatWidget } from './helpWidget.ts';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

/** The language follows the store, so the menu applies it at once. */
function Root() {
  const { language } = useSelector(selectPreferences);
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
    <Provider store={client.store}>
      <Root />
    </Provider>
  </StrictMode>,
);
loadChatWidget();
