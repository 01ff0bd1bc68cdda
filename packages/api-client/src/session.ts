import {
  distanceUnitOf,
  distanceUnitSetting,
  type DistanceUnit,
  type TemperatureUnit,
} from '@xoss/data-fields';
import { DEFAULT_LANGUAGE } from '@xoss/i18n';
import {
  SEVEN_DAYS_MS,
  createPrefixedStorage,
  type PrefixedStorage,
  type StorageBackend,
} from './storage.ts';

/** The signed-in rider as the apps show them (spec 3). */
export interface UserInfo {
  /** From the profile's `username`; a placeholder when it is missing. */
  readonly name: string;
  readonly avatar_url: string | null;
  readonly uuid: string;
  readonly id: string;
}

export interface Tokens {
  readonly access: string;
  readonly refresh: string;
}

// The units and the default language are @xoss/data-fields' and @xoss/i18n's, re-exported.
export { DEFAULT_LANGUAGE, distanceUnitOf, type DistanceUnit, type TemperatureUnit };
export type CookieConsent = 'accepted' | 'declined';

/** The session flags of spec 3, kept for the browser tab (session storage). */
export const sessionFlagKeys = [
  'remembered_user',
  'trigger_change_language',
  'switch_data',
  'bridge_format',
  'bridge_panels',
  'route_status',
] as const;
export type SessionFlag = (typeof sessionFlagKeys)[number];

/** Storage keys (without the `xoss_` prefix), for tools that inspect storage. */
export const storageKeys = {
  token: 'token',
  refreshToken: 'refresh_token',
  userInfo: 'user_info',
  language: 'language',
  distanceUnit: 'distance_unit',
  temperatureUnit: 'temperature_unit',
  cookieConsent: 'cookie_consent',
  rememberedEmail: 'remembered_email',
  /** Set while a tab holds a sign-in kept for the browser session only (no secret in it). */
  tabSession: 'tab_session',
} as const;

/**
 * The browser's channel between its tabs of one site (`BroadcastChannel` in a browser, named
 * `TAB_CHANNEL`), for a sign-in kept for the browser session only.
 */
export interface TabChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { readonly data: unknown }) => void): void;
}

/** The name of the channel the site's tabs share a browser-session sign-in on. */
export const TAB_CHANNEL = 'xoss-session';

/** How long a new tab waits for another tab's answer before it starts signed out. */
export const TAB_ANSWER_WAIT_MS = 250;

type TabMessage =
  | { readonly kind: 'ask' }
  | { readonly kind: 'tokens'; readonly tokens: Tokens }
  | { readonly kind: 'signedOut'; readonly family: string };

const tabMessage = (data: unknown): TabMessage | undefined => {
  if (typeof data !== 'object' || data === null) return undefined;
  const message = data as { kind?: unknown; tokens?: { access?: unknown; refresh?: unknown } };
  if (message.kind === 'ask') return { kind: 'ask' };
  const { family } = data as { family?: unknown };
  if (message.kind === 'signedOut' && typeof family === 'string')
    return { kind: 'signedOut', family };
  const { access, refresh } = message.tokens ?? {};
  if (message.kind === 'tokens' && typeof access === 'string' && typeof refresh === 'string')
    return { kind: 'tokens', tokens: { access, refresh } };
  return undefined;
};

export const DEFAULT_USER_NAME = 'XOSS Rider';

export interface SessionStoreOptions {
  /** Long-lived storage (`localStorage` in a browser). */
  readonly local: StorageBackend;
  /** Per-tab storage for the session flags (`sessionStorage`); `local` when absent. */
  readonly session?: StorageBackend;
  readonly now?: () => number;
  /** Name shown when the profile has none (spec 3's placeholder). */
  readonly placeholderName?: string;
  /**
   * The channel to the site's other tabs (`new BroadcastChannel(TAB_CHANNEL)`): a sign-in
   * kept for the browser session only is then the browser's, not the tab's (see `joinTabs`).
   */
  readonly tabs?: TabChannel;
}

/**
 * A JWT's claims (its payload), read WITHOUT checking the signature: what the client may
 * learn of its own tokens (whose session, issued when); never a proof of anything. Undefined
 * for anything that is not a token with a JSON object payload.
 */
export function tokenClaims(token: string): Readonly<Record<string, unknown>> | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    // base64url to bytes, then UTF-8 (`atob` alone reads every byte as Latin-1).
    const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(binary, (char) => char.charCodeAt(0)),
    );
    const claims = JSON.parse(text) as unknown;
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The sign-in (session, refresh family: the access token's `fam`) a pair belongs to. */
function familyOf(tokens: Tokens): string | undefined {
  const family = tokenClaims(tokens.access)?.fam;
  return typeof family === 'string' ? family : undefined;
}

/** Whether two pairs belong to one sign-in. */
function sameSignIn(a: Tokens, b: Tokens): boolean {
  const ours = familyOf(a);
  return ours !== undefined && ours === familyOf(b);
}

/**
 * The rider's stored session and preferences (spec 3, 9): tokens and user info for 7 days,
 * language and units without expiry, the session flags per tab. Corrupt or expired entries
 * read as absent. User info reaches storage only once cookies are accepted; until then it
 * lives in memory for this page.
 */
export class SessionStore {
  readonly #local: PrefixedStorage;
  readonly #session: PrefixedStorage;
  /** Whether there is per-tab storage apart from `local` (a browser; not a test's memory). */
  readonly #hasTab: boolean;
  readonly #placeholder: string;
  #memoryUser: UserInfo | undefined;
  readonly #tabs: TabChannel | undefined;
  /** Resolves `joinTabs`'s wait when another tab answers. */
  #answered: (() => void) | undefined;

  constructor(options: SessionStoreOptions) {
    const now = options.now ?? Date.now;
    this.#local = createPrefixedStorage(options.local, { now });
    this.#session = createPrefixedStorage(options.session ?? options.local, { now });
    this.#hasTab = options.session !== undefined && options.session !== options.local;
    this.#placeholder = options.placeholderName ?? DEFAULT_USER_NAME;
    this.#tabs = this.#hasTab ? options.tabs : undefined;
    this.#tabs?.addEventListener('message', ({ data }) => this.#heard(tabMessage(data)));
  }

  /** Tokens kept for this browser session only (not remembered), if this tab holds them. */
  #tabTokens(): Tokens | undefined {
    const tokens = this.tokens();
    return tokens && !this.remembered() ? tokens : undefined;
  }

  #heard(message: TabMessage | undefined): void {
    if (!message) return;
    const held = this.#tabTokens();
    if (message.kind === 'ask') {
      if (held) this.#tabs?.postMessage({ kind: 'tokens', tokens: held });
      return;
    }
    if (message.kind === 'signedOut') {
      if (held && familyOf(held) === message.family) this.#keepForTab(undefined);
      return;
    }
    // Taken by a tab that asked (a new one), or one holding the same browser-session sign-in
    // (another tab refreshed it: its old refresh token is used up). A remembered sign-in,
    // another rider's (or another sign-in's) in its tab, or a tab signed out on purpose, is
    // left as it is.
    if (
      this.#answered ||
      (held && held.refresh !== message.tokens.refresh && sameSignIn(held, message.tokens))
    ) {
      this.#keepForTab(message.tokens);
      this.#answered?.();
    }
  }

  /** Writes (or, with undefined, removes) this tab's browser-session tokens, telling nobody. */
  #keepForTab(tokens: Tokens | undefined): void {
    if (tokens) {
      this.#session.set(storageKeys.token, tokens.access, SEVEN_DAYS_MS);
      this.#session.set(storageKeys.refreshToken, tokens.refresh, SEVEN_DAYS_MS);
    } else {
      this.#session.remove(storageKeys.token);
      this.#session.remove(storageKeys.refreshToken);
    }
  }

  /**
   * A new tab of a browser where the rider signed in without "Remember me": asks the site's
   * other tabs for that sign-in and keeps it for this tab too, so a new tab or a pasted link
   * opens signed in until the browser closes (each tab's copy is in its session storage,
   * gone with the browser; nothing is written to disk). Asks only when a tab said it holds
   * one (`tabSession`), waiting `TAB_ANSWER_WAIT_MS` at most; with no answer (the browser was
   * closed since), that mark goes. Resolves whether the tab is signed in.
   */
  async joinTabs(waitMs = TAB_ANSWER_WAIT_MS): Promise<boolean> {
    if (this.tokens()) return true;
    if (!this.#tabs || this.#local.get<unknown>(storageKeys.tabSession) === undefined) return false;
    const answered = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), waitMs);
      this.#answered = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    this.#tabs.postMessage({ kind: 'ask' });
    const joined = await answered;
    this.#answered = undefined;
    if (!joined) this.#local.remove(storageKeys.tabSession);
    return joined;
  }

  /** The tokens from where they are kept: this tab's session (not remembered), else local. */
  tokens(): Tokens | undefined {
    for (const store of [this.#session, this.#local]) {
      const access = store.get<unknown>(storageKeys.token);
      const refresh = store.get<unknown>(storageKeys.refreshToken);
      if (typeof access === 'string' && typeof refresh === 'string') return { access, refresh };
    }
    return undefined;
  }

  /** Whether the tokens are kept beyond this browser session (7 days, spec 3). */
  remembered(): boolean {
    return !this.#hasTab || this.#session.get<unknown>(storageKeys.refreshToken) === undefined;
  }

  /**
   * Keeps the tokens for 7 days (spec 3) when the rider asked to be remembered and has not
   * declined cookies; else for this browser session only (session storage: gone when the
   * browser closes, as a bank does it). A refresh (no `remember`) keeps them where they are.
   */
  setTokens(tokens: Tokens, options: { readonly remember?: boolean } = {}): void {
    const persist =
      options.remember === undefined
        ? this.remembered()
        : options.remember && this.cookieConsent() !== 'declined';
    const [keep, drop] =
      persist || !this.#hasTab ? [this.#local, this.#session] : [this.#session, this.#local];
    keep.set(storageKeys.token, tokens.access, SEVEN_DAYS_MS);
    keep.set(storageKeys.refreshToken, tokens.refresh, SEVEN_DAYS_MS);
    if (this.#hasTab) {
      drop.remove(storageKeys.token);
      drop.remove(storageKeys.refreshToken);
    }
    if (!this.#tabs) return;
    if (persist) {
      this.#local.remove(storageKeys.tabSession);
      return;
    }
    // The other tabs that share this browser-session sign-in take the new pair (a refresh
    // used the old one up), and a new tab knows there is one to ask for.
    this.#local.set(storageKeys.tabSession, 1);
    this.#tabs.postMessage({ kind: 'tokens', tokens });
  }

  /** The e-mail the login form starts with: kept when the rider ticked Remember me. */
  rememberedEmail(): string | undefined {
    const value = this.#local.get<unknown>(storageKeys.rememberedEmail);
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  /** Remembers (or, with null, forgets) the e-mail; never after cookies were declined. */
  setRememberedEmail(email: string | null): void {
    if (email === null || this.cookieConsent() === 'declined')
      this.#local.remove(storageKeys.rememberedEmail);
    else this.#local.set(storageKeys.rememberedEmail, email);
  }

  isLoggedIn(): boolean {
    return this.tokens() !== undefined;
  }

  /**
   * The signed-in rider's id: from the user info, else from the access token's `sub` claim
   * (the token is kept whatever the cookie choice; user info only once cookies are accepted).
   */
  userId(): string | undefined {
    const fromUser = this.user()?.id;
    if (fromUser) return fromUser;
    const access = this.tokens()?.access;
    const sub = access === undefined ? undefined : tokenClaims(access)?.sub;
    return typeof sub === 'string' && sub !== '' ? sub : undefined;
  }

  user(): UserInfo | undefined {
    const stored = this.#local.get<unknown>(storageKeys.userInfo);
    const user = isUserInfo(stored) ? stored : this.#memoryUser;
    if (!user) return undefined;
    return { ...user, name: user.name.trim() || this.#placeholder };
  }

  setUser(user: UserInfo): void {
    const complete = { ...user, name: user.name.trim() || this.#placeholder };
    this.#memoryUser = complete;
    if (this.cookieConsent() === 'accepted')
      this.#local.set(storageKeys.userInfo, complete, SEVEN_DAYS_MS);
  }

  /** Logs out locally: tokens, user info and the tab's session flags go. */
  clear(): void {
    // The other tabs' copies of a browser-session sign-in go too: one sign-out for the browser.
    const held = this.#tabTokens();
    const family = held && familyOf(held);
    if (family) this.#tabs?.postMessage({ kind: 'signedOut', family });
    this.#local.remove(storageKeys.tabSession);
    for (const store of [this.#local, this.#session]) {
      store.remove(storageKeys.token);
      store.remove(storageKeys.refreshToken);
    }
    this.#local.remove(storageKeys.userInfo);
    this.#memoryUser = undefined;
    for (const key of sessionFlagKeys) this.#session.remove(key);
  }

  language(): string {
    const value = this.#local.get<unknown>(storageKeys.language);
    return typeof value === 'string' && value.length > 0 ? value : DEFAULT_LANGUAGE;
  }

  setLanguage(language: string): void {
    this.#local.set(storageKeys.language, language);
  }

  distanceUnit(): DistanceUnit {
    return distanceUnitOf(this.#local.get<unknown>(storageKeys.distanceUnit));
  }

  setDistanceUnit(unit: DistanceUnit): void {
    this.#local.set(storageKeys.distanceUnit, distanceUnitSetting(unit));
  }

  temperatureUnit(): TemperatureUnit {
    return this.#local.get<unknown>(storageKeys.temperatureUnit) === 'f' ? 'f' : 'c';
  }

  setTemperatureUnit(unit: TemperatureUnit): void {
    this.#local.set(storageKeys.temperatureUnit, unit);
  }

  cookieConsent(): CookieConsent | undefined {
    const value = this.#local.get<unknown>(storageKeys.cookieConsent);
    return value === 'accepted' || value === 'declined' ? value : undefined;
  }

  /**
   * Accepting stores the user info kept in memory. Declining removes the stored user info
   * and remembered e-mail, and moves the tokens to this browser session: nothing of the
   * rider outlives it (the site's cookie policy).
   */
  setCookieConsent(consent: CookieConsent): void {
    this.#local.set(storageKeys.cookieConsent, consent);
    if (consent === 'accepted' && this.#memoryUser)
      this.#local.set(storageKeys.userInfo, this.#memoryUser, SEVEN_DAYS_MS);
    if (consent === 'declined') {
      this.#local.remove(storageKeys.userInfo);
      this.#local.remove(storageKeys.rememberedEmail);
      const tokens = this.tokens();
      if (tokens) this.setTokens(tokens, { remember: false });
    }
  }

  flag<T = unknown>(key: SessionFlag): T | undefined {
    return this.#session.get<T>(key);
  }

  setFlag(key: SessionFlag, value: unknown): void {
    this.#session.set(key, value);
  }

  removeFlag(key: SessionFlag): void {
    this.#session.remove(key);
  }
}

function isUserInfo(value: unknown): value is UserInfo {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Record<string, unknown>;
  return (
    typeof user.name === 'string' &&
    (user.avatar_url === null || typeof user.avatar_url === 'string') &&
    typeof user.uuid === 'string' &&
    typeof user.id === 'string'
  );
}
