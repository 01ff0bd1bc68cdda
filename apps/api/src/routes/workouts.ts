// HTTP for rides: list, totals, import, detail, edit, delete, download, streams, curves and
// range; storage is in ../rides/rows.ts and store.ts, reply shapes in ../rides/replies.ts.
import { randomBytes } from 'node:crypto';
import {
  ErrorCode,
  type WorkoutDetail,
  type WorkoutImportReply,
  type WorkoutPatch,
  workoutImportFieldsSchema,
} from '@xoss/api-contract';
import { estimateFtp } from '@xoss/workout-stats';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, notFound, parse } from '../http/envelope.ts';
import { deadlineSignal } from '../http/deadline.ts';
import { route } from '../http/route.ts';
import type { Services } from '../services.ts';
import { comparisonCurves, removeRideFromBestCurves } from '../analysis/bestCurves.ts';
import { forgetStreams, readCurves } from '../rides/streams.ts';
import { addToDay, dayOf, lockRider, rideDelta } from '../training/days.ts';
import { forgetPreview } from '../share/previewCache.ts';
import { pageReply, readUpload, safeFileName, sendAttachment } from './common.ts';
import { contentSha256 } from '../platform/digest.ts';
import { assertSameUpload, idempotencyKeyOf, uploadDigest } from './idempotency.ts';
import { listItem, ownWorkout, ACTIVITY_EXTENSIONS, type WorkoutRow } from '../rides/rows.ts';
import {
  deleteWorkoutRow,
  listWorkouts,
  saveWorkoutEdit,
  type WorkoutEdit,
  unshareAll,
  workoutByIdempotencyKey,
  workoutTotals,
  yearsWithRides,
} from '../rides/queries.ts';
import { detail, streamsReply, curveReply, rangeReply } from '../rides/replies.ts';
import { refuseDuplicate } from '../rides/duplicates.ts';
import { importActivity, otherRecordingsOf } from '../rides/store.ts';
import { reviseWorkout, type RideSettings } from '../rides/revise.ts';
import { counts } from '../rides/counting.ts';
import { extraCurves, wbalStream } from '../analysis/analysisStore.ts';

const MIME: Readonly<Record<WorkoutDetail['file_format'], string>> = {
  fit: 'application/vnd.ant.fit',
  tcx: 'application/vnd.garmin.tcx+xml',
  gpx: 'application/gpx+xml',
  'fit.gz': 'application/gzip',
  'tcx.gz': 'application/gzip',
  'gpx.gz': 'application/gzip',
};

export function workoutRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  route(app, services, 'listWorkouts', async ({ userId, query, request }) =>
    pageReply(request, query, await listWorkouts(db, userId!, query, query), listItem),
  );

  route(app, services, 'workoutTotals', ({ userId, query }) => workoutTotals(db, userId!, query));

  route(app, services, 'importWorkout', async ({ userId, request, reply }) => {
    const upload = await readUpload(request, services, userId!, {
      maxBytes: services.config.maxFitBytes,
      extension: ACTIVITY_EXTENSIONS,
      kind: 'activity (.fit, .tcx, .gpx)',
    });
    const file = upload.bytes;
    const fields = parse(workoutImportFieldsSchema, upload.fields, 'fields');
    const idempotencyKey = idempotencyKeyOf(request);
    const idempotencyHash = idempotencyKey ? await uploadDigest(file, upload.fields) : undefined;
    const fileSha256 = await contentSha256(file, services.config.maxFitBytes);
    if (idempotencyKey) {
      const existing = await workoutByIdempotencyKey(db, userId, idempotencyKey);
      if (existing) {
        assertSameUpload(existing.idempotency_hash ?? null, idempotencyHash!);
        return importReply(services, existing);
      }
    }
    await refuseDuplicate(services, userId!, fileSha256);
    let id: number;
    try {
      id = await importActivity(services, userId!, file, {
        fileSha256,
        signal: deadlineSignal(request),
        ...(fields.name ? { name: fields.name } : {}),
        ...(fields.overlap ? { overlap: fields.overlap } : {}),
        ...languageOf(request),
        ...(idempotencyKey ? { idempotencyKey, idempotencyHash: idempotencyHash! } : {}),
      });
    } catch (error) {
      // A concurrent retry with the same key won the insert (on either of the ride's unique
      // keys: the same key carries the same file): answer with its workout.
      if (idempotencyKey && error instanceof ApiError && error.code === ErrorCode.Conflict) {
        const existing = await workoutByIdempotencyKey(db, userId, idempotencyKey);
        if (existing) {
          assertSameUpload(existing.idempotency_hash ?? null, idempotencyHash!);
          return importReply(services, existing);
        }
      }
      throw error;
    }
    reply.status(201);
    return importReply(services, await ownWorkout(services, userId, id));
  });

  route(app, services, 'getWorkout', async ({ userId, params }) =>
    detail(services, await ownWorkout(services, userId, params.id)),
  );

  route(app, services, 'patchWorkout', async ({ userId, params, body, request }) => {
    const row = await ownWorkout(services, userId, params.id);
    if (body.start_time !== undefined && Date.parse(body.start_time) > services.now() + DAY_MS)
      throw new ApiError(ErrorCode.ValidationFailed, 'A ride cannot start after today', {
        errors: [{ path: 'start_time', message: 'workouts.startInFuture' }],
      });
    const correction = correctionOf(row, body);
    const corrects = Object.keys(correction).length > 0;
    // Each correction costs an analysis of the ride: counted against the rider's corrections
    // limit (a rename, notes or sharing never are), refused before anything is written.
    if (corrects) await services.limits.correction(row.user_id);
    const edit = editOf(body);
    const save = async (fields: WorkoutEdit) => {
      if (Object.keys(fields).length === 0) return;
      const links = await saveWorkoutEdit(
        db,
        row.id,
        fields,
        randomBytes(16).toString('base64url'),
      );
      if (!links) throw notFound('Workout');
      if (links.before !== links.after) forgetPreview(links.before);
    };
    // An unshare takes effect now, whatever analysis of the ride runs (this request's too):
    // the link answers 404 from here on.
    if (corrects && edit.shared === false) await save({ shared: false });
    // What changes its figures or what it counts for: analysed again from its file. It writes
    // its figures and settings only, never the fields below, so nothing sent meanwhile by
    // another request is undone.
    if (corrects) await reviseWorkout(services, row, correction, deadlineSignal(request));
    // Only what the request names, on the row as it is now.
    await save(edit);
    return detail(services, await ownWorkout(services, userId, params.id));
  });

  route(app, services, 'deleteWorkout', async ({ userId, params }) => {
    const row = await ownWorkout(services, userId, params.id);
    const streamsKey = await db.transaction(async (tx) => {
      await lockRider(tx, row.user_id);
      const gone = await deleteWorkoutRow(tx, row.id);
      // Its day's totals and the fitness of the days after lose it in the same transaction
      // (a ride left out, or with a doubtful date, was never in them).
      if (gone && counts(gone))
        await addToDay(tx, gone.user_id, dayOf(new Date(gone.start_time)), rideDelta(gone, -1));
      if (gone) await removeRideFromBestCurves(tx, gone.user_id, new Date(gone.start_time));
      return gone?.streams_key ?? null;
    });
    forgetPreview(row.share_id);
    forgetStreams(db, row.id);
    await services.blobs.delete(row.file_key).catch(() => undefined);
    if (streamsKey) await services.blobs.delete(streamsKey).catch(() => undefined);
    return {};
  });

  route(app, services, 'workoutStreams', async ({ userId, params, query }) => {
    const row = await ownWorkout(services, userId, params.id);
    // W' balance is computed when sent (it follows the rider's power model), when asked.
    const wanted = query.streams === undefined || query.streams.includes('w_bal');
    const wbal = wanted ? await wbalStream(services, row) : undefined;
    return streamsReply(services, row.id, query, wbal ? { w_bal: wbal } : undefined);
  });

  route(app, services, 'workoutFile', async ({ userId, params, reply }) => {
    const row = await ownWorkout(services, userId, params.id);
    const bytes = await services.blobs.get(row.file_key);
    const format = row.file_format ?? 'fit';
    return sendAttachment(reply, bytes, {
      type: MIME[format],
      asciiName: `workout-${row.id}.${format}`,
      name: `${safeFileName(row.name, 'workout')}.${format}`,
    });
  });

  route(app, services, 'workoutRange', async ({ userId, params, query }) =>
    rangeReply(services, await ownWorkout(services, userId, params.id), query.from, query.to),
  );

  route(app, services, 'powerCurve', async ({ userId, params, query }) => {
    const row = await ownWorkout(services, userId, params.id);
    const curves = await readCurves(db, row.id);
    const power = curves?.power ?? null;
    const speed = curves?.speed ?? null;
    // Each period's best curves are kept on import and delete (`bestCurves.ts`): a
    // comparison reads a row per period, never the rider's whole history.
    let comparison = null;
    if (query.compare !== 'none') {
      const best = await comparisonCurves(db, userId!, query.compare, services.now());
      comparison = {
        power: curveReply(best.power, query),
        speed: curveReply(best.speed, query),
        workouts: best.workouts,
      };
    }
    // One row per year ridden (the year rows of the per-period best curves).
    const thisYear = new Date(services.now()).getUTCFullYear();
    const years = await yearsWithRides(db, userId);
    // Heart-rate and pace curves are not stored: computed from the streams when asked.
    const extra = query.include ? await extraCurves(services, row, query.include) : {};
    return {
      power: curveReply(power, query),
      speed: curveReply(speed, query),
      ...(query.include?.includes('heart_rate')
        ? { heart_rate: curveReply(extra.heart_rate ?? null, query) }
        : {}),
      ...(query.include?.includes('pace') ? { pace: curveReply(extra.pace ?? null, query) } : {}),
      compare: query.compare,
      comparison,
      ftp_estimate: power ? (estimateFtp(power) ?? null) : null,
      years_with_rides: years.filter((year) => year < thisYear),
    };
  });

  route(app, services, 'unshareAll', async ({ userId }) => {
    const links = await unshareAll(db, userId);
    for (const link of links) forgetPreview(link);
    return { unshared: links.length };
  });
}

const DAY_MS = 86_400_000;

/** The fields of a PATCH that are stored as they are, without analysing the ride again. */
function editOf(body: WorkoutPatch): WorkoutEdit {
  return {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.notes !== undefined ? { notes: body.notes } : {}),
    ...(body.gear !== undefined ? { gear: body.gear || null } : {}),
    ...(body.shared !== undefined ? { shared: body.shared } : {}),
    ...(body.share_heart_rate !== undefined ? { shareHeartRate: body.share_heart_rate } : {}),
    ...(body.share_power !== undefined ? { sharePower: body.share_power } : {}),
  };
}

/**
 * The corrections a PATCH asks for that change what the ride's figures are or what it counts
 * for (`revise.ts`), as settings of the row; only those that differ from the row's.
 */
function correctionOf(row: WorkoutRow, body: WorkoutPatch): Partial<RideSettings> {
  const change: { -readonly [K in keyof RideSettings]?: RideSettings[K] } = {};
  if (body.sport_type !== undefined && body.sport_type !== row.sport_type)
    change.sport_type = body.sport_type;
  if (body.exclude_from_bests !== undefined && body.exclude_from_bests !== row.exclude_from_bests)
    change.exclude_from_bests = body.exclude_from_bests;
  if (body.keep_removed !== undefined && body.keep_removed !== row.keep_removed)
    change.keep_removed = body.keep_removed;
  if (body.ftp_choice !== undefined) {
    const choice = body.ftp_choice === 'file' ? 'file' : null;
    if (choice !== row.ftp_choice) change.ftp_choice = choice;
  }
  // Seconds from the recording's first sample: the same request twice crops once.
  if (body.crop === null && row.crop !== null) change.crop = null;
  if (body.crop && JSON.stringify(body.crop) !== JSON.stringify(row.crop))
    change.crop = { start_s: body.crop.start_s, end_s: body.crop.end_s };
  if (body.start_time !== undefined) {
    const moveS = (Date.parse(body.start_time) - new Date(row.start_time).getTime()) / 1000;
    if (moveS !== 0) change.time_shift_s = (row.time_shift_s ?? 0) + moveS;
  }
  return change;
}

/** The upload's first `Accept-Language` tag, if it names one (the portal sends its own). */
export function languageOf(request: FastifyRequest): { language?: string } {
  const first = request.headers['accept-language']?.split(',')[0]?.split(';')[0]?.trim();
  return first && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(first) ? { language: first } : {};
}

/** An import's reply: the ride, and how many other activities of its file were queued. */
async function importReply(services: Services, row: WorkoutRow): Promise<WorkoutImportReply> {
  return {
    ...(await detail(services, row)),
    other_activities: row.import_id ? await otherRecordingsOf(services.db, row.import_id) : 0,
  };
}
