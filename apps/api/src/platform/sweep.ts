import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStore } from './blobStore.ts';
import type { Queryable } from './db/db.ts';

/** Folders of rider uploads and the tables whose rows own their files. */
const owners = [
  // A queued import owns its upload until it becomes a workout (the same key) or fails.
  {
    prefix: 'workouts',
    owned: `SELECT file_key FROM workouts WHERE file_key = ANY($1::text[])
             UNION ALL SELECT file_key FROM imports WHERE status IN ('uploading', 'queued') AND file_key = ANY($1::text[])`,
  },
  {
    prefix: 'routebooks',
    owned: 'SELECT file_key FROM routebooks WHERE file_key = ANY($1::text[])',
  },
  // An export archive, until its walk has queued every activity.
  {
    prefix: 'archives',
    owned: `SELECT file_key FROM archive_imports
             WHERE status IN ('queued', 'running') AND file_key = ANY($1::text[])`,
  },
  // A ride's streams, written just before its row commits.
  {
    prefix: 'streams',
    owned: 'SELECT blob_key AS file_key FROM workout_streams WHERE blob_key = ANY($1::text[])',
  },
] as const;

/**
 * Deletes uploaded files no row owns: what a crash between writing the file and committing
 * its row leaves behind. Files younger than `graceMs` are kept, since another replica may
 * be about to commit their rows; a lone embedded server passes 0.
 */
export async function sweepOrphanFiles(
  db: Queryable,
  blobs: BlobStore,
  options: { graceMs: number; now?: number },
): Promise<string[]> {
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  for (const { prefix, owned: ownedSql } of owners) {
    const keys = await blobs.list(prefix);
    if (keys.length === 0) continue;
    const owned = new Set(
      (await db.query<{ file_key: string }>(ownedSql, [keys])).map((row) => row.file_key),
    );
    for (const key of keys) {
      if (owned.has(key)) continue;
      const modified = await blobs.modifiedAt(key);
      if (modified === undefined || now - modified < options.graceMs) continue;
      await blobs.delete(key);
      removed.push(key);
    }
  }
  return removed;
}

/**
 * Removes what walks of export archives left in their temporary folder (`DATA_DIR/tmp/
 * archives`, one folder an archive) when their process died. Beside other processes only
 * folders untouched for `graceMs` go: a walk touches its folder every minute.
 */
export async function sweepArchiveFolders(
  folder: string,
  options: { graceMs: number; now?: number },
): Promise<string[]> {
  const now = options.now ?? Date.now();
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names) {
    const path = join(folder, name);
    if (options.graceMs > 0) {
      const modified = (await stat(path).catch(() => undefined))?.mtimeMs;
      if (modified === undefined || now - modified < options.graceMs) continue;
    }
    await rm(path, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
