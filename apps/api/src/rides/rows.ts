// Storage of rides: the `workouts` row as stored, the list's columns and item, the rider's own
// ride and a share link's ride by id, and the list filter's SQL. No HTTP here.
import { type WorkoutDetail, type WorkoutListItem } from '@xoss/api-contract';
import { type TimerIntervals, type WorkoutSummary } from '@xoss/workout-stats';
import type { ActivityLap } from '@xoss/activity-files';
import { notFound } from '../http/envelope.ts';
import type { Services } from '../services.ts';
import { type Damage, type SessionAnalysis } from '../analysis/analyse.ts';

/** Zone times as last computed, keyed by the ride's thresholds (not the estimates) they used. */
export interface ZoneCache {
  settings: { ftp: number | null; max_hr: number | null };
  ftp_source: WorkoutDetail['ftp_source'];
  max_hr_source: WorkoutDetail['max_hr_source'];
  ftp: number | null;
  max_hr: number | null;
  hr_zones: WorkoutDetail['hr_zones'];
  power_zones: WorkoutDetail['power_zones'];
}

export interface WorkoutRow {
  id: number;
  user_id: number;
  name: string;
  sport_type: number;
  start_time: Date;
  indoor: boolean;
  distance_m: number;
  moving_time_s: number;
  timer_time_s: number;
  total_time_s: number;
  speed_avg_ms: number | null;
  hr_avg: number | null;
  power_avg: number | null;
  elevation_gain_m: number | null;
  tss: number | null;
  summary: WorkoutSummary;
  device_summary: Record<string, number | string | number[]>;
  bounds: WorkoutDetail['bounds'];
  share_id: string | null;
  file_key: string;
  idempotency_hash?: string | null;
  zones?: ZoneCache | null;
  timer: TimerIntervals | null;
  sessions: SessionAnalysis[];
  damage: Damage | null;
  file_format: WorkoutDetail['file_format'];
  ftp: number | null;
  ftp_source: 'file' | 'settings' | null;
  max_hr: number | null;
  max_hr_source: 'file' | 'settings' | null;
  share_heart_rate: boolean | null;
  share_power: boolean | null;
  notes: string;
  laps: readonly ActivityLap[] | null;
  /** The queued import that made it (none for rides stored before imports were queued). */
  import_id?: string | null;
  /** The rider's corrections (`revise.ts`) and the file's leg the ride is. */
  leg: number;
  legs: number;
  crop: { start_s: number; end_s: number } | null;
  keep_removed: boolean;
  exclude_from_bests: boolean;
  time_shift_s: number;
  ftp_choice: 'file' | null;
  date_warning: 'future' | 'before_1990' | null;
  gear: string | null;
  file_ftp: number | null;
  file_sha256: string | null;
  /** The version of the analysis its figures come from (`rides/store.ts`). */
  analysed_with: number;
}

export const LIST_COLUMNS =
  'id, name, sport_type, start_time, indoor, distance_m, moving_time_s, timer_time_s, total_time_s, speed_avg_ms, hr_avg, power_avg, elevation_gain_m, tss, share_id';

export const nullable = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? null : value;

export function listItem(row: WorkoutRow): WorkoutListItem {
  return {
    id: row.id,
    name: row.name,
    sport_type: row.sport_type,
    start_time: new Date(row.start_time).toISOString(),
    indoor: row.indoor,
    // No average speed and no distance: nothing in the file measured distance ("—", not 0).
    distance_m: row.speed_avg_ms === null && row.distance_m === 0 ? null : row.distance_m,
    moving_time_s: row.moving_time_s,
    timer_time_s: row.timer_time_s,
    total_time_s: row.total_time_s,
    speed_avg_ms: row.speed_avg_ms,
    hr_avg: row.hr_avg,
    power_avg: row.power_avg,
    elevation_gain_m: row.elevation_gain_m,
    tss: row.tss,
    shared: row.share_id !== null,
  };
}

export async function ownWorkout(
  services: Services,
  userId: number | undefined,
  id: number,
): Promise<WorkoutRow> {
  const [row] = await services.db.query<WorkoutRow>(
    'SELECT * FROM workouts WHERE id = $1 AND user_id = $2',
    [id, userId],
  );
  // Another user's workout is "not found": ids of others are not confirmed to exist.
  if (!row) throw notFound('Workout');
  return row;
}

/** What the activity import takes, by file name (the content decides the format). */
export const ACTIVITY_EXTENSIONS = ['.fit', '.tcx', '.gpx', '.fit.gz', '.tcx.gz', '.gpx.gz'];

/** The list's and the totals' WHERE clause: the rider's workouts by sport and UTC dates. */
export function workoutFilter(
  userId: number,
  query: {
    sport_type?: number | undefined;
    from?: string | undefined;
    to?: string | undefined;
    shared?: 'true' | 'false' | undefined;
  },
) {
  const where = ['user_id = $1'];
  const params: unknown[] = [userId];
  if (query.shared !== undefined)
    where.push(query.shared === 'true' ? 'share_id IS NOT NULL' : 'share_id IS NULL');
  if (query.sport_type !== undefined) {
    params.push(query.sport_type);
    where.push(`sport_type = $${params.length}`);
  }
  if (query.from) {
    params.push(new Date(`${query.from}T00:00:00Z`));
    where.push(`start_time >= $${params.length}`);
  }
  if (query.to) {
    params.push(new Date(`${query.to}T00:00:00Z`));
    where.push(`start_time < $${params.length}`);
  }
  return { filter: where.join(' AND '), params };
}
