import type { Routebook } from '@xoss/api-contract';
import type { Queryable } from '../db/db.ts';
import { pageOf, type PageWindow, type RowPage } from '../db/page.ts';

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
