import {
  combineReducers,
  configureStore,
  createSlice,
  type PayloadAction,
  type Reducer,
} from '@reduxjs/toolkit';
import { ErrorCode, type ArgsOf } from '@xoss/api-contract/routes';
import { createXossApi, type XossApi } from './api.ts';
import { DEFAULT_LANGUAGE, normalizeLanguage } from '@xoss/i18n';
import {
  SessionStore,
  distanceUnitOf,
  type DistanceUnit,
  type TabChannel,
  type TemperatureUnit,
  type UserInfo,
} from './session.ts';
import type { StorageBackend } from './storage.ts';
import { Transport, isErrorReply, type CallResult, type TransportOptions } from './transport.ts';

/** The session as the apps render it. */
export interface SessionState {
  readonly loggedIn: boolean;
  readonly user: UserInfo | null;
  /** The path before the current one (spec 4's previous path). */
  readonly previousPath: string | null;
}

const initialSession: SessionState = { loggedIn: false, user: null, previousPath: null };

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSession,
  reducers: {
    loggedIn: (state, action: PayloadAction<UserInfo | null>) => ({
      ...state,
      loggedIn: true,
      user: action.payload,
    }),
    loggedOut: (state) => ({ ...state, loggedIn: false, user: null }),
    navigated: (state, action: PayloadAction<string | null>) => ({
      ...state,
      previousPath: action.payload,
    }),
  },
});

/** The rider's language and units as the apps render them; kept equal to storage. */
export interface PreferencesState {
  readonly language: string;
  readonly distanceUnit: DistanceUnit;
  readonly temperatureUnit: TemperatureUnit;
}

const initialPreferences: PreferencesState = {
  language: DEFAULT_LANGUAGE,
  distanceUnit: 'km',
  temperatureUnit: 'c',
};

export const preferencesSlice = createSlice({
  name: 'preferences',
  initialState: initialPreferences,
  reducers: {
    changed: (state, action: PayloadAction<Partial<PreferencesState>>) => ({
      ...state,
      ...action.payload,
    }),
  },
});

/** The outcome of `logIn`: the user, or a message for the login form (spec 8). */
export type LoginOutcome =
  | { readonly ok: true; readonly value: UserInfo }
  | { readonly ok: false; readonly error: LoginFailure };

/** Why a login failed, for the login form. */
export interface LoginFailure {
  /** i18n id of the message; `message` is its English text. */
  readonly messageId: 'errors.10301' | 'errors.10302' | 'errors.10400' | 'errors.loginFailed';
  readonly message: string;
  readonly retryAfterS?: number;
  /**
   * A 10400: the API's reason for each field it refused, by the field's name (`email`,
   * `password`), so the form can mark that field rather than say "login failed".
   */
  readonly fields?: Readonly<Record<string, string>>;
}

export type Navigate = (path: string, options: { replace: boolean }) => void;

export interface XossClientOptions extends Omit<
  TransportOptions,
  'session' | 'onLoggedOut' | 'onTokens'
> {
  /** `localStorage` in a browser. */
  readonly storage: StorageBackend;
  /** `sessionStorage` in a browser (the per-tab session flags). */
  readonly sessionStorage?: StorageBackend;
  /**
   * The channel to the site's other tabs (`new BroadcastChannel(TAB_CHANNEL)`): a sign-in
   * without "Remember me" is then shared by the browser's tabs (`SessionStore.joinTabs`).
   */
  readonly tabs?: TabChannel;
  readonly now?: () => number;
  /** Name shown for a rider whose profile has none. */
  readonly placeholderName?: string;
  /** The router's navigate; may also be set later with `setNavigate`. */
  readonly navigate?: Navigate;
  /** The app's own reducers, added to the store beside the api slice and the session. */
  readonly reducers?: Record<string, Reducer>;
  /**
   * Called once when the session ends by itself (its refresh was refused), not on
   * `logOut`: before the cached data is reset and the router leaves, so the page on screen
   * can still keep what the rider had typed (the portal's unsaved forms).
   */
  readonly onSessionExpired?: () => void;
}

type FileEndpoint = 'workoutFile' | 'routebookGpx' | 'mapDownload';

/**
 * Everything an app needs to talk to the API: the RTK Query slice (`api`, with hooks), a
 * store holding it and the session, the stored session, and the login and logout flows.
 */
/** A second end of the session this soon after the first does not navigate again. */
const SESSION_END_SETTLE_MS = 5000;

export function createXossClient(options: XossClientOptions) {
  const session = new SessionStore({
    local: options.storage,
    ...(options.sessionStorage ? { session: options.sessionStorage } : {}),
    ...(options.tabs ? { tabs: options.tabs } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.placeholderName ? { placeholderName: options.placeholderName } : {}),
  });
  let navigate = options.navigate;
  // Set once the store exists; the transport only calls it after a request.
  let endSession = (_expired: boolean) => undefined as void;
  const transport = new Transport({
    ...options,
    session,
    onLoggedOut: () => endSession(true),
  });
  const api: XossApi = createXossApi(transport);
  const reducer = combineReducers({
    [api.reducerPath]: api.reducer,
    session: sessionSlice.reducer,
    preferences: preferencesSlice.reducer,
    ...options.reducers,
  });
  const store = configureStore({
    reducer,
    preloadedState: {
      session: {
        loggedIn: session.isLoggedIn(),
        user: session.isLoggedIn() ? (session.user() ?? null) : null,
        previousPath: null,
      },
      preferences: {
        language: session.language(),
        distanceUnit: session.distanceUnit(),
        temperatureUnit: session.temperatureUnit(),
      },
    },
    middleware: (defaults) => defaults().concat(api.middleware),
  });

  let endedAt = Number.NEGATIVE_INFINITY;
  endSession = (expired) => {
    // Calls whose 401 arrives just after the session ended end nothing new: one trip to
    // /login, not a second navigation that aborts the first.
    const repeated = Date.now() - endedAt < SESSION_END_SETTLE_MS;
    endedAt = Date.now();
    if (expired && !repeated) options.onSessionExpired?.();
    session.clear();
    store.dispatch(sessionSlice.actions.loggedOut());
    if (!repeated) navigate?.('/login', { replace: true });
    // The rider's cached data goes once the calls in flight have delivered their errors
    // (spec 4: the error still reaches the caller). The queries of a page still on screen
    // subscribe again after the reset; the transport answers them without a request (no
    // token), so the reset happens once and nothing goes over the wire.
    setTimeout(() => store.dispatch(api.util.resetApiState()), 0);
  };

  const setUnits = (units: Partial<Omit<PreferencesState, 'language'>>) => {
    if (units.distanceUnit) session.setDistanceUnit(units.distanceUnit);
    if (units.temperatureUnit) session.setTemperatureUnit(units.temperatureUnit);
    store.dispatch(preferencesSlice.actions.changed(units));
  };

  return {
    api,
    store,
    session,
    transport,
    setUnits,

    /**
     * Stores and applies a language; spec 4: checked against the supported languages,
     * falling back to English. Returns the language applied.
     */
    setLanguage(language: string): string {
      const supported = normalizeLanguage(language);
      session.setLanguage(supported);
      store.dispatch(preferencesSlice.actions.changed({ language: supported }));
      return supported;
    },

    setNavigate(next: Navigate) {
      navigate = next;
    },

    /**
     * Spec 5, 7, 8: logs in with the trimmed password, stores the tokens, then fetches the
     * profile for the user info; a failed profile call still completes the login.
     */
    /**
     * Signs in; `remember: false` keeps the session for this browser session only (as does
     * a declined cookie notice), else the tokens stay 7 days.
     */
    async logIn(
      email: string,
      password: string,
      options: { readonly remember?: boolean } = {},
    ): Promise<LoginOutcome> {
      const result = await transport.call('login', {
        body: { email: email.trim(), password: password.trim() },
      });
      if (!result.ok) {
        const { code, retryAfterS, errors } = isErrorReply(result.error) ? result.error : {};
        if (code === ErrorCode.WrongCredentials)
          return {
            ok: false,
            error: { messageId: 'errors.10301', message: 'Wrong username or password' },
          };
        if (code === ErrorCode.TooManyAttempts)
          return {
            ok: false,
            error: {
              messageId: 'errors.10302',
              message: 'Too many attempts. Please try again later',
              ...(retryAfterS ? { retryAfterS } : {}),
            },
          };
        if (code === ErrorCode.ValidationFailed)
          return {
            ok: false,
            error: {
              messageId: 'errors.10400',
              message: 'Please check required fields',
              fields: Object.fromEntries(
                (errors ?? []).map(({ path, message }) => [path, message]),
              ),
            },
          };
        return { ok: false, error: { messageId: 'errors.loginFailed', message: 'login failed' } };
      }
      const { access, refresh, id } = result.value;
      session.setTokens({ access, refresh }, { remember: options.remember ?? true });
      const profile = await transport.call('getAthlete', { params: { id: Number(id) } });
      if (profile.ok) {
        session.setUser({
          name: profile.value.username,
          avatar_url: profile.value.profile.avatar_url,
          uuid: profile.value.uuid,
          id: profile.value.id,
        });
        setUnits({
          distanceUnit: distanceUnitOf(profile.value.settings.distance_unit),
          temperatureUnit: profile.value.settings.temperature_unit,
        });
      } else {
        session.setUser({ name: '', avatar_url: null, uuid: '', id });
      }
      const user = session.user()!;
      store.dispatch(sessionSlice.actions.loggedIn(user));
      return { ok: true, value: user };
    },

    /** Revokes the refresh token on the server (best effort), then ends the session here. */
    async logOut(): Promise<void> {
      const tokens = session.tokens();
      if (tokens) await transport.call('logout', { body: { refresh: tokens.refresh } });
      endSession(false);
    },

    /** A file endpoint as a Blob, through the same re-authentication; never cached. */
    download<N extends FileEndpoint>(
      name: N,
      arg: ArgsOf<N>,
      init: { signal?: AbortSignal } = {},
    ): Promise<CallResult<Blob>> {
      return transport.call(name, arg, init) as Promise<CallResult<Blob>>;
    },

    /** Records a finished navigation's previous path (spec 3, 4). */
    navigated(previousPath: string | null) {
      store.dispatch(sessionSlice.actions.navigated(previousPath));
    },
  };
}

export type XossClient = ReturnType<typeof createXossClient>;
export type XossState = ReturnType<XossClient['store']['getState']>;

/** The session part of the store. */
export const selectSession = (state: { session: SessionState }) => state.session;

/** The rider's language and units. */
export const selectPreferences = (state: { preferences: PreferencesState }) => state.preferences;
