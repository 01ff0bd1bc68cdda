import type { DistanceUnitSetting, TemperatureUnit } from '@xoss/data-fields';
import type { Queryable } from '../platform/db/db.ts';

// The users table as the athlete endpoints read and change it: the profile and settings.

export interface AthleteRow {
  id: number;
  uuid: string;
  username: string;
  email: string;
  avatar_url: string | null;
  ftp: number | null;
  max_hr: number | null;
  distance_unit: DistanceUnitSetting;
  temperature_unit: TemperatureUnit;
  privacy_trim_m: number;
  share_heart_rate: boolean;
  share_power: boolean;
  weight_kg: number | null;
  ftp_rule: 'hour' | 'twenty';
  threshold_pace_s_per_km: number | null;
}

/** The settings a rider may change (all of them are written at once). */
export interface AthleteSettings {
  readonly username: string;
  readonly ftp: number | null;
  readonly max_hr: number | null;
  readonly distance_unit: DistanceUnitSetting;
  readonly temperature_unit: TemperatureUnit;
  readonly privacy_trim_m: number;
  readonly share_heart_rate: boolean;
  readonly share_power: boolean;
  readonly weight_kg: number | null;
  readonly ftp_rule: 'hour' | 'twenty';
  readonly threshold_pace_s_per_km: number | null;
}

/** The name the rider signs with (articles, comments, shared rides), if the rider exists. */
export async function username(db: Queryable, id: number | undefined): Promise<string | undefined> {
  const [row] = await db.query<{ username: string }>('SELECT username FROM users WHERE id = $1', [
    id,
  ]);
  return row?.username;
}

export async function athlete(db: Queryable, id: number): Promise<AthleteRow | undefined> {
  const [row] = await db.query<AthleteRow>('SELECT * FROM users WHERE id = $1', [id]);
  return row;
}

/** Writes the rider's profile and settings; the row as it now is. */
export async function saveAthlete(
  db: Queryable,
  id: number,
  settings: AthleteSettings,
): Promise<AthleteRow | undefined> {
  const [changed] = await db.query<AthleteRow>(
    `UPDATE users SET username = $1, ftp = $2, max_hr = $3, distance_unit = $4, temperature_unit = $5,
       privacy_trim_m = $6, share_heart_rate = $7, share_power = $8, weight_kg = $9, ftp_rule = $10,
       threshold_pace_s_per_km = $12
     WHERE id = $11 RETURNING *`,
    [
      settings.username,
      settings.ftp,
      settings.max_hr,
      settings.distance_unit,
      settings.temperature_unit,
      settings.privacy_trim_m,
      settings.share_heart_rate,
      settings.share_power,
      settings.weight_kg,
      settings.ftp_rule,
      id,
      settings.threshold_pace_s_per_km,
    ],
  );
  return changed;
}
