import type { Effort } from '@xoss/api-contract';
import type { Queryable } from '../platform/db/db.ts';

// What the training pages read: the daily totals (`daily_load`), the rides of a span, the
// ranked best efforts (`workout_bests`) and the rider's FTP rule and weight. No HTTP here.

/** A day's totals (UTC day, `YYYY-MM-DD`). */
export interface DayRow {
  day: string;
  rides: number;
  moving_time_s: number;
  distance_m: number;
  elevation_gain_m: number;
  tss: number;
}

/** A ride as the training log lists it. */
export interface LogRide {
  id: number;
  name: string;
  sport_type: number;
  start_time: Date;
  moving_time_s: number;
  distance_m: number;
  elevation_gain_m: number | null;
  tss: number | null;
}

/** The day of the rider's first ride, or null before any. */
export async function firstRideDay(db: Queryable, userId: number | undefined) {
  const [first] = await db.query<{ day: string | null }>(
    `SELECT to_char(min(day), 'YYYY-MM-DD') AS day FROM daily_load WHERE user_id = $1 AND rides > 0`,
    [userId],
  );
  return first?.day ?? null;
}

/** The days with rides in [from, to), in order. */
export function dayTotals(
  db: Queryable,
  userId: number | undefined,
  from: string,
  to: string,
): Promise<DayRow[]> {
  return db.query<DayRow>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, rides, moving_time_s, distance_m,
            elevation_gain_m, tss
       FROM daily_load
      WHERE user_id = $1 AND day >= $2::date AND day < $3::date AND rides > 0 ORDER BY day`,
    [userId, from, to],
  );
}

/** The rides that started in [from, to) (UTC days), in order. */
export function ridesBetween(
  db: Queryable,
  userId: number | undefined,
  from: string,
  to: string,
): Promise<LogRide[]> {
  return db.query<LogRide>(
    `SELECT id, name, sport_type, start_time, moving_time_s, distance_m, elevation_gain_m, tss
       FROM workouts WHERE user_id = $1 AND start_time >= $2 AND start_time < $3
      ORDER BY start_time, id`,
    [userId, new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`)],
  );
}

/**
 * The best `limit` rides of each effort, in the order of `efforts`, straight from the ranking
 * index (cost grows with `limit`, not with the history); `since`/`until` bound the start.
 */
export function bestRides(
  db: Queryable,
  userId: number | undefined,
  efforts: readonly string[],
  span: { since: Date | null; until: Date | null },
  limit: number,
) {
  return db.query<{
    effort: Effort;
    value: number;
    workout_id: number;
    name: string;
    start_time: Date;
  }>(
    `SELECT e.effort, r.value, r.workout_id, r.name, r.start_time, r.score
       FROM unnest($2::text[]) WITH ORDINALITY AS e(effort, position)
       CROSS JOIN LATERAL (
         SELECT b.value, b.score, b.workout_id, w.name, b.start_time FROM workout_bests b
           JOIN workouts w ON w.id = b.workout_id
          WHERE b.user_id = $1 AND b.effort = e.effort
            AND ($3::timestamptz IS NULL OR b.start_time >= $3::timestamptz)
            AND ($4::timestamptz IS NULL OR b.start_time < $4::timestamptz)
          ORDER BY b.score DESC, b.start_time, b.workout_id LIMIT $5) r
      ORDER BY e.position, r.score DESC, r.start_time, r.workout_id`,
    [userId, [...efforts], span.since, span.until, limit],
  );
}

/** The best ride of one effort that started in [from, to) (UTC days), if any. */
export async function bestOfSpan(
  db: Queryable,
  userId: number | undefined,
  effort: string,
  from: string,
  to: string,
) {
  const [row] = await db.query<{ value: number; workout_id: number; start_time: Date }>(
    `SELECT value, workout_id, start_time FROM workout_bests
      WHERE user_id = $1 AND effort = $2 AND start_time >= $3 AND start_time < $4
      ORDER BY score DESC, start_time LIMIT 1`,
    [userId, effort, new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`)],
  );
  return row;
}

/** The rider's FTP rule and weight. */
export async function ftpSettings(db: Queryable, userId: number | undefined) {
  const [user] = await db.query<{ weight_kg: number | null; ftp_rule: 'hour' | 'twenty' }>(
    'SELECT weight_kg, ftp_rule FROM users WHERE id = $1',
    [userId],
  );
  return user;
}

/** When the rider's ride `id` started; undefined when it is not theirs (or not there). */
export async function rideStart(
  db: Queryable,
  userId: number | undefined,
  id: number,
): Promise<Date | undefined> {
  const [ride] = await db.query<{ start_time: Date }>(
    'SELECT start_time FROM workouts WHERE id = $1 AND user_id = $2',
    [id, userId],
  );
  return ride ? new Date(ride.start_time) : undefined;
}

/**
 * A ride's best efforts with their rank in `year` and of all time: rides with a better score,
 * or the same score earlier, come first.
 */
export function rideEffortRanks(
  db: Queryable,
  userId: number | undefined,
  id: number,
  year: number,
) {
  return db.query<{ effort: Effort; value: number; year_rank: number; all_time_rank: number }>(
    `SELECT b.effort, b.value,
            1 + (SELECT count(*)::int FROM workout_bests o
                  WHERE o.user_id = b.user_id AND o.effort = b.effort
                    AND o.start_time >= $3 AND o.start_time < $4
                    AND (o.score > b.score OR (o.score = b.score
                         AND (o.start_time, o.workout_id) < (b.start_time, b.workout_id)))) AS year_rank,
            1 + (SELECT count(*)::int FROM workout_bests o
                  WHERE o.user_id = b.user_id AND o.effort = b.effort
                    AND (o.score > b.score OR (o.score = b.score
                         AND (o.start_time, o.workout_id) < (b.start_time, b.workout_id)))) AS all_time_rank
       FROM workout_bests b WHERE b.workout_id = $1 AND b.user_id = $2`,
    [id, userId, new Date(Date.UTC(year, 0, 1)), new Date(Date.UTC(year + 1, 0, 1))],
  );
}
