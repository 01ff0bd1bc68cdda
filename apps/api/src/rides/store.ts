// Storing an analysed ride: the import's transaction (row, streams, curves, best curves,
// training day, file) with its duplicate and race rules, called by the import job. No HTTP.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@xoss/api-contract';
import { sha256 } from '../platform/digest.ts';
import { ApiError } from '../http/envelope.ts';
import type { Queryable } from '../platform/db/db.ts';
import type { Services } from '../services.ts';
import {
  MAX_ACTIVITIES_PER_FILE,
  tooManyActivities,
  type Analysis,
  type AnalysisResult,
} from '../analysis/analyse.ts';
import { hasRecordedData } from './recorded.ts';
import { storeFacts } from '../analysis/analysisStore.ts';
import { AnalysisFailed } from '../imports/pool.ts';
import {
  claimImportForStore,
  markImportDone,
  type ImportRequest,
  type ImportRow,
} from '../imports/importJobs.ts';
import { packCurve, packStreams } from './streams.ts';
import {
  measuredSummary,
  shownTss,
  thresholdHistory,
  thresholdPaceOf,
  thresholdsOn,
} from '../analysis/thresholds.ts';
import { COUNTED_COLUMNS, countRide, dateWarningOf, type Counted } from './counting.ts';
import { textLanguages, translatorFor } from '@xoss/i18n';
import { assertStreamsFit } from '../platform/quota.ts';
import { assertSameUpload } from '../routes/idempotency.ts';
import { nullable } from './rows.ts';
import { summaryReply, settingsOf } from './replies.ts';
import { refuseDuplicate, refuseOverlap } from './duplicates.ts';

/** What a ride is called by default, by the file's sport (FIT sport numbers). */
const ACTIVITY_OF_SPORT: Readonly<Record<number, string>> = {
  1: 'run',
  // A multisport file's T1 and T2 (each a leg of its own).
  3: 'transition',
  5: 'swim',
  11: 'walk',
};

/**
 * The name of a ride imported without one: its activity (ride, indoor ride, run, walk,
 * swim, a multisport file's transition; a file of another or no sport is a ride, as our devices record) and its UTC date,
 * in the rider's language (the upload's `Accept-Language`; English without one).
 */
async function defaultRideName(
  sportType: number,
  indoor: boolean,
  start: Date,
  language: string | undefined,
): Promise<string> {
  const activity = ACTIVITY_OF_SPORT[sportType] ?? (indoor ? 'indoorRide' : 'ride');
  const translator = await translatorFor(language ?? 'en-US');
  return translator.t('workouts.defaultName', {
    activity,
    date: start.toISOString().slice(0, 10),
  });
}

/**
 * The name a ride moved from `before` to `after` takes when it still bears the automatic name
 * of its old date, in whichever of the nine languages and activities it was given ("Ride
 * 2027-06-17", moved back a year, becomes "Ride 2026-06-17"); undefined when the rider named
 * it, or the date is the same.
 */
export async function renamedForDate(
  name: string,
  before: Date,
  after: Date,
): Promise<string | undefined> {
  const day = (date: Date) => date.toISOString().slice(0, 10);
  if (day(before) === day(after) || !name.includes(day(before))) return undefined;
  for (const language of textLanguages) {
    const translator = await translatorFor(language);
    for (const activity of ['ride', 'indoorRide', 'run', 'walk', 'swim', 'transition', 'other']) {
      const named = (date: Date) =>
        translator.t('workouts.defaultName', { activity, date: day(date) });
      if (named(before) === name) return named(after);
    }
  }
  return undefined;
}

/**
 * The version of the analysis (`analyse.ts`) a ride's figures come from; `reanalyseOlder`
 * redoes older ones. 1: the cleaning, the human limits and the legs; 2: mean-max curves and
 * bests on the ride's clock, a stop at 0 W (`clockSeries`); 3: the device's distance, where
 * it recorded one, in the ride's columns (the list, the day's totals).
 */
export const ANALYSIS_VERSION = 3;

/**
 * The columns of a ride that its analysis and thresholds decide: what an import writes and a
 * revision (`revise.ts`) rewrites. `now` dates the check of its start (`dateWarningOf`).
 */
export async function figureColumns(
  db: Queryable,
  userId: number,
  analysis: Analysis,
  ride: { readonly ftpChoice: 'file' | null; readonly sportType: number },
  now: number,
): Promise<Record<string, unknown>> {
  const start = new Date(analysis.startTime * 1000);
  const thresholds = thresholdsOn(
    await thresholdHistory(db, userId),
    start,
    { ftp: analysis.fileFtp, maxHr: analysis.fileMaxHr },
    ride.ftpChoice,
  );
  const summary = measuredSummary(analysis.summary, thresholds, {
    sportType: ride.sportType,
    thresholdPaceSPerKm: await thresholdPaceOf(db, userId),
  });
  const device = analysis.deviceSummary as Record<string, unknown>;
  const shown = summaryReply(summary, device, thresholds.ftpSource);
  return {
    start_time: start,
    indoor: analysis.indoor,
    distance_m: shown.distance_m ?? 0,
    moving_time_s: summary.movingTimeS,
    total_time_s: summary.totalTimeS,
    speed_avg_ms: shown.speed_avg_ms,
    hr_avg: nullable(summary.avgHeartRate),
    power_avg: nullable(summary.avgPower),
    elevation_gain_m: shown.elevation_gain_m,
    tss: shownTss(summary, device, thresholds.ftpSource),
    summary: JSON.stringify(summary),
    device_summary: JSON.stringify(analysis.deviceSummary),
    bounds: analysis.bounds ? JSON.stringify(analysis.bounds) : null,
    timer_time_s: summary.timerTimeS,
    timer: JSON.stringify(analysis.timer),
    sessions: JSON.stringify(analysis.sessions),
    damage: analysis.damage ? JSON.stringify(analysis.damage) : null,
    file_ftp: analysis.fileFtp,
    file_max_hr: analysis.fileMaxHr,
    ftp: thresholds.ftp,
    ftp_source: thresholds.ftpSource,
    max_hr: thresholds.maxHr,
    max_hr_source: thresholds.maxHrSource,
    laps: JSON.stringify(analysis.laps),
    date_warning: dateWarningOf(start, now),
    analysed_with: ANALYSIS_VERSION,
    zones: null,
  };
}

/** `(a, b) VALUES ($1, $2)` of an INSERT of `columns`. */
function insertOf(columns: Record<string, unknown>): { sql: string; values: unknown[] } {
  const names = Object.keys(columns);
  return {
    sql: `(${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
    values: Object.values(columns),
  };
}

/** Stores one analysed workout: file, row, streams and curves together or not at all. */
async function storeWorkout(
  services: Services,
  userId: number,
  bytes: Uint8Array,
  analysis: Analysis,
  options: {
    name?: string;
    /** The rider's language (the upload's `Accept-Language`), for the default name. */
    language?: string;
    /** Import even when it starts when one of the rider's rides does. */
    overlap?: 'keep';
    idempotencyKey?: string;
    idempotencyHash?: string;
    fileSha256?: string;
    sportType?: number;
    notes?: string;
    gear?: string;
    leg?: number;
    batch?: boolean;
    /** The queued import whose file this is: already stored, and marked done with the row. */
    importRow?: ImportRow;
  } = {},
): Promise<number> {
  const format = `${analysis.format}${analysis.compressed ? '.gz' : ''}` as const;
  const { importRow } = options;
  const fileKey = importRow?.file_key ?? `workouts/${randomUUID()}.${format}`;
  const start = new Date(analysis.startTime * 1000);
  // An archive's activities.csv may name the sport the file does not.
  const sportType = options.sportType ?? analysis.sportType;
  const figures = await figureColumns(
    services.db,
    userId,
    analysis,
    { ftpChoice: null, sportType },
    services.now(),
  );
  if (!importRow) await services.blobs.put(fileKey, bytes);
  // The streams go to the file store before the transaction: tens of MB written inside the
  // database held its one connection (the embedded one runs a statement at a time) for
  // seconds, and every other rider's request with it.
  const packed = analysis.packed?.byteLength ? analysis.packed : packStreams(analysis.streams);
  if (options.overlap !== 'keep') await refuseOverlap(services, userId, start, packed);
  const samples = analysis.samples ?? analysis.streams.time!.length;
  const streamsKey = `streams/${randomUUID()}.bin`;
  try {
    await services.blobs.put(streamsKey, packed);
    const name =
      options.name ?? (await defaultRideName(sportType, analysis.indoor, start, options.language));
    const insert = insertOf({
      user_id: userId,
      name,
      sport_type: sportType,
      ...figures,
      file_key: fileKey,
      file_bytes: bytes.length,
      file_format: format,
      idempotency_key: options.idempotencyKey ?? null,
      idempotency_hash: options.idempotencyHash ?? null,
      file_sha256: options.fileSha256 ?? null,
      import_id: importRow?.id ?? null,
      leg: options.leg ?? 0,
      legs: analysis.legs ?? 1,
      notes: options.notes ?? '',
      gear: options.gear ?? null,
    });
    return await services.db.transaction(async (tx) => {
      // Given up meanwhile (its request's deadline): nothing is stored. The row lock also
      // makes a second attempt at the same import wait for, then see, the first one's end.
      if (importRow) await claimImportForStore(tx, importRow.id);
      // The upload's reservation counts its file; its streams must fit beside it.
      await assertStreamsFit(tx, userId, packed.length);
      const [row] = await tx.query<Counted>(
        `INSERT INTO workouts ${insert.sql} RETURNING ${COUNTED_COLUMNS}`,
        insert.values,
      );
      const id = row!.id;
      await tx.query(
        'INSERT INTO workout_streams (workout_id, length, blob_key, bytes) VALUES ($1, $2, $3, $4)',
        [id, samples, streamsKey, packed.length],
      );
      await tx.query('INSERT INTO workout_curves (workout_id, power, speed) VALUES ($1, $2, $3)', [
        id,
        packCurve(analysis.powerCurve),
        packCurve(analysis.speedCurve),
      ]);
      await storeFacts(tx, id, userId, start, analysis.facts);
      // Its day, training load, bests and best curves (a run makes no cycling best; a ride
      // dated in the future or before 1990 counts nowhere until its date is fixed).
      await countRide(tx, row!, analysis, { batch: options.batch });
      if (importRow) await markImportDone(tx, importRow.id, id);
      return id;
    });
  } catch (error) {
    // No row, so no file: the stored file goes too. A queued import's file stays for its
    // next attempt; the queue deletes it when the import fails for good. Its streams go.
    if (!importRow) await services.blobs.delete(fileKey).catch(() => undefined);
    await services.blobs.delete(streamsKey).catch(() => undefined);
    throw error;
  }
}

/** What the rider is told when the worker gave no result: never a bare 500. */
function analysisError(error: unknown): unknown {
  if (!(error instanceof AnalysisFailed)) return error; // the request's own deadline (503)
  switch (error.reason) {
    case 'timeout':
    case 'memory':
      // The file itself costs more than an import may: retrying will not help. 415 with the
      // reason, as for the file limits (samples, span): the portal shows 413 as the byte limit.
      return new ApiError(
        ErrorCode.UnsupportedFile,
        `This file cannot be imported: ${error.message}`,
        {
          errors: [{ path: 'file', message: `activityFiles.import.${error.reason}` }],
        },
      );
    case 'busy':
      return new ApiError(ErrorCode.Unavailable, error.message, {
        headers: { 'retry-after': '30' },
      });
    default:
      return new ApiError(
        ErrorCode.Unavailable,
        'The file could not be analysed just now; please try again',
        { headers: { 'retry-after': '5' } },
      );
  }
}

/** Whether a failed insert lost to a row with the same unique key (SQLSTATE 23505). */
const uniqueViolation = (error: unknown) => (error as { code?: unknown }).code === '23505';

/** Whether a failed insert lost to a row with the same key of `index` in particular. */
const lostUniqueRace = (error: unknown, index: string) => {
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  const where =
    typeof constraint === 'string' ? constraint : typeof message === 'string' ? message : '';
  return uniqueViolation(error) && where.includes(index);
};

/**
 * Runs one queued import (in whichever process took its job): reads its file, analyses it in
 * this process's worker threads and stores the workout, marking the import done in the same
 * transaction. A file that cannot be imported is an `ApiError` (the import fails for good);
 * a failure of ours (a crashed worker thread, the database gone) is retried by the queue.
 */
export async function runImport(
  services: Services,
  row: ImportRow,
  signal: AbortSignal,
): Promise<number> {
  const { user_id: userId, options } = row;
  const settings = await settingsOf(services, userId);
  const bytes = await services.blobs.get(row.file_key).catch((error: unknown) => {
    if ((error as { code?: string }).code === 'ENOENT' || /not found|404/i.test(String(error)))
      throw new ApiError(ErrorCode.Unavailable, 'The uploaded file is gone; please send it again');
    throw error;
  });
  let result: AnalysisResult;
  try {
    result = await services.pool.analyse(
      bytes,
      {
        distanceUnit: settings.distance_unit,
        // A .gz file may unpack to no more than an upload may be.
        maxBytes: services.config.maxFitBytes,
        maxSamples: services.config.importMaxSamples,
        maxDurationS: services.config.importMaxDurationS,
        ...(options.leg ? { leg: options.leg } : {}),
      },
      { owner: userId, signal },
    );
  } catch (error) {
    // Too costly (time, memory): for good. A crashed or busy worker thread: tried again.
    if (
      error instanceof AnalysisFailed &&
      (error.reason === 'timeout' || error.reason === 'memory')
    )
      throw analysisError(error);
    throw error;
  }
  if (!result.ok)
    throw new ApiError(
      ErrorCode.UnsupportedFile,
      `This file cannot be read: ${result.error.message}`,
      {
        errors: [{ path: 'file', message: result.error.messageId }],
      },
    );
  // Given up while the file was analysed: store nothing.
  signal.throwIfAborted();
  if (!(result.value.recorded ?? hasRecordedData(result.value)))
    throw new ApiError(
      ErrorCode.UnsupportedFile,
      'This file has no records: no time, position or sensor values to import',
      { errors: [{ path: 'file', message: 'activityFiles.fit.noRecords' }] },
    );
  await queueParts(services, row, await otherParts(row, bytes, result.value));
  try {
    return await storeWorkout(services, userId, bytes, result.value, {
      ...options,
      importRow: row,
    });
  } catch (error) {
    // A twin of this file (or a retry with the same Idempotency-Key) landed first: the
    // import fails for good, naming the ride that holds it.
    if (lostUniqueRace(error, 'workouts_user_file') && options.fileSha256)
      await refuseDuplicate(services, userId, options.fileSha256);
    if (uniqueViolation(error) && options.idempotencyKey)
      throw new ApiError(ErrorCode.Conflict, 'An upload with this Idempotency-Key landed first', {
        errors: [{ path: 'file', message: 'workouts.idempotencyRace' }],
      });
    throw error;
  }
}

/** How many other recordings of an import's file were queued as imports of their own. */
export async function otherRecordingsOf(db: Queryable, importId: string): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM imports WHERE options->>'partOf' = $1",
    [importId],
  );
  return row?.count ?? 0;
}

/** One more activity of an imported file: its own bytes, or a leg of the same bytes. */
interface FilePart {
  readonly bytes: Uint8Array;
  readonly fileSha256: string;
  readonly leg?: number;
}

/**
 * The other activities of an import's file: a chained FIT file's other recordings and a TCX
 * file's other `<Activity>` elements (each a file of its own, known by its SHA-256), and the
 * other legs of a multisport file (a triathlon's T1, bike, T2 and run after its swim: the
 * same file, each told its leg, known by the file's SHA-256 and its leg; the first leg holds
 * the file's own, so the file sent again is already imported).
 */
async function otherParts(
  row: ImportRow,
  bytes: Uint8Array,
  analysis: Analysis,
): Promise<FilePart[]> {
  const parts: FilePart[] = [];
  for (const part of analysis.more ?? [])
    parts.push({ bytes: part, fileSha256: await sha256([part]) });
  const legs = row.options.leg ? 1 : (analysis.legs ?? 1);
  const file = legs > 1 ? (row.options.fileSha256 ?? (await sha256([bytes]))) : '';
  for (let leg = 1; leg < legs; leg++) parts.push({ bytes, fileSha256: `${file}:leg${leg}`, leg });
  return parts;
}

/**
 * Queues a file's other activities (`otherParts`) as imports of their own, before the first
 * one is stored: should this process die in between, the retried job queues them again and
 * each copy is then refused as the duplicate of the ride its twin made (their SHA-256 are
 * unique per rider).
 */
async function queueParts(
  services: Services,
  row: ImportRow,
  parts: readonly FilePart[],
): Promise<void> {
  if (parts.length + 1 > MAX_ACTIVITIES_PER_FILE) {
    const { error } = tooManyActivities(parts.length + 1);
    throw new ApiError(ErrorCode.UnsupportedFile, error.message, {
      errors: [{ path: 'file', message: error.messageId }],
    });
  }
  const { language, overlap } = row.options;
  for (const part of parts)
    await services.imports.enqueue(row.user_id, part.bytes, {
      partOf: row.id,
      fileSha256: part.fileSha256,
      ...(part.leg ? { leg: part.leg } : {}),
      ...(language ? { language } : {}),
      ...(overlap ? { overlap } : {}),
    });
}

/** Stores the upload, queues its import and waits for it (see `ImportJobs`). */
export async function importActivity(
  services: Services,
  userId: number,
  bytes: Uint8Array,
  options: ImportRequest & { signal?: AbortSignal | undefined },
): Promise<number> {
  const { signal, ...request } = options;
  // A retry of an upload whose import is queued (its request was cut: a process died, a
  // connection dropped) waits for that import instead of queueing the file again. (One
  // still `uploading` may belong to a process that died: the retry queues its own.)
  const [pending] = request.idempotencyKey
    ? await services.db.query<{ id: string; hash: string | null }>(
        `SELECT id, options->>'idempotencyHash' AS hash FROM imports
          WHERE user_id = $1 AND options->>'idempotencyKey' = $2 AND status = 'queued'
          ORDER BY created_at LIMIT 1`,
        [userId, request.idempotencyKey],
      )
    : [];
  if (pending) assertSameUpload(pending.hash, request.idempotencyHash!);
  const importId = pending?.id ?? (await services.imports.enqueue(userId, bytes, request));
  // Only the request that queued an import gives it up at its deadline.
  const outcome = await services.imports.wait(importId, signal, { own: !pending });
  if (outcome.status === 'done') return outcome.workoutId;
  throw outcome.error;
}
