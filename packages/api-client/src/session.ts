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

export type DistanceUnit = 'km' | 'mi';
export type TemperatureUnit = 'c' | 'f';
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
} as const;

export const DEFAULT_LANGUAGE = 'en-US';
export const DEFAULT_USER_NAME = 'XOSS Rider';

/** Spec 3: the stored distance unit is a number, 0 kilometres and anything else miles. */
export const distanceUnitOf = (stored: unknown): DistanceUnit =>
  typeof stored === 'number' && stored !== 0 ? 'mi' : 'km';

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
 * The rider's stored session and preferences (spec 3, 9): tokens and user info for 7 days,
 * language and units without expiry, the session flags per tab. Corrupt or expired entries
 * read as absent. User info reaches storage only once cookies are accepted; until then it
 * lives in memory for this page.
 */
export class SessionStore {
  readonly #local: PrefixedStorage;
  readonly #session: PrefixedStorage;
  readonly #placeholder: string;
  #memoryUser: UserInfo | undefined;

  constructor(options: SessionStoreOptions) {
    const now = options.now ?? Date.now;
    this.#local = createPrefixedStorage(options.local, { now });
    this.#session = createPrefixedStorage(options.session ?? options.local, { now });
    this.#placeholder = options.placeholderName ?? DEFAULT_USER_NAME;
  }

  tokens(): Tokens | undefined {
    const access = this.#local.get<unknown>(storageKeys.token);
    const refresh = this.#local.get<unknown>(storageKeys.refreshToken);
    return typeof access === 'string' && typeof refresh === 'string'
      ? { access, refresh }
      : undefined;
  }

  setTokens(tokens: Tokens): void {
    this.#local.set(storageKeys.token, tokens.access, SEVEN_DAYS_MS);
    this.#local.set(storageKeys.refreshToken, tokens.refresh, SEVEN_DAYS_MS);
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
    const payload = this.tokens()?.access.split('.')[1];
    if (!payload) return undefined;
    try {
      const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
      const claims = JSON.parse(json) as { sub?: unknown };
      return typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : undefined;
    } catch {
      return undefined;
    }
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
    this.#local.remove(storageKeys.token);
    this.#local.remove(storageKeys.refreshToken);
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
    this.#local.set(storageKeys.distanceUnit, unit === 'mi' ? 1 : 0);
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

  /** Accepting stores the user info kept in memory; declining removes the stored one. */
  setCookieConsent(consent: CookieConsent): void {
    this.#local.set(storageKeys.cookieConsent, consent);
    if (consent === 'accepted' && this.#memoryUser)
      this.#local.set(storageKeys.userInfo, this.#memoryUser, SEVEN_DAYS_MS);
    if (consent === 'declined') this.#local.remove(storageKeys.userInfo);
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
