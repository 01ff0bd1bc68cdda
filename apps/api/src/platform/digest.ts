// SHA-256 of large bytes without stopping the event loop: Node's WebCrypto digest runs in
// the thread pool (a 32 MB upload hashed with `createHash` held the loop about 100 ms); and a
// bearer token compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

const gunzipAsync = promisify(gunzip);

/** The SHA-256 of `parts` one after another, hex or base64url. */
export async function sha256(
  parts: readonly Uint8Array[],
  encoding: 'hex' | 'base64url' = 'hex',
): Promise<string> {
  const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Buffer.from(digest).toString(encoding);
}

/** Whether `authorization` is `Bearer <token>`; compared in constant time (digests of both). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  const digest = (value: string) => createHash('sha256').update(value).digest();
  // Both sides hashed: equal lengths for timingSafeEqual, and no length leaks through timing.
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

/**
 * The SHA-256 a file is known by: of its content, unpacked when it is gzip (within
 * `maxBytes`), so a `.fit.gz` and its `.fit` are one file; of the bytes as sent otherwise.
 */
export async function contentSha256(bytes: Uint8Array, maxBytes: number): Promise<string> {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const unpacked = await gunzipAsync(bytes, { maxOutputLength: maxBytes }).catch(() => undefined);
    if (unpacked) return sha256([new Uint8Array(unpacked)]);
  }
  return sha256([bytes]);
}
