import { useEffect } from 'react';
import { Message, useT } from '@xoss/i18n/react';
import { selectPreferences, selectSession } from '@xoss/api-client';
import {
  Footer,
  LanguageMenu,
  Navbar,
  RouteProgress,
  ToastViewport,
  useToasts,
} from '@xoss/ui-kit';
import { useSelector } from 'react-redux';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { client, notices } from './client.ts';
import { renderLink } from './links.tsx';
import { selectEmbedded } from './embedded.ts';

/** Toasts reachable from every page. */
export type ShowToast = ReturnType<typeof useToasts>['show'];

/**
 * The portal's frame: navbar in its signed-in state, progress bar on every navigation,
 * toasts, footer. The page title goes back to the product title after each navigation,
 * except on pages that keep theirs (spec 2: the indoor workout pages).
 */
export function Shell() {
  const t = useT();
  const session = useSelector(selectSession);
  // Inside the app (spec 3's in-app flag) the app draws its own chrome.
  const embedded = useSelector(selectEmbedded).active;
  const { language } = useSelector(selectPreferences);
  const navigation = useNavigation();
  const location = useLocation();
  const matches = useMatches();
  const { toasts, show, dismiss } = useToasts();
  const keepsTitle = matches.some(
    (match) => (match.handle as { keepTitle?: boolean } | undefined)?.keepTitle,
  );
  useEffect(() => {
    if (!keepsTitle) document.title = t('app.title');
  }, [location.pathname, keepsTitle, t]);
  // The server's message of an ended session, in a frame the rider reads in their language
  // (spec 8); an alert, read out at once, for the second before the login page.
  useEffect(
    () =>
      notices.subscribe(({ message, durationMs }) =>
        show(t('errors.sessionEnded', { detail: message }), { tone: 'error', durationMs }),
      ),
    [show, t],
  );
  return (
    <div className="xoss-root portal" data-embedded={embedded || undefined}>
      <RouteProgress active={navigation.state !== 'idle'} />
      {embedded ? null : (
        <>
          <a className="xoss-visually-hidden" href="#main">
            <Message id="nav.skipToContent" />
          </a>
          <Navbar
            loggedIn={session.loggedIn}
            userName={session.user?.name}
            currentPath={location.pathname}
            renderLink={renderLink}
            onLogOut={() => void client.logOut()}
            languageMenu={
              <LanguageMenu value={language} onChange={(next) => client.setLanguage(next)} />
            }
          />
        </>
      )}
      <main id="main" className="portal__main">
        <Outlet context={show} />
      </main>
      <ToastViewport toasts={toasts} onDismiss={dismiss} />
      {embedded ? null : <Footer renderLink={renderLink} />}
    </div>
  );
}
