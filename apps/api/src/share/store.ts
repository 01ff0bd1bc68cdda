import type { Database, Queryable } from '../platform/db/db.ts';
import type { WorkoutRow } from '../rides/rows.ts';

/**
 * The most privacy zones a rider may keep (Strava allows a handful; twenty covers home, work,
 * family and friends with room to spare). Each costs every share request nothing (the mask is
 * computed once per ride and zone set), but computing it grows with their number.
 */
export const MAX_PRIVACY_ZONES = 20;

// What share links read of the rider beside the ride (the privacy trim and zones), and the
// privacy zones the rider keeps.

export interface ZoneRow {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  radius_m: number;
}

/** The rider's privacy zones, in the order they were made. */
export function privacyZones(db: Queryable, userId: number | undefined): Promise<ZoneRow[]> {
  return db.query<ZoneRow>('SELECT * FROM privacy_zones WHERE user_id = $1 ORDER BY id', [userId]);
}

/** The id of the ride a share link opens, if its sharing is on. */
export async function sharedWorkoutId(db: Queryable, shareId: string): Promise<number | undefined> {
  const [row] = await db.query<{ id: number }>('SELECT id FROM workouts WHERE share_id = $1', [
    shareId,
  ]);
  return row?.id;
}

/**
 * Adds a zone; `undefined` when the rider already keeps `MAX_PRIVACY_ZONES`. The rider's row
 * is locked while the zones are counted, so simultaneous requests cannot pass the limit.
 */
export function insertPrivacyZone(
  db: Database,
  userId: number | undefined,
  zone: { name: string; latitude: number; longitude: number; radius_m: number },
): Promise<ZoneRow | undefined> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const [{ count } = { count: 0 }] = await tx.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM privacy_zones WHERE user_id = $1',
      [userId],
    );
    if (count >= MAX_PRIVACY_ZONES) return undefined;
    const [row] = await tx.query<ZoneRow>(
      `INSERT INTO privacy_zones (user_id, name, latitude, longitude, radius_m)
       VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [userId, zone.name, zone.latitude, zone.longitude, zone.radius_m],
    );
    return row;
  });
}

/** Deletes one of the rider's zones; false when it is not theirs (or not there). */
export async function deletePrivacyZone(
  db: Queryable,
  userId: number | undefined,
  id: number,
): Promise<boolean> {
  const rows = await db.query(
    'DELETE FROM privacy_zones WHERE id = $1 AND user_id = $2 RETURNING id',
    [id, userId],
  );
  return rows.length > 0;
}

/**
 * A shared ride with all its share replies need of its rider in one query: the privacy
 * trim and zones, the share choices, the name, and its streams' version (`xmin`). Anyone may
 * ask for a link as often as their address's limit lets them: at one query each (there
 * were six) a few addresses kept the embedded database's one connection busy enough that
 * other riders' imports waited for it (bench: their p99 4.8x).
 */
export async function sharedViewRow(db: Queryable, shareId: string) {
  const [found] = await db.query<
    WorkoutRow & {
      owner_trim_m: number | null;
      owner_share_heart_rate: boolean | null;
      owner_share_power: boolean | null;
      owner_username: string | null;
      owner_zones: { latitude: number; longitude: number; radius_m: number }[] | string;
      streams_stamp: string | null;
    }
  >(
    `SELECT w.*, u.privacy_trim_m AS owner_trim_m, u.share_heart_rate AS owner_share_heart_rate,
            u.share_power AS owner_share_power, u.username AS owner_username,
            coalesce((SELECT json_agg(json_build_object('latitude', z.latitude, 'longitude', z.longitude,
                        'radius_m', z.radius_m) ORDER BY z.id)
                        FROM privacy_zones z WHERE z.user_id = w.user_id), '[]'::json) AS owner_zones,
            (SELECT xmin::text FROM workout_streams s WHERE s.workout_id = w.id) AS streams_stamp
       FROM workouts w JOIN users u ON u.id = w.user_id
      WHERE w.share_id = $1`,
    [shareId],
  );
  return found;
}
