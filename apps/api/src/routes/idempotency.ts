import { ErrorCode } from '@xoss/api-contract';
import type { FastifyRequest } from 'fastify';
import { sha256 } from '../platform/digest.ts';
import { ApiError } from '../http/envelope.ts';

const KEY = /^[A-Za-z0-9_-]{8,64}$/;

/** The request's `Idempotency-Key`, if it sent one; a malformed key is a 400, never ignored. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key === 'string' && KEY.test(key)) return key;
  throw new ApiError(
    ErrorCode.ValidationFailed,
    'The Idempotency-Key header must be 8-64 letters, digits, "-" or "_"',
    { errors: [{ path: 'Idempotency-Key', message: 'Malformed' }] },
  );
}

/** What is stored beside the key: a SHA-256 of the file and the fields that came with it. */
export function uploadDigest(bytes: Uint8Array, fields: Record<string, string>): Promise<string> {
  const text = Object.keys(fields)
    .sort()
    .map((name) => `\0${name}\0${fields[name]}`)
    .join('');
  return sha256([bytes, Buffer.from(text)], 'base64url');
}

/**
 * A key sent again must come with the same upload: then it replays the first answer;
 * with another body it is a 422 (the client reused a key, and the second file would be lost).
 * Rows stored before digests were kept (`null`) are replayed.
 */
export function assertSameUpload(stored: string | null, digest: string): void {
  if (stored !== null && stored !== digest)
    throw new ApiError(
      ErrorCode.IdempotencyKeyReused,
      'This Idempotency-Key was used for a different upload; send a new key for a new file',
      { errors: [{ path: 'Idempotency-Key', message: 'Reused with a different body' }] },
    );
}
