import { Suspense, useEffect } from 'react';
import { Message, useT } from '@xoss/i18n/react';
import {
  CookieNotice,
  ErrorBoundary,
  Footer,
  LanguageMenu,
  Navbar,
  PageFailed,
  RouteProgress,
  type RenderLink,
} from '@xoss/ui-kit';
import { ownerOfPath } from '@xoss/api-contract/routes';
import { Link, Outlet, useLocation } from 'react-router';
import { helpBubbleVisibleOn, setChatVisible } from './helpWidget.ts';
import { useLoading } from './navigation.ts';
import { logOut, setCookieConsent, setSiteLanguage, useSite } from './siteState.ts';

/** Links to another app's paths on the origin (the portal's) load that app: a plain `<a>`. */
const renderLink: RenderLink = ({ href, current, children, onClick }) =>
  ownerOfPath(href) !== 'public-site' || /^https?:/.test(href) ? (
    <a href={href} aria-current={current ? 'page' : undefined} onClick={onClick}>
      {children}
    </a>
  ) : (
    <Link to={href} aria-current={current ? 'page' : undefined} onClick={onClick}>
      {children}
    </Link>
  );

/**
 * The visitor site's frame: navbar in the visitor or signed-in state (the session is the
 * portal's too), language menu, progress bar on every navigation, cookie notice until the
 * visitor answers, footer, and the help bubble on home, contact and download pages only.
 * The title goes back to the product title after every navigation (spec 2).
 */
export function Layout() {
  const t = useT();
  const site = useSite();
  const loading = useLoading();
  const location = useLocation();

  useEffect(() => {
    document.title = t('app.title');
  }, [location.pathname, t]);
  useEffect(() => setChatVisible(helpBubbleVisibleOn(location.pathname)), [location.pathname]);

  return (
    <div className="xoss-root site">
      <a className="xoss-visually-hidden" href="#main">
        <Message id="nav.skipToContent" />
      </a>
      <RouteProgress active={loading} />
      <Navbar
        loggedIn={site.loggedIn}
        userName={site.userName}
        currentPath={location.pathname}
        renderLink={renderLink}
        onLogOut={() => void logOut()}
        languageMenu={<LanguageMenu value={site.language} onChange={setSiteLanguage} />}
      />
      <main id="main" className="site__main">
        {/* A page's first load (its code, its data) suspends here; later navigations are
            transitions that keep the current page meanwhile. A page that fails (its chunk
            did not arrive) takes its place only, until the next navigation. */}
        <ErrorBoundary
          resetKey={location.pathname}
          fallback={<PageFailed onRetry={() => window.location.reload()} />}
        >
          <Suspense fallback={null}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer renderLink={renderLink} />
      {site.cookieConsent !== undefined ? null : (
        <CookieNotice
          onAccept={() => setCookieConsent('accepted')}
          onDecline={() => setCookieConsent('declined')}
          policyHref="/copyright/cookies"
        />
      )}
    </div>
  );
}
