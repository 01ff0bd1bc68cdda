// A rider's corrections of a ride: keep what the cleaning removed, crop its start or end,
// leave it out of bests and training, shift its clock, choose the file's FTP, change its
// sport. Each is a setting on the row; the ride is analysed again from its original file
// (kept as it was) with its settings, and its row, streams, curves, facts, day totals, bests
// and best curves are rewritten in one transaction. No HTTP here. Over 300 lines: the
// background re-analysis of older rides (and its claims) reuses that one rewrite.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@xoss/api-contract';
import { formatDuration } from '@xoss/data-fields';
import { ApiError, notFound } from '../http/envelope.ts';
import type { Services } from '../services.ts';
import { storeFacts } from '../analysis/analysisStore.ts';
import { precomputeAnalysis } from '../analysis/precompute.ts';
import { AnalysisFailed } from '../imports/pool.ts';
import { lockRider } from '../training/days.ts';
import { forgetPreview } from '../share/previewCache.ts';
import {
  COUNTED_COLUMNS,
  countRide,
  rebuildCurvesLeft,
  uncountRide,
  type Counted,
} from './counting.ts';
import { ANALYSIS_VERSION, figureColumns, renamedForDate } from './store.ts';
import { forgetStreams, packCurve, packStreams } from './streams.ts';
import { settingsOf } from './replies.ts';
import type { WorkoutRow } from './rows.ts';

/** What a rider has set on a ride (the row's columns of the same names). */
export interface RideSettings {
  readonly sport_type: number;
  readonly leg: number;
  /** Seconds of the uncropped ride kept, or null for the whole ride. */
  readonly crop: { readonly start_s: number; readonly end_s: number } | null;
  readonly keep_removed: boolean;
  readonly exclude_from_bests: boolean;
  readonly time_shift_s: number;
  readonly ftp_choice: 'file' | null;
}

const SETTINGS: readonly (keyof RideSettings)[] = [
  'sport_type',
  'leg',
  'crop',
  'keep_removed',
  'exclude_from_bests',
  'time_shift_s',
  'ftp_choice',
];

const settingsOfRow = (row: WorkoutRow): RideSettings => ({
  sport_type: row.sport_type,
  leg: row.leg ?? 0,
  crop: row.crop ?? null,
  keep_removed: row.keep_removed ?? false,
  exclude_from_bests: row.exclude_from_bests ?? false,
  time_shift_s: row.time_shift_s ?? 0,
  ftp_choice: row.ftp_choice ?? null,
});

const sameSettings = (a: RideSettings, b: RideSettings) =>
  SETTINGS.every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));

/** The longest a rider may shift a ride's clock: back from 1903 or forward from 1970. */
const MAX_SHIFT_S = 200 * 365.25 * 86_400;

/**
 * Rewrites a ride with `settings`: analysed again from its file (in this process's worker
 * threads, in the rider's turn) and stored in one transaction, taking its old figures out of
 * its day, bests and best curves and putting the new ones in. A concurrent correction of the
 * same ride makes this one start again from what that one stored.
 */
export async function reviseWorkout(
  services: Services,
  row: WorkoutRow,
  change: Partial<RideSettings>,
  signal?: AbortSignal,
): Promise<void> {
  const settings: RideSettings = { ...settingsOfRow(row), ...change };
  // Nothing to change, and analysed by today's rules: nothing to do (a repeated request).
  if (sameSettings(settings, settingsOfRow(row)) && (row.analysed_with ?? 0) >= ANALYSIS_VERSION)
    return;
  if (Math.abs(settings.time_shift_s) > MAX_SHIFT_S)
    throw new ApiError(ErrorCode.ValidationFailed, 'A ride can be moved by at most 200 years', {
      errors: [{ path: 'start_time', message: 'workouts.shiftTooFar' }],
    });
  const bytes = await services.blobs.get(row.file_key);
  const unit = (await settingsOf(services, row.user_id)).distance_unit;
  let result;
  try {
    result = await services.pool.analyse(
      bytes,
      {
        distanceUnit: unit,
        maxBytes: services.config.maxFitBytes,
        maxSamples: services.config.importMaxSamples,
        maxDurationS: services.config.importMaxDurationS,
        leg: settings.leg,
        keepRemoved: settings.keep_removed,
        timeShiftS: settings.time_shift_s,
        ...(settings.crop
          ? { crop: { startS: settings.crop.start_s, endS: settings.crop.end_s } }
          : {}),
      },
      { owner: row.user_id, ...(signal ? { signal } : {}) },
    );
  } catch (error) {
    if (error instanceof AnalysisFailed)
      throw new ApiError(ErrorCode.Unavailable, 'The ride could not be analysed just now', {
        headers: { 'retry-after': '5' },
      });
    throw error;
  }
  if (!result.ok || (result.value.samples ?? result.value.streams.time?.length ?? 0) < 2)
    throw new ApiError(ErrorCode.ValidationFailed, 'Nothing of the ride would be left', {
      errors: [{ path: 'crop', message: 'workouts.cropEmpty' }],
    });
  const analysis = result.value;
  // A crop reaches no further than the recording: what it keeps is what it says.
  const recordingS = analysis.summary.recordingS;
  if (settings.crop && recordingS !== undefined && settings.crop.end_s > recordingS + 1)
    throw new ApiError(
      ErrorCode.ValidationFailed,
      `The crop ends after the recording, which lasts ${formatDuration(recordingS)}`,
      { errors: [{ path: 'crop.end_s', message: 'workouts.cropAfterEnd' }] },
    );
  // Given up meanwhile (the request's deadline, the client gone): nothing is written.
  signal?.throwIfAborted();
  const packed = analysis.packed?.byteLength ? analysis.packed : packStreams(analysis.streams);
  const samples = analysis.samples ?? analysis.streams.time!.length;
  const streamsKey = `streams/${randomUUID()}.bin`;
  await services.blobs.put(streamsKey, packed);
  let oldStreams: string | null = null;
  try {
    const outcome = await services.db.transaction(async (tx) => {
      await lockRider(tx, row.user_id);
      const [current] = await tx.query<WorkoutRow & Counted>(
        'SELECT * FROM workouts WHERE id = $1 FOR UPDATE',
        [row.id],
      );
      if (!current) throw notFound('Workout');
      // Another correction landed since this one read the ride: redo from what it stored.
      if (!sameSettings(settingsOfRow(current), settingsOfRow(row))) return 'stale';
      // Analysed again meanwhile by another process (`reanalyseOlder`): nothing to do.
      if (Object.keys(change).length === 0 && current.analysed_with >= ANALYSIS_VERSION)
        return 'done';
      // The thresholds as they are now, with the rider locked (a change of FTP waits).
      const figures = await figureColumns(
        tx,
        row.user_id,
        analysis,
        { ftpChoice: settings.ftp_choice, sportType: settings.sport_type },
        services.now(),
      );
      const columns: Record<string, unknown> = {
        ...figures,
        ...settings,
        crop: settings.crop ? JSON.stringify(settings.crop) : null,
        // Its bests are stored below: none is left for the backfill of older rides.
        bests_pending: false,
      };
      await uncountRide(tx, current);
      // Moved to another day, a ride still named by its old date is named by its new one.
      const renamed = await renamedForDate(
        current.name,
        new Date(current.start_time),
        new Date(analysis.startTime * 1000),
      );
      if (renamed) columns.name = renamed;
      const names = Object.keys(columns);
      const [after] = await tx.query<Counted>(
        `UPDATE workouts SET ${names.map((name, i) => `${name} = $${i + 2}`).join(', ')}
          WHERE id = $1 RETURNING ${COUNTED_COLUMNS}`,
        [row.id, ...Object.values(columns)],
      );
      const [streams] = await tx.query<{ blob_key: string }>(
        'SELECT blob_key FROM workout_streams WHERE workout_id = $1',
        [row.id],
      );
      oldStreams = streams?.blob_key ?? null;
      await tx.query(
        `INSERT INTO workout_streams (workout_id, length, blob_key, bytes) VALUES ($1, $2, $3, $4)
         ON CONFLICT (workout_id) DO UPDATE SET length = EXCLUDED.length,
           blob_key = EXCLUDED.blob_key, bytes = EXCLUDED.bytes`,
        [row.id, samples, streamsKey, packed.length],
      );
      await tx.query(
        `INSERT INTO workout_curves (workout_id, power, speed) VALUES ($1, $2, $3)
         ON CONFLICT (workout_id) DO UPDATE SET power = EXCLUDED.power, speed = EXCLUDED.speed,
           heart_rate = NULL, pace = NULL, extra_at = NULL`,
        [row.id, packCurve(analysis.powerCurve), packCurve(analysis.speedCurve)],
      );
      // Its facts and their cached analysis are of the ride as it was.
      await tx.query('DELETE FROM workout_facts WHERE workout_id = $1', [row.id]);
      await storeFacts(tx, row.id, row.user_id, new Date(after!.start_time), analysis.facts);
      await countRide(tx, after!, analysis, { batch: true });
      await rebuildCurvesLeft(tx, current);
      return 'written';
    });
    if (outcome === 'done') await services.blobs.delete(streamsKey).catch(() => undefined);
    if (outcome === 'stale') {
      await services.blobs.delete(streamsKey).catch(() => undefined);
      const [fresh] = await services.db.query<WorkoutRow>('SELECT * FROM workouts WHERE id = $1', [
        row.id,
      ]);
      if (!fresh) throw notFound('Workout');
      return reviseWorkout(services, fresh, change, signal);
    }
  } catch (error) {
    await services.blobs.delete(streamsKey).catch(() => undefined);
    throw error;
  }
  forgetStreams(services.db, row.id);
  forgetPreview(row.share_id);
  // Its analysis, W' balance and curves are computed again in the background, as after an
  // import, so the page's first call after a correction reads them kept (not for the rides
  // of a history analysed again by `reanalyseOlder`: each is computed when first asked).
  if (Object.keys(change).length > 0) precomputeAnalysis(services, row.id);
  if (oldStreams) await services.blobs.delete(oldStreams).catch(() => undefined);
}

/**
 * How long a process's claim on a ride of `reanalyseOlder` keeps the other processes off
 * it: far longer than one analysis (`IMPORT_TIMEOUT_MS`, a minute, plus its wait for the
 * rider's turn of the workers), so a live process keeps its ride; a process that died
 * mid-way leaves it to the next pass after this. A claim outlived by a slow analysis costs
 * at most a second analysis: the transaction that stores it skips a ride done meanwhile.
 */
export const REANALYSIS_CLAIM_MS = 10 * 60_000;

/**
 * Takes the ride for this pass when it is still to be analysed again and no other process
 * holds it (its claim absent or expired): one conditional UPDATE, so of two processes
 * asking at once exactly one gets it. Returns the ride as it is now, or undefined.
 */
async function claimRide(services: Services, id: number): Promise<WorkoutRow | undefined> {
  const now = services.now();
  const [ride] = await services.db.query<WorkoutRow>(
    `UPDATE workouts SET reanalysis_claimed_at = $3::timestamptz
      WHERE id = $1 AND analysed_with < $2
        AND (reanalysis_claimed_at IS NULL OR reanalysis_claimed_at <= $4::timestamptz)
      RETURNING *`,
    [
      id,
      ANALYSIS_VERSION,
      new Date(now).toISOString(),
      new Date(now - REANALYSIS_CLAIM_MS).toISOString(),
    ],
  );
  return ride;
}

/** Gives a claimed ride back (this pass stops before it), so the next pass need not wait. */
async function releaseRide(services: Services, id: number): Promise<void> {
  await services.db
    .query('UPDATE workouts SET reanalysis_claimed_at = NULL WHERE id = $1', [id])
    .catch(() => undefined);
}

/**
 * Analyses again, from their kept files, the rides whose figures an older analysis made
 * (`analysed_with` below `ANALYSIS_VERSION`: rides stored before the cleaning, the human
 * limits and the legs), a ride at a time in its rider's turn of the import workers, with
 * each ride's own corrections; returns how many it did. Every API process runs it at start:
 * each claims a ride before analysing it (`claimRide`), and passes over those another
 * process holds, so no ride is analysed twice. A ride whose file can no longer be analysed
 * keeps its figures and is marked done, with a log line, so no start tries it again.
 */
export async function reanalyseOlder(
  services: Services,
  signal: AbortSignal,
  log: (message: string, id: number, error: unknown) => void = () => {},
): Promise<number> {
  let done = 0;
  let after = 0;
  while (!signal.aborted) {
    const rides = await services.db.query<{ id: number }>(
      `SELECT id FROM workouts WHERE analysed_with < $1 AND id > $2
         AND (reanalysis_claimed_at IS NULL OR reanalysis_claimed_at <= $3::timestamptz)
       ORDER BY id LIMIT 20`,
      [ANALYSIS_VERSION, after, new Date(services.now() - REANALYSIS_CLAIM_MS).toISOString()],
    );
    if (rides.length === 0) return done;
    for (const { id } of rides) {
      if (signal.aborted) break;
      after = id;
      // Done or taken by another process since the SELECT: its analysis is not paid twice.
      const ride = await claimRide(services, id);
      if (!ride) continue;
      try {
        await reviseWorkout(services, ride, {}, signal);
        done++;
      } catch (error) {
        if (signal.aborted) {
          await releaseRide(services, id);
          break;
        }
        // A busy or crashed worker, a store or database hiccup: tried again at the next start.
        if (!refusedForGood(error)) {
          log('analysing earlier rides again stopped; the next start goes on', id, error);
          await releaseRide(services, id);
          return done;
        }
        log('ride kept its earlier figures: it could not be analysed again', id, error);
        await services.db.query('UPDATE workouts SET analysed_with = $1 WHERE id = $2', [
          ANALYSIS_VERSION,
          id,
        ]);
      }
    }
  }
  return done;
}

/** Whether a ride can never be analysed again: its file gone or refused, not a passing failure. */
function refusedForGood(error: unknown): boolean {
  if (error instanceof ApiError)
    return error.code === ErrorCode.ValidationFailed || error.code === ErrorCode.UnsupportedFile;
  const code = (error as { code?: unknown }).code;
  return code === 'ENOENT' || code === 'NoSuchKey';
}
