import '@xoss/ui-kit/styles.css';
import './site.css';
import { StrictMode } from 'react';
import { SessionStore } from '@xoss/api-client';
import { XossIntlProvider } from '@xoss/i18n/react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { routes } from './routes.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
createRoot(container).render(
  <StrictMode>
    <XossIntlProvider language={new SessionStore({ local: localStorage }).language()}>
      <RouterProvider router={createBrowserRouter(routes)} />
    </XossIntlProvider>
  </StrictMode>,
);
