import { StrictMode } from 'react';
import { loadMessages, textLanguages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { renderToString } from 'react-dom/server';
import { StaticRouterProvider, createStaticHandler, createStaticRouter } from 'react-router';
import { routes } from './routes.tsx';
import { setPrerenderedLanguage } from './siteState.ts';

/**
 * The pages written to static HTML at build time: every public page that needs no API data
 * (the map pages and articles read the API, so they render in the browser), in every
 * language: `?lang=` picks one, and the browser hydrates in the page's language.
 */
export { prerenderPaths, publicPaths } from './publicPaths.ts';
/** Every page is written in every language with texts. */
export const prerenderLanguages = textLanguages;

/** Renders one path in one language to the HTML that goes inside `#root`. */
export async function renderPage(path: string, language = 'en-US'): Promise<string> {
  setPrerenderedLanguage(language);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://prerender${path}`));
  if (context instanceof Response) throw new Error(`${path} redirects; it is not prerendered`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const messages = await loadMessages(language);
  return renderToString(
    <StrictMode>
      <XossIntlProvider language={language} messages={messages}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </XossIntlProvider>
    </StrictMode>,
  );
}
