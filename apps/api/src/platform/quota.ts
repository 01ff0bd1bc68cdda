import { ErrorCode } from '@xoss/api-contract';
import type { Database, Queryable } from './db/db.ts';
import { ApiError } from '../http/envelope.ts';

// A reservation older than this belongs to a request that died with its process.
const STALE = "interval '1 hour'";

/**
 * What a rider stores: files, the streams kept of each ride, export archives waiting to be
 * walked, and uploads in flight.
 */
async function usedBytes(tx: Queryable, userId: number): Promise<number> {
  const [usage] = await tx.query<{ used: number }>(
    `SELECT (SELECT coalesce(sum(file_bytes), 0) FROM workouts WHERE user_id = $1)::float8
          + (SELECT coalesce(sum(coalesce(s.bytes, octet_length(s.data))), 0) FROM workout_streams s
               JOIN workouts w ON w.id = s.workout_id WHERE w.user_id = $1)::float8
          + (SELECT coalesce(sum(file_bytes), 0) FROM routebooks WHERE user_id = $1)::float8
          + (SELECT coalesce(sum(stored_bytes), 0) FROM archive_imports WHERE user_id = $1)::float8
          + (SELECT coalesce(sum(bytes), 0) FROM quota_reservations WHERE user_id = $1)::float8
            AS used`,
    [userId],
  );
  return usage!.used;
}

const quotaFull = (quota: number) =>
  new ApiError(
    ErrorCode.PayloadTooLarge,
    `Your storage quota of ${Math.round(quota / 1048576)} MB is full: delete old files first`,
  );

/**
 * Inside the transaction that stores a ride: refuses with 413 when its streams would overrun
 * the quota. The upload's file is already counted by its reservation; the user's row is
 * locked, so simultaneous imports are counted one after another.
 */
export async function assertStreamsFit(
  tx: Queryable,
  userId: number,
  streamBytes: number,
): Promise<void> {
  const [user] = await tx.query<{ quota: number }>(
    'SELECT quota_bytes::float8 AS quota FROM users WHERE id = $1 FOR UPDATE',
    [userId],
  );
  if (user && (await usedBytes(tx, userId)) + streamBytes > user.quota) throw quotaFull(user.quota);
}

/**
 * Reserves `bytes` of the user's storage quota for an upload in flight, or refuses with 413.
 * The user's row is locked while stored files and other reservations are summed, so
 * simultaneous uploads are counted one after another and cannot overrun the quota together.
 * Returns the release, called when the request ends (the stored row then counts instead).
 */
export async function reserveQuota(
  db: Database,
  userId: number,
  bytes: number,
): Promise<() => Promise<void>> {
  const id = await db.transaction(async (tx) => {
    const [user] = await tx.query<{ quota: number }>(
      'SELECT quota_bytes::float8 AS quota FROM users WHERE id = $1 FOR UPDATE',
      [userId],
    );
    if (!user) throw new ApiError(ErrorCode.TokenInvalid, 'Token invalid');
    await tx.query(
      `DELETE FROM quota_reservations WHERE user_id = $1 AND created_at < now() - ${STALE}`,
      [userId],
    );
    const used = await usedBytes(tx, userId);
    if (used + bytes > user.quota) throw quotaFull(user.quota);
    const [row] = await tx.query<{ id: number }>(
      'INSERT INTO quota_reservations (user_id, bytes) VALUES ($1, $2) RETURNING id',
      [userId, bytes],
    );
    return row!.id;
  });
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await db.query('DELETE FROM quota_reservations WHERE id = $1', [id]);
  };
}

/** The bytes left in the rider's quota now, and the 413 that says it is full. */
export async function roomLeft(
  db: Queryable,
  userId: number,
): Promise<{ bytes: number; full: () => ApiError }> {
  const [user] = await db.query<{ quota: number }>(
    'SELECT quota_bytes::float8 AS quota FROM users WHERE id = $1',
    [userId],
  );
  if (!user) throw new ApiError(ErrorCode.TokenInvalid, 'Token invalid');
  return {
    bytes: user.quota - (await usedBytes(db, userId)),
    full: () => quotaFull(user.quota),
  };
}

/**
 * Inside the transaction that records `bytes` newly stored (an export archive): refuses with
 * 413 when they overrun the quota. The rider's row is locked, as `reserveQuota` does.
 */
export async function assertFits(tx: Queryable, userId: number, bytes: number): Promise<void> {
  const [user] = await tx.query<{ quota: number }>(
    'SELECT quota_bytes::float8 AS quota FROM users WHERE id = $1 FOR UPDATE',
    [userId],
  );
  if (!user) throw new ApiError(ErrorCode.TokenInvalid, 'Token invalid');
  if ((await usedBytes(tx, userId)) + bytes > user.quota) throw quotaFull(user.quota);
}
