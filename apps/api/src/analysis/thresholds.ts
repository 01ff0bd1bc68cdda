import {
  heartRateStressScore,
  paceStressScore,
  withFtp,
  type WorkoutSummary,
} from '@xoss/workout-stats';
import type { Queryable } from '../platform/db/db.ts';
import { addToDay, dayOf, lockRider } from '../training/days.ts';
import { counts } from '../rides/counting.ts';
import { RUN_SPORTS, isRun } from './bestCurves.ts';

/** The FTP and max heart rate a ride is measured against, and where each comes from. */
export interface RideThresholds {
  readonly ftp: number | null;
  readonly ftpSource: 'file' | 'settings' | null;
  readonly maxHr: number | null;
  readonly maxHrSource: 'file' | 'settings' | null;
}

interface HistoryRow {
  effective_from: string | Date;
  ftp: number | null;
  max_hr: number | null;
}

/** Where a rider's first setting starts: before any ride. */
export const FIRST_DATE = '1970-01-01';

/**
 * The TSS a ride shows: the device's own when it stored one and the ride is measured against
 * the device's FTP (the file's) without glitches (`usesDevicePower`); ours, from the FTP the
 * ride uses, otherwise (the device's figure was computed with an FTP the rider has
 * overruled, or over samples no rider produced).
 */
export function shownTss(
  summary: WorkoutSummary,
  device: Record<string, unknown>,
  ftpSource: RideThresholds['ftpSource'] = 'file',
): number | null {
  const stored = device.trainingStressScore;
  if (
    usesDevicePower(summary, ftpSource, device) &&
    typeof stored === 'number' &&
    Number.isFinite(stored)
  )
    return stored;
  return summary.trainingStressScore ?? null;
}

/**
 * Whether the device's own NP, IF and TSS stand for the ride: only when the ride is measured
 * against the device's FTP, and unless the device summed in glitches the cleaning took out
 * (power samples removed, and the device's NP over ours by more than 2 %: a 21,733 W sample
 * gave one a TSS of 931; three sprint spikes in an hour move NP by 1 %).
 */
export function usesDevicePower(
  summary: WorkoutSummary,
  ftpSource: RideThresholds['ftpSource'] | 'estimate',
  device: Record<string, unknown>,
): boolean {
  if (ftpSource === 'settings') return false;
  // Scored by pace or heart rate (a run, a ride without power): ours, never the device's.
  const method = (summary as { tssMethod?: string }).tssMethod;
  if (method === 'pace' || method === 'heartRate') return false;
  const removed = (summary as { cleaning?: { power?: number } }).cleaning?.power ?? 0;
  const deviceNp = device.normalizedPower;
  const ours = summary.normalizedPower;
  const glitched =
    removed > 0 &&
    typeof deviceNp === 'number' &&
    (ours === undefined || !Number.isFinite(ours) || deviceNp > ours * 1.02);
  return !glitched;
}

/** A stored summary: workout-stats' figures and the import's additions (`analyse.ts`). */
type StoredSummary = WorkoutSummary & {
  readonly heartRateSeconds?: Readonly<Record<string, number>>;
  /** Normalized graded speed over the timer (m/s), kept to score runs by pace. */
  readonly gradedSpeedMs?: number;
  readonly tssMethod?: 'power' | 'heartRate' | 'pace';
};

/** What scores a ride beyond its thresholds: its sport, and the rider's threshold pace. */
export interface Scoring {
  readonly sportType: number;
  readonly thresholdPaceSPerKm: number | null;
}

/**
 * A ride's summary measured against its thresholds: IF and TSS from its power and FTP; for
 * a ride without power (or without an FTP), its heart-rate stress score from the timer
 * seconds at each heart rate and the max heart rate it uses (workout-stats'
 * `heartRateStressScore`, intervals.icu's HRSS: an hour at threshold = 100). A run is never
 * scored against a cycling FTP (a running power meter's watts are not a rider's): with the
 * rider's threshold pace, by pace (TrainingPeaks' rTSS, workout-stats' `paceStressScore`),
 * else by heart rate, when its readings cover half its timer time (`HEART_RATE_COVERAGE`).
 * `tssMethod` says which.
 */
export function measuredSummary(
  summary: StoredSummary,
  thresholds: RideThresholds,
  scoring: Scoring = { sportType: 2, thresholdPaceSPerKm: null },
): StoredSummary {
  const { tssMethod: _method, ...plain } = summary;
  const running = isRun(scoring.sportType);
  const withPower: StoredSummary = withFtp(
    plain,
    running ? undefined : (thresholds.ftp ?? undefined),
  );
  if (withPower.trainingStressScore !== undefined) return { ...withPower, tssMethod: 'power' };
  const pace = scoring.thresholdPaceSPerKm;
  if (running && pace && summary.gradedSpeedMs !== undefined) {
    const score = paceStressScore(summary.timerTimeS, summary.gradedSpeedMs, 1000 / pace);
    if (score !== undefined) return { ...withPower, trainingStressScore: score, tssMethod: 'pace' };
  }
  const table = summary.heartRateSeconds;
  if (!table || !thresholds.maxHr) return withPower;
  const seconds = new Float64Array(251);
  let read = 0;
  for (const [bpm, count] of Object.entries(table))
    if (Number(bpm) >= 0 && Number(bpm) <= 250) {
      seconds[Number(bpm)] = count;
      if (Number(bpm) > 0) read += count;
    }
  // A load from heart rate only where the heart rate covers the activity: 8 readings in a
  // 90-minute swim scored 0.2, as if the rest had been rest.
  if (!(read >= HEART_RATE_COVERAGE * (summary.timerTimeS ?? 0))) return withPower;
  const score = heartRateStressScore(seconds, { maxHr: thresholds.maxHr });
  return score === undefined
    ? withPower
    : { ...withPower, trainingStressScore: score, tssMethod: 'heartRate' };
}

/**
 * Share of a ride's timer time its heart rate must cover (seconds with a reading) for a
 * load to be scored from it.
 */
export const HEART_RATE_COVERAGE = 0.5;

/** A rider's threshold history, oldest first. */
export async function thresholdHistory(db: Queryable, userId: number): Promise<HistoryRow[]> {
  return db.query<HistoryRow>(
    `SELECT to_char(effective_from, 'YYYY-MM-DD') AS effective_from, ftp, max_hr
       FROM athlete_thresholds WHERE user_id = $1 ORDER BY effective_from`,
    [userId],
  );
}

/**
 * The thresholds of a ride on `date`: the rider's setting in effect that day (the latest
 * change on or before it; rides older than every change use the first), which wins over
 * what the file stores (the device's settings, often stale); the file's only where the
 * rider has set none, or where the rider chose the file's FTP for this one ride.
 */
export function thresholdsOn(
  history: readonly HistoryRow[],
  date: Date,
  file: { ftp: number | null; maxHr: number | null },
  ftpChoice: 'file' | null = null,
): RideThresholds {
  const day = date.toISOString().slice(0, 10);
  let entry = history[0];
  for (const row of history) if (String(row.effective_from) <= day) entry = row;
  // The rider chose the file's FTP for this ride (`ftp_choice`), when the file has one.
  const riderFtp = ftpChoice === 'file' && file.ftp !== null ? null : (entry?.ftp ?? null);
  const riderMaxHr = entry?.max_hr ?? null;
  const ftp = riderFtp ?? file.ftp;
  const maxHr = riderMaxHr ?? file.maxHr;
  return {
    ftp,
    ftpSource: riderFtp !== null ? 'settings' : ftp !== null ? 'file' : null,
    maxHr,
    maxHrSource: riderMaxHr !== null ? 'settings' : maxHr !== null ? 'file' : null,
  };
}

/**
 * Records a change of FTP or max heart rate from `from` (a date) on, and recomputes the IF,
 * TSS and zones of the rider's rides from that date (the rider's thresholds win over the
 * files').
 */
export async function changeThresholds(
  db: Queryable,
  userId: number,
  from: string,
  values: { ftp: number | null; maxHr: number | null },
): Promise<number> {
  // Before its rides are read: their TSS changes go into the daily totals below.
  await lockRider(db, userId);
  // The first setting a rider makes holds for every ride before it too; a later change holds
  // from its date on, replacing any change after that date.
  const [{ count } = { count: 0 }] = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM athlete_thresholds WHERE user_id = $1',
    [userId],
  );
  const since = count === 0 ? FIRST_DATE : from;
  await db.query(
    'DELETE FROM athlete_thresholds WHERE user_id = $1 AND effective_from > $2::date',
    [userId, since],
  );
  await db.query(
    `INSERT INTO athlete_thresholds (user_id, effective_from, ftp, max_hr) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, effective_from) DO UPDATE SET ftp = EXCLUDED.ftp, max_hr = EXCLUDED.max_hr`,
    [userId, since, values.ftp, values.maxHr],
  );
  return rescoreRides(db, userId, since);
}

/**
 * Measures again the rider's rides from `since` (a date) against their thresholds and the
 * rider's threshold pace (`runsOnly`: the runs alone, after a change of pace), in the
 * caller's transaction with the rider locked: IF, TSS and zones, and each day's TSS.
 */
export async function rescoreRides(
  db: Queryable,
  userId: number,
  since: string,
  options: { readonly runsOnly?: boolean } = {},
): Promise<number> {
  await lockRider(db, userId);
  const history = await thresholdHistory(db, userId);
  const pace = await thresholdPaceOf(db, userId);
  const rides = await db.query<{
    id: number;
    start_time: Date;
    summary: WorkoutSummary;
    file_ftp: number | null;
    file_max_hr: number | null;
    device_summary: Record<string, unknown>;
    tss: number | null;
    ftp_choice: 'file' | null;
    sport_type: number;
    exclude_from_bests: boolean;
    date_warning: string | null;
  }>(
    `SELECT id, start_time, summary, file_ftp, file_max_hr, device_summary, tss, ftp_choice, sport_type,
            exclude_from_bests, date_warning FROM workouts
      WHERE user_id = $1 AND start_time >= $2::date AND ($3::int[] IS NULL OR sport_type = ANY($3))`,
    [userId, since, options.runsOnly ? [...RUN_SPORTS] : null],
  );
  // How much each day's TSS changes: the daily totals and the fitness chart follow.
  const tssChange = new Map<string, number>();
  for (const ride of rides) {
    const thresholds = thresholdsOn(
      history,
      new Date(ride.start_time),
      { ftp: ride.file_ftp, maxHr: ride.file_max_hr },
      ride.ftp_choice,
    );
    const summary = measuredSummary(ride.summary, thresholds, {
      sportType: ride.sport_type,
      thresholdPaceSPerKm: pace,
    });
    const tss = shownTss(summary, ride.device_summary, thresholds.ftpSource);
    await db.query(
      `UPDATE workouts SET ftp = $1, ftp_source = $2, max_hr = $3, max_hr_source = $4,
              summary = $5, tss = $6, zones = NULL WHERE id = $7`,
      [
        thresholds.ftp,
        thresholds.ftpSource,
        thresholds.maxHr,
        thresholds.maxHrSource,
        JSON.stringify(summary),
        tss,
        ride.id,
      ],
    );
    // A ride that counts nowhere (left out, a doubtful date) changes no day.
    const change = counts(ride) ? (tss ?? 0) - (ride.tss ?? 0) : 0;
    const day = dayOf(new Date(ride.start_time));
    if (change !== 0) tssChange.set(day, (tssChange.get(day) ?? 0) + change);
  }
  for (const [day, tss] of [...tssChange].sort(([a], [b]) => a.localeCompare(b)))
    await addToDay(db, userId, day, {
      tss,
      movingTimeS: 0,
      distanceM: 0,
      elevationGainM: 0,
      rides: 0,
    });
  return rides.length;
}

/** The rider's running threshold pace (s/km), or null. */
export async function thresholdPaceOf(db: Queryable, userId: number): Promise<number | null> {
  const [row] = await db.query<{ pace: number | null }>(
    'SELECT threshold_pace_s_per_km AS pace FROM users WHERE id = $1',
    [userId],
  );
  return row?.pace ?? null;
}
