import '@xoss/ui-kit/styles.css';
import './portal.css';
import { StrictMode } from 'react';
import { XossIntlProvider } from '@xoss/i18n/react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { client } from './client.ts';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);
client.setNavigate((path, { replace }) => {
  // /login belongs to the public site: leave the portal with a full page load.
  if (path.startsWith('/login')) window.location.replace(path);
  else void router.navigate(path, { replace });
});

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
createRoot(container).render(
  <StrictMode>
    <Provider store={client.store}>
      <XossIntlProvider language={client.session.language()}>
        <RouterProvider router={router} />
      </XossIntlProvider>
    </Provider>
  </StrictMode>,
);
