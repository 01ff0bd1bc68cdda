import { randomBytes } from 'node:crypto';
import type { Database } from '../platform/db/db.ts';
import { keyId } from './jwt.ts';

/** A new key signs only this long after it is made: every process has read it by then. */
export const KEY_ACTIVATION_S = 120;
/** How often each process reads the keys again. */
export const KEY_RELOAD_MS = 30_000;

/** The signing secret and the secrets that still verify. */
export interface SecretSet {
  readonly secret: string;
  readonly previous: readonly string[];
}

/**
 * Signing keys kept in the database (`signing_keys`), for several processes on one
 * PostgreSQL without `JWT_SECRET`: the first start makes one (under an advisory lock, so
 * processes starting together make one between them). The newest key whose time has come
 * signs; every other unretired key verifies, including a rotated-in key that does not sign
 * yet, so a token signed by a process that already switched verifies everywhere.
 */
export async function sharedSecrets(db: Database): Promise<SecretSet> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(4243)');
    const [any] = await tx.query('SELECT 1 FROM signing_keys LIMIT 1');
    if (any) return;
    const secret = randomBytes(32).toString('hex');
    // The very first key signs at once (no process has any other).
    await tx.query(
      "INSERT INTO signing_keys (kid, secret, created_at) VALUES ($1, $2, now() - interval '1 second')",
      [keyId(secret), secret],
    );
  });
  const rows = await db.query<{ secret: string; active: boolean }>(
    `SELECT secret, created_at <= now() AS active FROM signing_keys
      WHERE retired_at IS NULL OR retired_at > now() ORDER BY created_at DESC`,
  );
  const current = rows.find((row) => row.active) ?? rows[rows.length - 1]!;
  return {
    secret: current.secret,
    previous: rows.filter((row) => row !== current).map((row) => row.secret),
  };
}

/**
 * Rotates the shared key: a new key that verifies at once and signs from `KEY_ACTIVATION_S`
 * on; the keys before it keep verifying for `graceS` more (the refresh tokens' lifetime),
 * then are retired.
 */
export async function rotateSharedKey(db: Database, graceS: number): Promise<string> {
  const secret = randomBytes(32).toString('hex');
  const kid = keyId(secret);
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(4243)');
    await tx.query(
      `UPDATE signing_keys SET retired_at = now() + make_interval(secs => $1)
        WHERE retired_at IS NULL`,
      [graceS + KEY_ACTIVATION_S],
    );
    await tx.query(
      'INSERT INTO signing_keys (kid, secret, created_at) VALUES ($1, $2, now() + make_interval(secs => $3))',
      [kid, secret, KEY_ACTIVATION_S],
    );
  });
  return kid;
}
