import { StrictMode } from 'react';
import { DEFAULT_LANGUAGE, loadMessages, textLanguages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { SiteRoutes } from './routes.tsx';
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
export async function renderPage(
  path: string,
  language: string = DEFAULT_LANGUAGE,
): Promise<string> {
  setPrerenderedLanguage(language);
  const messages = await loadMessages(language, 'site');
  // Waits for pages in chunks of their own (React.lazy), which a plain renderToString would
  // leave as their fallback.
  // An error while rendering would leave the page to the browser (a client-rendered
  // boundary, inline scripts the CSP refuses): the build stops and says which page.
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <XossIntlProvider language={language} messages={messages}>
        <StaticRouter location={path}>
          <SiteRoutes />
        </StaticRouter>
      </XossIntlProvider>
    </StrictMode>,
    {
      onError: (error) => void errors.push(error),
      // Every boundary inline, however large the page (the manuals' table): React would
      // otherwise move a big one behind inline scripts, which the CSP refuses.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  const html = Buffer.concat(chunks).toString('utf8');
  if (errors.length > 0)
    throw new Error(`${path} (${language}) failed to render: ${String(errors[0])}`, {
      cause: errors[0],
    });
  // A redirect renders no heading here: not a page to write.
  if (!html.includes('<h1')) throw new Error(`${path} rendered no page; it is not prerendered`);
  return html;
}
