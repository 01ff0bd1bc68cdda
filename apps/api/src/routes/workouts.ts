import { randomBytes, randomUUID } from 'node:crypto';
import {
  ErrorCode,
  type Comparison,
  type StreamName,
  type WorkoutDetail,
  type WorkoutListItem,
  workoutImportFieldsSchema,
} from '@xoss/api-contract';
import {
  downsampleMinMax,
  estimateFtp,
  heartRateZoneTimes,
  mergeCurves,
  powerZoneTimes,
  sampleDurations,
  type WorkoutSummary,
} from '@xoss/workout-stats';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound, parse } from '../http.ts';
import { deadlineSignal } from '../deadline.ts';
import { route } from '../route.ts';
import type { Services } from '../services.ts';
import type { Analysis } from '../workouts/analyse.ts';
import { hasRecordedData } from '../workouts/recorded.ts';
import {
  forgetStreams,
  packCurve,
  packStreams,
  readStreams,
  unpackCurve,
} from '../workouts/streams.ts';
import { paginate, readUpload, safeFileName, sendAttachment } from './common.ts';
import { assertSameUpload, idempotencyKeyOf, uploadDigest } from './idempotency.ts';

interface WorkoutRow {
  id: number;
  user_id: number;
  name: string;
  sport_type: number;
  start_time: Date;
  indoor: boolean;
  distance_m: number;
  moving_time_s: number;
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
}

/** Zone times as last computed, keyed by the settings (not the estimates) they came from. */
interface ZoneCache {
  settings: { ftp: number | null; max_hr: number | null };
  ftp: number | null;
  max_hr: number | null;
  hr_zones: WorkoutDetail['hr_zones'];
  power_zones: WorkoutDetail['power_zones'];
}

const LIST_COLUMNS =
  'id, name, sport_type, start_time, indoor, distance_m, moving_time_s, total_time_s, speed_avg_ms, hr_avg, power_avg, elevation_gain_m, tss, share_id';

const nullable = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? null : value;

export function listItem(row: WorkoutRow): WorkoutListItem {
  return {
    id: row.id,
    name: row.name,
    sport_type: row.sport_type,
    start_time: new Date(row.start_time).toISOString(),
    indoor: row.indoor,
    distance_m: row.distance_m,
    moving_time_s: row.moving_time_s,
    total_time_s: row.total_time_s,
    speed_avg_ms: row.speed_avg_ms,
    hr_avg: row.hr_avg,
    power_avg: row.power_avg,
    elevation_gain_m: row.elevation_gain_m,
    tss: row.tss,
    shared: row.share_id !== null,
  };
}

function summaryReply(summary: WorkoutSummary): WorkoutDetail['summary'] {
  return {
    distance_m: summary.distanceM,
    estimated_distance_m: summary.estimatedDistanceM ?? summary.distanceM,
    total_time_s: summary.totalTimeS,
    moving_time_s: summary.movingTimeS,
    paused_time_s: summary.pausedTimeS,
    speed_avg_ms: nullable(summary.avgSpeedMs),
    speed_max_ms: nullable(summary.maxSpeedMs),
    hr_avg: nullable(summary.avgHeartRate),
    hr_max: nullable(summary.maxHeartRate),
    power_avg: nullable(summary.avgPower),
    power_max: nullable(summary.maxPower),
    np: nullable(summary.normalizedPower),
    if: nullable(summary.intensityFactor),
    tss: nullable(summary.trainingStressScore),
    cadence_avg: nullable(summary.avgCadence),
    cadence_max: nullable(summary.maxCadence),
    calories_kcal: nullable(summary.calories),
    elevation_gain_m: nullable(summary.elevationGainM),
    elevation_loss_m: nullable(summary.elevationLossM),
    grade_max: nullable(summary.maxGradePercent),
    grade_min: nullable(summary.minGradePercent),
    lr_balance_left: nullable(summary.leftRightBalance),
    torque_effectiveness: nullable(summary.torqueEffectiveness),
    pedal_smoothness: nullable(summary.pedalSmoothness),
  };
}

async function settingsOf(services: Services, userId: number) {
  const [user] = await services.db.query<{
    ftp: number | null;
    max_hr: number | null;
    distance_unit: number;
  }>('SELECT ftp, max_hr, distance_unit FROM users WHERE id = $1', [userId]);
  return user ?? { ftp: null, max_hr: null, distance_unit: 0 };
}

/**
 * Zone times with the rider's current FTP and max HR (else estimates from the ride). They
 * need the whole streams, so they are computed once per settings change and cached on the row.
 */
async function zonesOf(services: Services, row: WorkoutRow): Promise<ZoneCache> {
  const settings = await settingsOf(services, row.user_id);
  const cached = row.zones;
  if (cached && cached.settings.ftp === settings.ftp && cached.settings.max_hr === settings.max_hr)
    return cached;
  const streams = (await readStreams(services.db, row.id)) ?? {};
  const [curves] = await services.db.query<{ power: Uint8Array | null }>(
    'SELECT power FROM workout_curves WHERE workout_id = $1',
    [row.id],
  );
  const powerCurve = unpackCurve(curves?.power ?? null);
  const ftp = settings.ftp ?? (powerCurve ? (estimateFtp(powerCurve) ?? null) : null);
  const maxHr =
    settings.max_hr ?? (row.summary.maxHeartRate ? Math.round(row.summary.maxHeartRate) : null);
  const weights = streams.time ? sampleDurations(streams.time) : undefined;
  const zones = (distribution: ReturnType<typeof powerZoneTimes> | undefined) =>
    distribution?.zones.map((zone, index) => ({
      zone: index + 1,
      name: zone.name,
      low: zone.lowPercent,
      high: Number.isFinite(zone.highPercent) ? zone.highPercent : null,
      seconds: zone.seconds,
    })) ?? [];
  const computed: ZoneCache = {
    settings: { ftp: settings.ftp, max_hr: settings.max_hr },
    ftp,
    max_hr: maxHr,
    hr_zones: zones(
      streams.heart_rate && maxHr
        ? heartRateZoneTimes(streams.heart_rate, maxHr, weights)
        : undefined,
    ),
    power_zones: zones(
      streams.power && ftp ? powerZoneTimes(streams.power, ftp, weights) : undefined,
    ),
  };
  await services.db.query('UPDATE workouts SET zones = $1 WHERE id = $2', [
    JSON.stringify(computed),
    row.id,
  ]);
  return computed;
}

/** The detail reply of one workout. */
async function detail(services: Services, row: WorkoutRow): Promise<WorkoutDetail> {
  const zones = await zonesOf(services, row);
  return {
    ...listItem(row),
    share_id: row.share_id,
    summary: summaryReply(row.summary),
    device_summary: row.device_summary,
    hr_zones: zones.hr_zones,
    power_zones: zones.power_zones,
    ftp: zones.ftp,
    max_hr: zones.max_hr,
    bounds: row.bounds,
  };
}

async function ownWorkout(
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

async function sharedWorkout(services: Services, shareId: string): Promise<WorkoutRow> {
  const [row] = await services.db.query<WorkoutRow>('SELECT * FROM workouts WHERE share_id = $1', [
    shareId,
  ]);
  if (!row) throw notFound('Shared workout');
  return row;
}

async function streamsReply(services: Services, workoutId: number, points: number | undefined) {
  const streams = await readStreams(services.db, workoutId);
  if (!streams) return { length: 0, streams: {} };
  const length = Object.values(streams)[0]?.length ?? 0;
  let indices: ArrayLike<number> | undefined;
  if (points !== undefined && length > points) {
    // Keep each bucket's extremes of the busiest channel so peaks survive the reduction.
    const reference = streams.power ?? streams.speed ?? streams.heart_rate ?? streams.time!;
    indices = downsampleMinMax(reference, points);
  }
  const reply: Partial<Record<StreamName, (number | null)[]>> = {};
  for (const [name, column] of Object.entries(streams)) {
    const values = indices ? Array.from(indices, (index) => column[index]!) : Array.from(column);
    reply[name as StreamName] = values.map((value) => (Number.isFinite(value) ? value : null));
  }
  const first = streams.time?.[0] ?? 0;
  if (reply.time) reply.time = reply.time.map((t) => (t === null ? null : t - first));
  return { length: indices ? indices.length : length, streams: reply };
}

const curveReply = (curve: Float64Array | null) =>
  curve
    ? {
        durations: Array.from(curve, (_, index) => index + 1),
        values: Array.from(curve, (value) => (Number.isFinite(value) ? value : null)),
      }
    : null;

function comparisonRange(compare: Comparison, now: number): [Date, Date] | undefined {
  if (compare === 'none') return undefined;
  const today = new Date(now);
  if (compare === 'last6weeks') return [new Date(now - 42 * 86_400_000), today];
  const year = compare === 'currentYear' ? today.getUTCFullYear() : Number(compare.slice(5));
  return [new Date(Date.UTC(year, 0, 1)), new Date(Date.UTC(year + 1, 0, 1))];
}

/** Stores one analysed workout: file, row, streams and curves together or not at all. */
export async function storeWorkout(
  services: Services,
  userId: number,
  bytes: Uint8Array,
  analysis: Analysis,
  options: { name?: string; idempotencyKey?: string; idempotencyHash?: string } = {},
): Promise<number> {
  const fileKey = `workouts/${randomUUID()}.fit`;
  await services.blobs.put(fileKey, bytes);
  try {
    return await services.db.transaction(async (tx) => {
      const { summary } = analysis;
      const start = new Date(analysis.startTime * 1000);
      const name =
        options.name ??
        `${analysis.indoor ? 'Indoor ride' : 'Ride'} ${start.toISOString().slice(0, 10)}`;
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO workouts (user_id, name, sport_type, start_time, indoor, distance_m, moving_time_s, total_time_s,
           speed_avg_ms, hr_avg, power_avg, elevation_gain_m, tss, summary, device_summary, bounds, file_key, file_bytes, idempotency_key, idempotency_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING id`,
        [
          userId,
          name,
          analysis.sportType,
          start,
          analysis.indoor,
          summary.distanceM,
          summary.movingTimeS,
          summary.totalTimeS,
          nullable(summary.avgSpeedMs),
          nullable(summary.avgHeartRate),
          nullable(summary.avgPower),
          nullable(summary.elevationGainM),
          nullable(summary.trainingStressScore),
          JSON.stringify(summary),
          JSON.stringify(analysis.deviceSummary),
          analysis.bounds ? JSON.stringify(analysis.bounds) : null,
          fileKey,
          bytes.length,
          options.idempotencyKey ?? null,
          options.idempotencyHash ?? null,
        ],
      );
      const id = row!.id;
      await tx.query('INSERT INTO workout_streams (workout_id, length, data) VALUES ($1, $2, $3)', [
        id,
        analysis.streams.time!.length,
        packStreams(analysis.streams),
      ]);
      await tx.query('INSERT INTO workout_curves (workout_id, power, speed) VALUES ($1, $2, $3)', [
        id,
        packCurve(analysis.powerCurve),
        packCurve(analysis.speedCurve),
      ]);
      return id;
    });
  } catch (error) {
    // No row, so no file: the stored file goes too.
    await services.blobs.delete(fileKey).catch(() => undefined);
    throw error;
  }
}

/** Decodes, analyses (in a worker) and stores a FIT file; bad files are 415 with the reason. */
export async function importFit(
  services: Services,
  userId: number,
  bytes: Uint8Array,
  options: {
    name?: string;
    idempotencyKey?: string;
    idempotencyHash?: string;
    signal?: AbortSignal | undefined;
  } = {},
): Promise<number> {
  const settings = await settingsOf(services, userId);
  const result = await services.pool.analyse(bytes, {
    ...(settings.ftp ? { ftpWatts: settings.ftp } : {}),
    ...(settings.max_hr ? { maxHeartRate: settings.max_hr } : {}),
    distanceUnit: settings.distance_unit,
  });
  if (!result.ok)
    throw new ApiError(
      ErrorCode.UnsupportedFile,
      `This .FIT file cannot be read: ${result.error.message}`,
      {
        errors: [{ path: 'file', message: result.error.messageId }],
      },
    );
  // The request timed out while the file was analysed: store nothing.
  options.signal?.throwIfAborted();
  if (!hasRecordedData(result.analysis))
    throw new ApiError(
      ErrorCode.UnsupportedFile,
      'This .FIT file has no records: no time, position or sensor values to import',
      { errors: [{ path: 'file', message: 'activityFiles.fit.noRecords' }] },
    );
  return storeWorkout(services, userId, bytes, result.analysis, options);
}

/** The list's and the totals' WHERE clause: the rider's workouts by sport and UTC dates. */
function workoutFilter(
  userId: number,
  query: { sport_type?: number | undefined; from?: string | undefined; to?: string | undefined },
) {
  const where = ['user_id = $1'];
  const params: unknown[] = [userId];
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

export function workoutRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  route(app, services, 'listWorkouts', async ({ userId, query, request }) => {
    const { filter, params } = workoutFilter(userId!, query);
    return paginate(
      db,
      request,
      query,
      {
        select: `SELECT ${LIST_COLUMNS} FROM workouts WHERE ${filter}`,
        params,
        orderBy: 'start_time DESC, id DESC',
        count: `SELECT count(*)::int AS count FROM workouts WHERE ${filter}`,
      },
      listItem,
    );
  });

  route(app, services, 'workoutTotals', async ({ userId, query }) => {
    const { filter, params } = workoutFilter(userId!, query);
    const [row] = await db.query<{
      count: number;
      distance_m: number | null;
      moving_time_s: number | null;
      elevation_gain_m: number | null;
    }>(
      `SELECT count(*)::int AS count, sum(distance_m)::float8 AS distance_m,
              sum(moving_time_s)::float8 AS moving_time_s,
              sum(elevation_gain_m)::float8 AS elevation_gain_m
         FROM workouts WHERE ${filter}`,
      params,
    );
    return {
      count: row?.count ?? 0,
      distance_m: row?.distance_m ?? 0,
      moving_time_s: row?.moving_time_s ?? 0,
      elevation_gain_m: row?.elevation_gain_m ?? 0,
    };
  });

  route(app, services, 'importWorkout', async ({ userId, request, reply }) => {
    const upload = await readUpload(request, services, userId!, {
      maxBytes: services.config.maxFitBytes,
      extension: '.fit',
      kind: 'FIT',
    });
    const fit = upload.bytes;
    const fields = parse(workoutImportFieldsSchema, upload.fields, 'fields');
    if (
      fit.length < 12 ||
      fit[8] !== 0x2e ||
      fit[9] !== 0x46 ||
      fit[10] !== 0x49 ||
      fit[11] !== 0x54
    )
      throw new ApiError(
        ErrorCode.UnsupportedFile,
        'This is not a .FIT file: ".FIT" is missing at bytes 8-11',
        {
          errors: [{ path: 'file', message: 'activityFiles.fit.signature' }],
        },
      );
    const idempotencyKey = idempotencyKeyOf(request);
    const idempotencyHash = idempotencyKey ? uploadDigest(fit, upload.fields) : undefined;
    if (idempotencyKey) {
      const [existing] = await db.query<WorkoutRow>(
        'SELECT * FROM workouts WHERE user_id = $1 AND idempotency_key = $2',
        [userId, idempotencyKey],
      );
      if (existing) {
        assertSameUpload(existing.idempotency_hash ?? null, idempotencyHash!);
        return detail(services, existing);
      }
    }
    let id: number;
    try {
      id = await importFit(services, userId!, fit, {
        signal: deadlineSignal(request),
        ...(fields.name ? { name: fields.name } : {}),
        ...(idempotencyKey ? { idempotencyKey, idempotencyHash: idempotencyHash! } : {}),
      });
    } catch (error) {
      // A concurrent retry with the same key won the insert: answer with its workout.
      if (idempotencyKey && /duplicate key|unique/i.test(String((error as Error).message))) {
        const [existing] = await db.query<WorkoutRow>(
          'SELECT * FROM workouts WHERE user_id = $1 AND idempotency_key = $2',
          [userId, idempotencyKey],
        );
        if (existing) {
          assertSameUpload(existing.idempotency_hash ?? null, idempotencyHash!);
          return detail(services, existing);
        }
      }
      throw error;
    }
    reply.status(201);
    return detail(services, await ownWorkout(services, userId, id));
  });

  route(app, services, 'getWorkout', async ({ userId, params }) =>
    detail(services, await ownWorkout(services, userId, params.id)),
  );

  route(app, services, 'patchWorkout', async ({ userId, params, body }) => {
    const row = await ownWorkout(services, userId, params.id);
    const shareId =
      body.shared === undefined
        ? row.share_id
        : body.shared
          ? (row.share_id ?? randomBytes(16).toString('base64url'))
          : null;
    await db.query('UPDATE workouts SET name = $1, share_id = $2 WHERE id = $3', [
      body.name ?? row.name,
      shareId,
      row.id,
    ]);
    return detail(services, await ownWorkout(services, userId, params.id));
  });

  route(app, services, 'deleteWorkout', async ({ userId, params }) => {
    const row = await ownWorkout(services, userId, params.id);
    await db.query('DELETE FROM workouts WHERE id = $1', [row.id]);
    forgetStreams(db, row.id);
    await services.blobs.delete(row.file_key).catch(() => undefined);
    return {};
  });

  route(app, services, 'workoutStreams', async ({ userId, params, query }) => {
    const row = await ownWorkout(services, userId, params.id);
    return streamsReply(services, row.id, query.points);
  });

  route(app, services, 'workoutFile', async ({ userId, params, reply }) => {
    const row = await ownWorkout(services, userId, params.id);
    const bytes = await services.blobs.get(row.file_key);
    return sendAttachment(reply, bytes, {
      type: 'application/vnd.ant.fit',
      asciiName: `workout-${row.id}.fit`,
      name: `${safeFileName(row.name, 'workout')}.fit`,
    });
  });

  route(app, services, 'powerCurve', async ({ userId, params, query }) => {
    const row = await ownWorkout(services, userId, params.id);
    const [curves] = await db.query<{ power: Uint8Array | null; speed: Uint8Array | null }>(
      'SELECT power, speed FROM workout_curves WHERE workout_id = $1',
      [row.id],
    );
    const power = unpackCurve(curves?.power ?? null);
    const speed = unpackCurve(curves?.speed ?? null);
    const range = comparisonRange(query.compare, services.now());
    let comparison = null;
    if (range) {
      const others = await db.query<{ power: Uint8Array | null; speed: Uint8Array | null }>(
        `SELECT c.power, c.speed FROM workout_curves c JOIN workouts w ON w.id = c.workout_id
         WHERE w.user_id = $1 AND w.start_time >= $2 AND w.start_time < $3`,
        [userId, range[0], range[1]],
      );
      const merge = (curves: (Float64Array | null)[]) => {
        const present = curves.filter(
          (curve): curve is Float64Array => curve !== null && curve.length > 0,
        );
        return present.length > 0 ? curveReply(mergeCurves(present)) : null;
      };
      comparison = {
        power: merge(others.map((other) => unpackCurve(other.power))),
        speed: merge(others.map((other) => unpackCurve(other.speed))),
        workouts: others.length,
      };
    }
    return {
      power: curveReply(power),
      speed: curveReply(speed),
      compare: query.compare,
      comparison,
      ftp_estimate: power ? (estimateFtp(power) ?? null) : null,
    };
  });

  route(app, services, 'sharedWorkout', async ({ params }) =>
    detail(services, await sharedWorkout(services, params.share_id)),
  );
  route(app, services, 'sharedWorkoutStreams', async ({ params, query }) => {
    const row = await sharedWorkout(services, params.share_id);
    return streamsReply(services, row.id, query.points);
  });
}
