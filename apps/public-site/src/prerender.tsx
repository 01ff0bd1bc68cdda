import { StrictMode } from 'react';
import { loadMessages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { renderToString } from 'react-dom/server';
import { StaticRouterProvider, createStaticHandler, createStaticRouter } from 'react-router';
import { routes } from './routes.tsx';

/**
 * The pages written to static HTML at build time: every public page that needs no API data
 * (the map pages and articles read the API, so they render in the browser). English, as the
 * browser starts from English and switches to a stored language after hydrating.
 */
export { prerenderPaths } from './publicPaths.ts';

/** Renders one path to the HTML that goes inside `#root`. */
export async function renderPage(path: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://prerender${path}`));
  if (context instanceof Response) throw new Error(`${path} redirects; it is not prerendered`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const messages = await loadMessages('en-US');
  return renderToString(
    <StrictMode>
      <XossIntlProvider language="en-US" messages={messages}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </XossIntlProvider>
    </StrictMode>,
  );
}
