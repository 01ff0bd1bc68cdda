export {
  SEVEN_DAYS_MS,
  STORAGE_PREFIX,
  createPrefixedStorage,
  type PrefixedStorage,
  type StorageBackend,
} from './storage.ts';
export {
  DEFAULT_LANGUAGE,
  DEFAULT_USER_NAME,
  SessionStore,
  distanceUnitOf,
  sessionFlagKeys,
  storageKeys,
  tokenClaims,
  type CookieConsent,
  type DistanceUnit,
  type SessionFlag,
  type SessionStoreOptions,
  type TemperatureUnit,
  type Tokens,
  type UserInfo,
} from './session.ts';
export {
  EXPIRY_NOTICE_MS,
  PRODUCT_HEADER,
  PRODUCT_NAME,
  REFRESH_LOCK,
  REQUEST_TIMEOUT_MS,
  Transport,
  apiFailureOf,
  isErrorReply,
  isExpiry,
  type ApiErrorReply,
  type ApiFailure,
  type ApiNoReply,
  type CallInit,
  type CallResult,
  type TransportOptions,
} from './transport.ts';
export { EARLY_CALL_TTL_MS, EarlyCalls } from './early.ts';
export { requestFor, type ApiRequest } from './request.ts';
export {
  RIDE_CACHE_S,
  createXossApi,
  tagTypes,
  transportBaseQuery,
  type CallArgs,
  type XossApi,
} from './api.ts';
export {
  createXossClient,
  preferencesSlice,
  selectPreferences,
  selectSession,
  sessionSlice,
  type LoginFailure,
  type LoginOutcome,
  type Navigate,
  type PreferencesState,
  type SessionState,
  type XossClient,
  type XossClientOptions,
  type XossState,
} from './client.ts';
export {
  DEFAULT_WHITE_LIST,
  guardNavigation,
  requiresLogin,
  loginPathFor,
  returnPathAfterLogin,
  type NavigationDecision,
  type NavigationInput,
} from './guard.ts';
