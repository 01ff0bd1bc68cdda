import { ErrorCode } from './errorCodes.ts';

/**
 * The spec's session-expiry signal (spec 4): status 401 with body code 10001 in the failure
 * envelope (`code`, `msg`, `detail`). Checked by hand, not with `errorEnvelopeSchema`, so a
 * client can tell expiry without loading zod.
 */
export function isTokenExpiry(status: number, body: unknown): boolean {
  if (status !== 401 || typeof body !== 'object' || body === null) return false;
  const { code, msg, detail } = body as Record<string, unknown>;
  return code === ErrorCode.TokenInvalid && typeof msg === 'string' && typeof detail === 'string';
}
