import { useSyncExternalStore } from 'react';
import {
  SessionStore,
  TAB_CHANNEL,
  createPrefixedStorage,
  storageKeys,
  type CookieConsent,
} from '@xoss/api-client';
import { DEFAULT_LANGUAGE, negotiateLanguage, normalizeLanguage } from '@xoss/i18n';

/**
 * What the site's frame renders from the stored session (the portal's too: one origin):
 * signed in or not, the rider's name, language, cookie answer. Light on purpose: the API
 * client (RTK Query, the contract's schemas) loads only with the pages that call the API.
 */
export interface SiteState {
  readonly loggedIn: boolean;
  readonly userName: string | undefined;
  readonly language: string;
  /** `unknown` while prerendering and hydrating: the notice waits for the browser. */
  readonly cookieConsent: CookieConsent | 'unknown' | undefined;
}

/** What a prerendered page shows, and what hydration starts from (no storage on a server). */
let prerendered: SiteState = {
  loggedIn: false,
  userName: undefined,
  language: DEFAULT_LANGUAGE,
  cookieConsent: 'unknown',
};

const inBrowser = typeof window !== 'undefined' && typeof localStorage !== 'undefined';

/** In memory where there is no browser storage (prerendering). */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const siteSession = inBrowser
  ? new SessionStore({
      local: localStorage,
      session: sessionStorage,
      ...(typeof BroadcastChannel === 'function'
        ? { tabs: new BroadcastChannel(TAB_CHANNEL) }
        : {}),
    })
  : new SessionStore({ local: memoryStorage() });

/**
 * The visitor's language: the one chosen (the menu, a `?lang=` link, the app), else on a
 * first visit the first of the browser's languages we have texts in (`navigator.languages`,
 * the same list the browser sends as Accept-Language), else English. Nothing is stored
 * until a choice is made, so the browser's order keeps counting until then.
 */
export function visitorLanguage(
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> = localStorage,
  languages: readonly string[] = navigator.languages,
): string {
  const chosen = createPrefixedStorage(storage).get<unknown>(storageKeys.language);
  return typeof chosen === 'string' && chosen.length > 0
    ? normalizeLanguage(chosen)
    : negotiateLanguage(languages);
}

const read = (): SiteState => ({
  loggedIn: siteSession.isLoggedIn(),
  userName: siteSession.user()?.name,
  language: inBrowser ? visitorLanguage() : siteSession.language(),
  cookieConsent: siteSession.cookieConsent(),
});

// A link with `?lang=` (search engines follow the hreflang alternates) sets the language.
if (inBrowser) {
  const requested = new URL(window.location.href).searchParams.get('lang');
  if (requested) siteSession.setLanguage(normalizeLanguage(requested));
}

let state = inBrowser ? read() : prerendered;

// A new tab of a browser where the rider signed in without Remember me: the navbar shows the
// rider once an open tab has handed the sign-in over (a quarter of a second at most).
if (inBrowser) void siteSession.joinTabs().then(() => refreshSite());

/** The language a prerendered page was written in: what rendering and hydration start from. */
export function setPrerenderedLanguage(language: string): void {
  prerendered = { ...prerendered, language: normalizeLanguage(language) };
}
const listeners = new Set<() => void>();

/** Re-reads storage and re-renders what changed (after login, logout, a choice). */
function refreshSite(): void {
  const next = read();
  if (
    next.loggedIn === state.loggedIn &&
    next.userName === state.userName &&
    next.language === state.language &&
    next.cookieConsent === state.cookieConsent
  )
    return;
  state = next;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  // Another tab signed in or out, or changed the language.
  const onStorage = () => refreshSite();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
};

/** The stored state; a prerendered page hydrates from `prerendered`, then updates. */
export function useSite(): SiteState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => prerendered,
  );
}

/** Spec 4: the language is checked against the supported ones, else English. */
export function setSiteLanguage(language: string): void {
  siteSession.setLanguage(normalizeLanguage(language));
  refreshSite();
}

export function setCookieConsent(consent: CookieConsent): void {
  siteSession.setCookieConsent(consent);
  refreshSite();
}

/** Logs out through the API client, loaded for the occasion. */
export async function logOut(): Promise<void> {
  const { client } = await import('./client.ts');
  await client.logOut();
  refreshSite();
}
