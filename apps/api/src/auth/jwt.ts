import { createHmac, timingSafeEqual } from 'node:crypto';

// Compact JWS with HS256 only. Any other `alg` (including `none`) is refused before the
// signature is looked at.

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export type Claims = Record<string, string | number>;

export function signJwt(claims: Claims, secret: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${signature}`;
}

export type JwtCheck =
  | { readonly ok: true; readonly claims: Claims }
  | {
      readonly ok: false;
      readonly reason: 'malformed' | 'algorithm' | 'signature' | 'expired' | 'claims';
    };

/** Verifies signature and expiry (`exp`, seconds) at `now` (seconds). */
export function verifyJwt(token: string, secret: string, now: number): JwtCheck {
  if (token.length > 4096) return { ok: false, reason: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [header, payload, signature] = parts as [string, string, string];
  let parsedHeader: unknown;
  let claims: unknown;
  try {
    parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (
    typeof parsedHeader !== 'object' ||
    parsedHeader === null ||
    (parsedHeader as { alg?: unknown }).alg !== 'HS256'
  )
    return { ok: false, reason: 'algorithm' };
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  // Base64url decoding ignores a last character's unused low bits, so several spellings
  // decode to the same bytes: only the canonical one (as encoded) is the signature.
  if (
    given.length !== expected.length ||
    !timingSafeEqual(given, expected) ||
    given.toString('base64url') !== signature
  )
    return { ok: false, reason: 'signature' };
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims))
    return { ok: false, reason: 'claims' };
  const record = claims as Claims;
  if (
    typeof record.exp !== 'number' ||
    typeof record.jti !== 'string' ||
    typeof record.sub !== 'string'
  )
    return { ok: false, reason: 'claims' };
  if (record.exp <= now) return { ok: false, reason: 'expired' };
  return { ok: true, claims: record };
}
