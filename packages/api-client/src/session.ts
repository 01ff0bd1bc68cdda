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
} as const;

export const DEFAULT_USER_NAME = 'XOSS Rider';

export interface SessionStoreOptions {
  /** Long-lived storage (`localStorage` in a browser). */
  readonly local: StorageBackend;
  /** Per-tab storage for the session flags (`sessionStorage`); `local` when absent. */
  readonly session?: StorageBackend;
  readonly now?: () => number;
  /** Name shown when the profile has none (spec 3's placeholder). */
  readonly placeholderName?: string;
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

  constructor(options: SessionStoreOptions) {
    const now = options.now ?? Date.now;
    this.#local = createPrefixedStorage(options.local, { now });
    this.#session = createPrefixedStorage(options.session ?? options.local, { now });
    this.#hasTab = options.session !== undefined && options.session !== options.local;
    this.#placeholder = options.placeholderName ?? DEFAULT_USER_NAME;
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
