// Storing an analysed ride: the import's transaction (row, streams, curves, best curves,
// training day, file) with its duplicate and race rules, called by the import job. No HTTP.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@xoss/api-contract';
import { sha256 } from '../platform/digest.ts';
import { ApiError } from '../http/envelope.ts';
import type { Queryable } from '../platform/db/db.ts';
import type { Services } from '../services.ts';
import { type Analysis, type AnalysisResult } from '../analysis/analyse.ts';
import { hasRecordedData } from './recorded.ts';
import {
  addRideToBestCurves,
  countsForRideBests,
  markBestCurvesStale,
} from '../analysis/bestCurves.ts';
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
  thresholdsOn,
} from '../analysis/thresholds.ts';
import { addToDay, dayOf, rideDelta, storeBests } from '../training/days.ts';
import { translatorFor } from '@xoss/i18n';
import { assertStreamsFit } from '../platform/quota.ts';
import { assertSameUpload } from '../routes/idempotency.ts';
import { nullable } from './rows.ts';
import { summaryReply, settingsOf } from './replies.ts';
import { refuseDuplicate, refuseOverlap } from './duplicates.ts';

/** What a ride is called by default, by the file's sport (FIT sport numbers). */
const ACTIVITY_OF_SPORT: Readonly<Record<number, string>> = {
  1: 'run',
  5: 'swim',
  11: 'walk',
};

/**
 * The name of a ride imported without one: its activity (ride, indoor ride, run, walk,
 * swim; a file of another or no sport is a ride, as our devices record) and its UTC date,
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
  const thresholds = thresholdsOn(await thresholdHistory(services.db, userId), start, {
    ftp: analysis.fileFtp,
    maxHr: analysis.fileMaxHr,
  });
  const summary = measuredSummary(analysis.summary, thresholds);
  const device = analysis.deviceSummary as Record<string, unknown>;
  const shown = summaryReply(summary, device, thresholds.ftpSource);
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
    return await services.db.transaction(async (tx) => {
      // Given up meanwhile (its request's deadline): nothing is stored. The row lock also
      // makes a second attempt at the same import wait for, then see, the first one's end.
      if (importRow) await claimImportForStore(tx, importRow.id);
      // The upload's reservation counts its file; its streams must fit beside it.
      await assertStreamsFit(tx, userId, packed.length);
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO workouts (user_id, name, sport_type, start_time, indoor, distance_m, moving_time_s, total_time_s,
           speed_avg_ms, hr_avg, power_avg, elevation_gain_m, tss, summary, device_summary, bounds, file_key, file_bytes,
           idempotency_key, timer_time_s, timer, sessions, damage, file_format, file_ftp, file_max_hr, ftp, ftp_source,
           max_hr, max_hr_source, idempotency_hash, file_sha256, laps, import_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
           $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34) RETURNING id`,
        [
          userId,
          name,
          sportType,
          start,
          analysis.indoor,
          summary.distanceM,
          summary.movingTimeS,
          summary.totalTimeS,
          nullable(summary.avgSpeedMs),
          nullable(summary.avgHeartRate),
          nullable(summary.avgPower),
          shown.elevation_gain_m,
          shownTss(summary, device, thresholds.ftpSource),
          JSON.stringify(summary),
          JSON.stringify(analysis.deviceSummary),
          analysis.bounds ? JSON.stringify(analysis.bounds) : null,
          fileKey,
          bytes.length,
          options.idempotencyKey ?? null,
          summary.timerTimeS,
          JSON.stringify(analysis.timer),
          JSON.stringify(analysis.sessions),
          analysis.damage ? JSON.stringify(analysis.damage) : null,
          format,
          analysis.fileFtp,
          analysis.fileMaxHr,
          thresholds.ftp,
          thresholds.ftpSource,
          thresholds.maxHr,
          thresholds.maxHrSource,
          options.idempotencyHash ?? null,
          options.fileSha256 ?? null,
          JSON.stringify(analysis.laps),
          importRow?.id ?? null,
        ],
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
      // A run, a swim or a transition (a triathlon's other legs) makes no cycling best.
      const riding = countsForRideBests(sportType);
      if (riding) await storeBests(tx, id, userId, start, analysis.bests);
      await storeFacts(tx, id, userId, start, analysis.facts);
      await addToDay(
        tx,
        userId,
        dayOf(start),
        rideDelta({
          tss: shownTss(summary, device, thresholds.ftpSource),
          moving_time_s: summary.movingTimeS,
          distance_m: summary.distanceM,
          elevation_gain_m: shown.elevation_gain_m,
        }),
      );
      if (riding && options.batch) await markBestCurvesStale(tx, userId, start);
      else if (riding)
        await addRideToBestCurves(tx, userId, start, analysis.powerCurve, analysis.speedCurve);
      if (options.notes)
        await tx.query('UPDATE workouts SET notes = $2 WHERE id = $1', [id, options.notes]);
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
  await queueOtherRecordings(services, row, result.value.more ?? []);
  if (!options.leg && (result.value.legs ?? 1) > 1)
    await queueOtherLegs(services, row, bytes, result.value.legs!);
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

/**
 * Queues the other legs of a multisport file (a triathlon's T1, bike, T2 and run after its
 * swim) as imports of their own: the same file, each told its leg, known by the file's
 * SHA-256 and its leg (the first leg holds the file's own, so the file sent again is
 * already imported).
 */
async function queueOtherLegs(
  services: Services,
  row: ImportRow,
  bytes: Uint8Array,
  legs: number,
): Promise<void> {
  if (legs > MAX_RECORDINGS_PER_FILE)
    throw new ApiError(
      ErrorCode.UnsupportedFile,
      `The file holds ${legs} legs; one file may hold at most ${MAX_RECORDINGS_PER_FILE}`,
      { errors: [{ path: 'file', message: 'workouts.tooManyActivities' }] },
    );
  const { language, overlap } = row.options;
  const file = row.options.fileSha256 ?? (await sha256([bytes]));
  for (let leg = 1; leg < legs; leg++)
    await services.imports.enqueue(row.user_id, bytes, {
      partOf: row.id,
      leg,
      fileSha256: `${file}:leg${leg}`,
      ...(language ? { language } : {}),
      ...(overlap ? { overlap } : {}),
    });
}

/** How many other recordings of an import's file were queued as imports of their own. */
export async function otherRecordingsOf(db: Queryable, importId: string): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM imports WHERE options->>'partOf' = $1",
    [importId],
  );
  return row?.count ?? 0;
}

/** The most recordings of one file imported as rides: a chained file's parts beyond are refused. */
const MAX_RECORDINGS_PER_FILE = 32;

/**
 * Queues a file's other recordings (a chained FIT file's other activities, a TCX file's other
 * `<Activity>` elements) as imports of their own, before the first one is stored: should this
 * process die in between, the retried job queues them again and each copy is then refused as
 * the duplicate of the ride its twin made (their files' SHA-256 are unique per rider).
 */
async function queueOtherRecordings(
  services: Services,
  row: ImportRow,
  parts: readonly Uint8Array[],
): Promise<void> {
  if (parts.length + 1 > MAX_RECORDINGS_PER_FILE)
    throw new ApiError(
      ErrorCode.UnsupportedFile,
      `The file holds ${parts.length + 1} activities; one file may hold at most ` +
        `${MAX_RECORDINGS_PER_FILE}. Split it`,
      { errors: [{ path: 'file', message: 'workouts.tooManyActivities' }] },
    );
  const { language, overlap } = row.options;
  for (const part of parts)
    await services.imports.enqueue(row.user_id, part, {
      partOf: row.id,
      fileSha256: await sha256([part]),
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
