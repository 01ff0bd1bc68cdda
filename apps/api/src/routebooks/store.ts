import type { Routebook } from '@xoss/api-contract';
import type { Queryable } from '../platform/db/db.ts';
import { pageOf, type PageWindow, type RowPage } from '../platform/db/page.ts';

// The routebooks table: a rider's GPX routes (the file itself is in the blob store).

export interface RoutebookRow {
  id: number;
  user_id: number;
  title: string;
  description: string;
  distance_m: number;
  elevation_gain_m: number;
  elevation_loss_m: number;
  points: number;
  has_time: boolean;
  bounds: Routebook['bounds'];
  preview: Routebook['preview'];
  file_key: string;
  file_name: string;
  created_at: Date;
}

/** What a new routebook's row holds. */
export interface NewRoutebook {
  readonly userId: number;
  readonly title: string;
  readonly description: string;
  readonly distanceM: number;
  readonly elevationGainM: number;
  readonly elevationLossM: number;
  readonly points: number;
  readonly hasTime: boolean;
  readonly bounds: Routebook['bounds'];
  readonly preview: Routebook['preview'];
  readonly fileKey: string;
  readonly fileName: string;
  readonly fileBytes: number;
}

/** The rider's routebook `id`, or undefined when it is not theirs (or not there). */
export async function ownRoutebook(
  db: Queryable,
  userId: number | undefined,
  id: number,
): Promise<RoutebookRow | undefined> {
  const [row] = await db.query<RoutebookRow>(
    'SELECT * FROM routebooks WHERE id = $1 AND user_id = $2',
    [id, userId],
  );
  return row;
}

/** One page of the rider's routebooks, newest first. */
export function listRoutebooks(
  db: Queryable,
  userId: number | undefined,
  window: PageWindow,
): Promise<RowPage<RoutebookRow>> {
  return pageOf<RoutebookRow>(
    db,
    {
      select: 'SELECT * FROM routebooks WHERE user_id = $1',
      params: [userId],
      orderBy: 'id DESC',
      count: 'SELECT count(*)::int AS count FROM routebooks WHERE user_id = $1',
    },
    window,
  );
}

/** Stores a routebook's row; its id. */
export async function insertRoutebook(db: Queryable, book: NewRoutebook): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO routebooks (user_id, title, description, distance_m, elevation_gain_m, elevation_loss_m, points, has_time, bounds, preview, file_key, file_name, file_bytes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
    [
      book.userId,
      book.title,
      book.description,
      book.distanceM,
      book.elevationGainM,
      book.elevationLossM,
      book.points,
      book.hasTime,
      JSON.stringify(book.bounds),
      JSON.stringify(book.preview),
      book.fileKey,
      book.fileName,
      book.fileBytes,
    ],
  );
  return row!.id;
}

export async function deleteRoutebook(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM routebooks WHERE id = $1', [id]);
}

/** A routebook's "Send to device" marks: the device and when it was sent and synced. */
export interface RoutebookSyncRow {
  routebook_id: number;
  device_id: number;
  marked_at: Date;
  synced_at: Date | null;
}

/** The send marks of the given routebooks, oldest first per routebook. */
export async function syncsOf(
  db: Queryable,
  routebookIds: readonly number[],
): Promise<RoutebookSyncRow[]> {
  if (routebookIds.length === 0) return [];
  return db.query<RoutebookSyncRow>(
    'SELECT * FROM routebook_syncs WHERE routebook_id = ANY($1::int[]) ORDER BY marked_at, device_id',
    [routebookIds],
  );
}

/** Changes a routebook's title and/or description (undefined leaves a field as it is). */
export async function updateRoutebook(
  db: Queryable,
  id: number,
  fields: { title?: string | undefined; description?: string | undefined },
): Promise<void> {
  await db.query(
    'UPDATE routebooks SET title = COALESCE($2, title), description = COALESCE($3, description) WHERE id = $1',
    [id, fields.title ?? null, fields.description ?? null],
  );
}

/**
 * Marks a routebook for a device. Sending again, after a sync or not, marks it anew: the
 * rider may have deleted it on the device and want it back.
 */
export async function markForDevice(
  db: Queryable,
  routebookId: number,
  deviceId: number,
): Promise<void> {
  await db.query(
    `INSERT INTO routebook_syncs (routebook_id, device_id) VALUES ($1, $2)
     ON CONFLICT (routebook_id, device_id) DO UPDATE SET marked_at = now(), synced_at = NULL`,
    [routebookId, deviceId],
  );
}

/** What the phone app lists for a device: the routebooks marked for it and not yet synced. */
export function waitingFor(
  db: Queryable,
  deviceId: number,
): Promise<(RoutebookRow & { marked_at: Date })[]> {
  return db.query<RoutebookRow & { marked_at: Date }>(
    `SELECT r.*, s.marked_at FROM routebook_syncs s JOIN routebooks r ON r.id = s.routebook_id
     WHERE s.device_id = $1 AND s.synced_at IS NULL ORDER BY s.marked_at, r.id LIMIT 500`,
    [deviceId],
  );
}

/** Acknowledges routebooks synced onto a device; how many were waiting for it. */
export async function markSynced(
  db: Queryable,
  deviceId: number,
  routebookIds: readonly number[],
): Promise<number> {
  const rows = await db.query<{ routebook_id: number }>(
    `UPDATE routebook_syncs SET synced_at = now()
     WHERE device_id = $1 AND routebook_id = ANY($2::int[]) AND synced_at IS NULL
     RETURNING routebook_id`,
    [deviceId, routebookIds],
  );
  return rows.length;
}
