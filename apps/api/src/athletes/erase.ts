// Deleting an account: every row of the rider in one transaction, then their files.
import type { Services } from '../services.ts';
import { forgetPreview } from '../share/previewCache.ts';
import { forgetStreams } from '../rides/streams.ts';

/** What an erased account left for the store and the caches to drop. */
export interface Erased {
  readonly files: number;
  readonly rides: number;
}

/**
 * Deletes a rider and everything of theirs: rides (files, streams, curves, bests, training
 * days), routebooks, devices and layouts, settings and thresholds, privacy zones, share links,
 * sessions and reset links, queued imports, their comments and likes, and articles they wrote.
 *
 * @remarks
 * The rows go in one transaction (the foreign keys cascade from `users`): a failure leaves
 * the account whole. The files go after it; one the store fails to delete is an orphan the
 * start-up sweep (`sweepOrphanFiles`) removes. Share links answer 404 as soon as the
 * transaction commits (their rows are gone), and this process's caches are dropped at once;
 * another process's streams cache holds a ride by id only until its next read checks the row.
 */
export async function eraseAthlete(services: Services, userId: number): Promise<Erased> {
  const { db, blobs } = services;
  const gone = await db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const rides = await tx.query<{ id: number; share_id: string | null; file_key: string }>(
      'SELECT id, share_id, file_key FROM workouts WHERE user_id = $1',
      [userId],
    );
    const files = await tx.query<{ key: string }>(
      `SELECT s.blob_key AS key FROM workout_streams s JOIN workouts w ON w.id = s.workout_id
        WHERE w.user_id = $1 AND s.blob_key IS NOT NULL
       UNION SELECT file_key FROM routebooks WHERE user_id = $1
       UNION SELECT file_key FROM imports WHERE user_id = $1
       UNION SELECT file_key FROM archive_imports WHERE user_id = $1`,
      [userId],
    );
    const [user] = await tx.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [
      userId,
    ]);
    // Comments keep no author once the rider is gone (the key would set it null): they go.
    await tx.query('DELETE FROM post_comments WHERE user_id = $1', [userId]);
    await tx.query('DELETE FROM posts WHERE author_id = $1', [userId]);
    await tx.query('DELETE FROM users WHERE id = $1', [userId]);
    // Login and reset limits are counted by e-mail address too: those keys name the rider.
    if (user) {
      const account = user.email.trim().toLowerCase();
      await tx.query('DELETE FROM login_attempts WHERE key = ANY($1::text[])', [
        [`account:${account}`, `reset-email:${account}`],
      ]);
    }
    return { rides, keys: [...rides.map((ride) => ride.file_key), ...files.map((f) => f.key)] };
  });
  for (const ride of gone.rides) {
    forgetStreams(db, ride.id);
    forgetPreview(ride.share_id);
  }
  const keys = [...new Set(gone.keys)];
  for (const key of keys) await blobs.delete(key).catch(() => undefined);
  return { files: keys.length, rides: gone.rides.length };
}
