/**
 * The API's error codes (docs/api.md) with the HTTP status each travels with.
 * `as const` so callers can switch over them exhaustively.
 */
export const ErrorCode = {
  TokenInvalid: 10001,
  WrongCredentials: 10301,
  TooManyAttempts: 10302,
  WrongPassword: 10303,
  ResetTokenInvalid: 10304,
  ValidationFailed: 10400,
  Forbidden: 10403,
  NotFound: 10404,
  Conflict: 10409,
  PayloadTooLarge: 10413,
  UnsupportedFile: 10415,
  IdempotencyKeyReused: 10422,
  Internal: 10500,
  Unavailable: 10503,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** HTTP status of each error code. */
export const errorStatus: Readonly<Record<ErrorCode, number>> = {
  10001: 401,
  10301: 401,
  10302: 429,
  // Signed in, so not 401: a client takes 401 for an ended session and refreshes.
  10303: 403,
  10304: 400,
  10400: 400,
  10403: 403,
  10404: 404,
  10409: 409,
  10413: 413,
  10415: 415,
  10422: 422,
  10500: 500,
  10503: 503,
};

/** Stable machine text (`msg`) of each error code. */
export const errorMessage: Readonly<Record<ErrorCode, string>> = {
  10001: 'token_not_valid',
  10301: 'wrong_credentials',
  10302: 'too_many_attempts',
  10303: 'wrong_password',
  10304: 'reset_token_invalid',
  10400: 'validation_failed',
  10403: 'forbidden',
  10404: 'not_found',
  10409: 'conflict',
  10413: 'payload_too_large',
  10415: 'unsupported_file',
  10422: 'idempotency_key_reused',
  10500: 'internal_error',
  10503: 'unavailable',
};

/** Whether a number is one of the API's error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'number' && Object.hasOwn(errorStatus, value);
}
