import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';

// Compact JWS with HS256 only, through `jose`. Any other `alg` (including `none`) is refused
// before the signature is looked at. Every token names its key (`kid`), so keys can rotate:
// the current key signs, previous keys still verify until their tokens expire.

export type Claims = Record<string, string | number>;

/** The signing key and the keys that still verify, by id. */
export interface JwtKeys {
  readonly current: { readonly kid: string; readonly key: Uint8Array };
  readonly byKid: ReadonlyMap<string, Uint8Array>;
}

/** A key's id: derived from the secret (not secret itself), so no one has to name keys. */
export const keyId = (secret: string) =>
  createHash('sha256').update(secret).digest('base64url').slice(0, 16);

/** Keys from the current secret and the previous ones (still accepted, never used to sign). */
export function jwtKeys(secret: string, previous: readonly string[] = []): JwtKeys {
  const encode = (value: string) => new TextEncoder().encode(value);
  const byKid = new Map<string, Uint8Array>();
  for (const old of previous) byKid.set(keyId(old), encode(old));
  const current = { kid: keyId(secret), key: encode(secret) };
  byKid.set(current.kid, current.key);
  return { current, byKid };
}

export function signJwt(claims: Claims, keys: JwtKeys): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: keys.current.kid })
    .sign(keys.current.key);
}

/** Why a token was refused. */
type JwtRefusal = 'malformed' | 'algorithm' | 'signature' | 'expired' | 'claims';

export type JwtCheck =
  | { readonly ok: true; readonly value: Claims }
  | { readonly ok: false; readonly error: JwtRefusal };

const CANONICAL_BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Whether a signature is spelt as it was encoded: base64url decoding ignores a last
 * character's unused low bits, so several spellings decode to the same bytes; only the
 * canonical one is the signature.
 */
const isCanonical = (signature: string) =>
  CANONICAL_BASE64URL.test(signature) &&
  Buffer.from(signature, 'base64url').toString('base64url') === signature;

/** The token of an `Authorization: Bearer` header (the scheme is case-insensitive, RFC 9110 11.1). */
export const bearerToken = (authorization: string | undefined): string | undefined =>
  /^Bearer +([A-Za-z0-9_.-]+)$/i.exec(authorization ?? '')?.[1];

/** Verifies signature and expiry (`exp`, seconds) at `now` (seconds). */
export async function verifyJwt(token: string, keys: JwtKeys, now: number): Promise<JwtCheck> {
  if (token.length > 4096) return { ok: false, error: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, error: 'malformed' };
  if (!isCanonical(parts[2]!)) return { ok: false, error: 'signature' };
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return { ok: false, error: 'malformed' };
  }
  if (header.alg !== 'HS256') return { ok: false, error: 'algorithm' };
  // Tokens from before key ids were written carry none: the current key checks them.
  const key = header.kid === undefined ? keys.current.key : keys.byKid.get(header.kid);
  if (!key) return { ok: false, error: 'signature' };
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      currentDate: new Date(now * 1000),
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, error: 'expired' };
    if (error instanceof errors.JWSSignatureVerificationFailed)
      return { ok: false, error: 'signature' };
    if (error instanceof errors.JWTClaimValidationFailed) return { ok: false, error: 'claims' };
    return { ok: false, error: 'malformed' };
  }
  if (
    typeof payload.exp !== 'number' ||
    typeof payload.jti !== 'string' ||
    typeof payload.sub !== 'string'
  )
    return { ok: false, error: 'claims' };
  return { ok: true, value: payload as Claims };
}

/** A rider id as tokens carry it (`sub`). */
const RIDER_ID = /^[1-9]\d{0,11}$/;

/**
 * The rider (`sub`) of a bearer access token (the `Authorization` header) whose HS256
 * signature one of our keys made and that has not expired at `now` (seconds); its session
 * and version are not checked. Synchronous and cheap (8 us against `jose`'s 103 us a token,
 * which hands each HMAC to the thread pool: README), for deciding where a request waits its
 * turn and which limit counts it (`http/admission.ts`, `http/requestLimits.ts`) before the
 * route checks the token whole with `verifyJwt`; never for letting a request in. An expired
 * or refresh token is no rider's: an old token from a log cannot hold a rider's places.
 */
export function bearerRider(
  authorization: string | undefined,
  keys: JwtKeys,
  now: number,
): string | undefined {
  const token = bearerToken(authorization);
  if (!token || token.length > 4096) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [head, body, signature] = parts as [string, string, string];
  let kid: unknown;
  let claims: { sub?: unknown; exp?: unknown; token_type?: unknown } | null;
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as unknown;
    if ((header as { alg?: unknown } | null)?.alg !== 'HS256') return undefined;
    kid = (header as { kid?: unknown }).kid;
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return undefined;
  }
  const sub = claims?.sub;
  if (typeof sub !== 'string' || !RIDER_ID.test(sub)) return undefined;
  if (claims?.token_type !== 'access' || typeof claims.exp !== 'number' || claims.exp <= now)
    return undefined;
  const key =
    kid === undefined
      ? keys.current.key
      : typeof kid === 'string'
        ? keys.byKid.get(kid)
        : undefined;
  if (!key || !isCanonical(signature)) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const made = createHmac('sha256', key).update(`${head}.${body}`).digest();
  return given.length === made.length && timingSafeEqual(given, made) ? sub : undefined;
}
