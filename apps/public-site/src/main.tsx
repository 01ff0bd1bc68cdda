import '@xoss/ui-kit/styles.css';
import './site.css';
import { StrictMode, startTransition, useEffect } from 'react';
import { DEFAULT_LANGUAGE, localeFor } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { loadMessages, type CompiledMessages } from '@xoss/i18n';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { loadChatWidget } from './helpWidget.ts';
import { SiteRoutes, preloadRoute } from './routes.tsx';
import { setPrerenderedLanguage, useSite } from './siteState.ts';

/** The language follows the stored one, so the menu applies it at once. */
function Root({ initial }: { initial?: CompiledMessages }) {
  const { language } = useSite();
  useEffect(() => {
    document.documentElement.lang = localeFor(language);
  }, [language]);
  return (
    <XossIntlProvider
      language={language}
      scope="site"
      {...(initial ? { initialMessages: initial } : {})}
    >
      <BrowserRouter>
        <SiteRoutes />
      </BrowserRouter>
    </XossIntlProvider>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
const path = window.location.pathname.replace(/\/+$/, '') || '/';
if (container.dataset.prerendered === path) {
  // A prerendered page: hydrate it in the language it was written in, then apply the
  // visitor's stored language and session.
  const language = container.dataset.language ?? DEFAULT_LANGUAGE;
  setPrerenderedLanguage(language);
  void Promise.all([loadMessages(language, 'site'), preloadRoute(path, language)]).then(
    ([messages]) =>
      // As a transition, React hydrates in slices that yield to the browser (no long task
      // for the whole page; the HTML is on screen meanwhile).
      startTransition(() => {
        hydrateRoot(
          container,
          <StrictMode>
            <Root initial={messages} />
          </StrictMode>,
        );
      }),
  );
} else {
  createRoot(container).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
}
loadChatWidget();
