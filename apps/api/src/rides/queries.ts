// Storage of rides, the queries the HTTP routes need beyond rows.ts: the list and its totals,
// a ride by its upload's idempotency key, edits, deletion, curves, the years ridden and
// unsharing. No HTTP here.
import type { Queryable } from '../platform/db/db.ts';
import { pageOf, type PageWindow, type RowPage } from '../platform/db/page.ts';
import { LIST_COLUMNS, workoutFilter, type WorkoutRow } from './rows.ts';

type ListQuery = Parameters<typeof workoutFilter>[1];

/** One page of the rider's rides, newest first, filtered as the list asks. */
export function listWorkouts(
  db: Queryable,
  userId: number,
  query: ListQuery,
  window: PageWindow,
): Promise<RowPage<WorkoutRow>> {
  const { filter, params } = workoutFilter(userId, query);
  return pageOf<WorkoutRow>(
    db,
    {
      select: `SELECT ${LIST_COLUMNS} FROM workouts WHERE ${filter}`,
      params,
      orderBy: 'start_time DESC, id DESC',
      count: `SELECT count(*)::int AS count FROM workouts WHERE ${filter}`,
    },
    window,
  );
}

/**
 * The count and sums of the rides the list's filter selects (zero when none); a ride whose
 * date is doubtful (`date_warning`) counts in no total until its date is fixed.
 */
export async function workoutTotals(db: Queryable, userId: number, query: ListQuery) {
  const { filter, params } = workoutFilter(userId, query);
  const [row] = await db.query<{
    count: number;
    distance_m: number | null;
    moving_time_s: number | null;
    elevation_gain_m: number | null;
  }>(
    `SELECT count(*)::int AS count, sum(distance_m)::float8 AS distance_m,
            sum(moving_time_s)::float8 AS moving_time_s,
            sum(elevation_gain_m)::float8 AS elevation_gain_m
       FROM workouts WHERE ${filter} AND date_warning IS NULL`,
    params,
  );
  return {
    count: row?.count ?? 0,
    distance_m: row?.distance_m ?? 0,
    moving_time_s: row?.moving_time_s ?? 0,
    elevation_gain_m: row?.elevation_gain_m ?? 0,
  };
}

/** The rider's ride imported with this `Idempotency-Key`, if any. */
export async function workoutByIdempotencyKey(
  db: Queryable,
  userId: number | undefined,
  key: string,
): Promise<WorkoutRow | undefined> {
  const [row] = await db.query<WorkoutRow>(
    'SELECT * FROM workouts WHERE user_id = $1 AND idempotency_key = $2',
    [userId, key],
  );
  return row;
}

/**
 * What a rider may change of a ride without analysing it again. Only the fields present are
 * written: a field left out keeps whatever the row holds when the statement runs, so an edit
 * never writes back a value another request changed meanwhile (a correction being analysed,
 * an unshare, a rename from another tab).
 */
export interface WorkoutEdit {
  readonly name?: string;
  readonly notes?: string;
  readonly gear?: string | null;
  /** `true`: shared by its link (kept, or `newShareId`); `false`: its link ends now. */
  readonly shared?: boolean;
  readonly shareHeartRate?: boolean;
  readonly sharePower?: boolean;
}

/**
 * Writes `edit` in one statement on the row as it is now. A ride being shared keeps its
 * link, else gets `newShareId`, and what the link shows of heart rate and power is fixed at
 * the rider's current choices unless the ride has its own. Returns the ride's link before
 * and after (undefined: no such ride), so the caller can forget what the old link cached.
 */
export async function saveWorkoutEdit(
  db: Queryable,
  id: number,
  edit: WorkoutEdit,
  newShareId: string,
): Promise<{ before: string | null; after: string | null } | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (edit.name !== undefined) sets.push(`name = ${param(edit.name)}`);
  if (edit.notes !== undefined) sets.push(`notes = ${param(edit.notes)}`);
  if (edit.gear !== undefined) sets.push(`gear = ${param(edit.gear)}`);
  if (edit.shared === false) sets.push('share_id = NULL');
  if (edit.shared === true) sets.push(`share_id = COALESCE(w.share_id, ${param(newShareId)})`);
  // Shared now: fixed at what it shows today unless the ride chose (the rider's defaults
  // may change later; a link once sent keeps showing what it showed).
  const choice = (column: string, value: boolean | undefined) => {
    if (value !== undefined) sets.push(`${column} = ${param(value)}`);
    else if (edit.shared === true)
      sets.push(`${column} = COALESCE(w.${column}, u.${column}, true)`);
  };
  choice('share_heart_rate', edit.shareHeartRate);
  choice('share_power', edit.sharePower);
  if (sets.length === 0) {
    const [row] = await db.query<{ share_id: string | null }>(
      'SELECT share_id FROM workouts WHERE id = $1',
      [id],
    );
    return row ? { before: row.share_id, after: row.share_id } : undefined;
  }
  const [row] = await db.query<{ before: string | null; after: string | null }>(
    `WITH old AS (SELECT id, share_id FROM workouts WHERE id = $1 FOR UPDATE)
     UPDATE workouts w SET ${sets.join(', ')}
       FROM old, users u
      WHERE w.id = old.id AND u.id = w.user_id
     RETURNING old.share_id AS before, w.share_id AS after`,
    params,
  );
  return row;
}

/**
 * Deletes a ride's row (its streams and curves go with it); the row as it was, with the file
 * store's key of its streams (`streams_key`: delete that file once this commits).
 */
export async function deleteWorkoutRow(
  db: Queryable,
  id: number,
): Promise<(WorkoutRow & { streams_key: string | null }) | undefined> {
  const [gone] = await db.query<WorkoutRow & { streams_key: string | null }>(
    `WITH streams AS (SELECT blob_key FROM workout_streams WHERE workout_id = $1)
     DELETE FROM workouts WHERE id = $1 RETURNING *, (SELECT blob_key FROM streams) AS streams_key`,
    [id],
  );
  return gone;
}

/** A ride's packed power and speed curves (null where it has none). */

/** The years the rider has rides in (the year rows of the per-period best curves), newest first. */
export async function yearsWithRides(db: Queryable, userId: number | undefined): Promise<number[]> {
  const rows = await db.query<{ period: string }>(
    `SELECT period FROM best_curves WHERE user_id = $1 AND period LIKE 'Y%' ORDER BY period DESC`,
    [userId],
  );
  return rows.map((row) => Number(row.period.slice(1))).filter((year) => Number.isInteger(year));
}

/** Turns every share link of the rider off; the links that were on. */
export async function unshareAll(db: Queryable, userId: number | undefined): Promise<string[]> {
  const rows = await db.query<{ share_id: string }>(
    'UPDATE workouts w SET share_id = NULL FROM (SELECT id, share_id FROM workouts WHERE user_id = $1 AND share_id IS NOT NULL FOR UPDATE) old WHERE w.id = old.id RETURNING old.share_id',
    [userId],
  );
  return rows.map((row) => row.share_id);
}
