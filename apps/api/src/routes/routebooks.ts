import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  pathFor,
  routebookFieldsSchema,
  type DeviceRoutebook,
  type Routebook,
} from '@xoss/api-contract';
import { parseGpx } from '@xoss/activity-files';
import type { FastifyInstance } from 'fastify';
import { ownDevice } from '../devices/store.ts';
import { ApiError, notFound, parse } from '../http/envelope.ts';
import { route } from '../http/route.ts';
import type { Services } from '../services.ts';
import {
  deleteRoutebook,
  insertRoutebook,
  listRoutebooks,
  markForDevice,
  markSynced,
  ownRoutebook,
  syncsOf,
  updateRoutebook,
  waitingFor,
  type RoutebookRow,
  type RoutebookSyncRow,
} from '../routebooks/store.ts';
import { pageReply, readUpload, safeFileName, sendAttachment } from './common.ts';

const routebookReply = (row: RoutebookRow, syncs: readonly RoutebookSyncRow[]): Routebook => ({
  id: row.id,
  title: row.title,
  description: row.description,
  distance_m: row.distance_m,
  elevation_gain_m: row.elevation_gain_m,
  elevation_loss_m: row.elevation_loss_m,
  points: row.points,
  has_time: row.has_time,
  bounds: row.bounds,
  preview: row.preview,
  created_at: new Date(row.created_at).toISOString(),
  devices: syncs
    .filter((sync) => sync.routebook_id === row.id)
    .map((sync) => ({
      device_id: sync.device_id,
      marked_at: new Date(sync.marked_at).toISOString(),
      synced_at: sync.synced_at ? new Date(sync.synced_at).toISOString() : null,
    })),
});

const deviceRoutebookReply = (row: RoutebookRow & { marked_at: Date }): DeviceRoutebook => ({
  id: row.id,
  title: row.title,
  description: row.description,
  distance_m: row.distance_m,
  elevation_gain_m: row.elevation_gain_m,
  points: row.points,
  marked_at: new Date(row.marked_at).toISOString(),
  download_url: pathFor('routebookGpx', { id: row.id }),
});

/** Re-validates a GPX with the parser the browser used, then stores file and row together. */
async function storeRoutebook(
  services: Services,
  userId: number,
  bytes: Uint8Array,
  fields: { title: string; description: string },
): Promise<number> {
  const parsed = parseGpx(bytes, { maxBytes: services.config.maxGpxBytes, timeBudgetMs: 1000 });
  if (!parsed.ok)
    throw new ApiError(
      ErrorCode.UnsupportedFile,
      `This GPX file cannot be read: ${parsed.error.message}${parsed.error.line ? ` (line ${parsed.error.line})` : ''}`,
      { errors: [{ path: 'file', message: parsed.error.messageId }] },
    );
  const route = parsed.value;
  const preview = Array.from(route.preview, (index): [number, number] => [
    route.points.latitude[index]!,
    route.points.longitude[index]!,
  ]);
  const fileKey = `routebooks/${randomUUID()}.gpx`;
  await services.blobs.put(fileKey, bytes);
  try {
    return await insertRoutebook(services.db, {
      userId,
      title: fields.title,
      description: fields.description,
      distanceM: route.distanceM,
      elevationGainM: route.elevationGainM,
      elevationLossM: route.elevationLossM,
      points: route.points.length,
      hasTime: route.hasTime,
      bounds: {
        min_lat: route.bounds.minLatitude,
        min_lon: route.bounds.minLongitude,
        max_lat: route.bounds.maxLatitude,
        max_lon: route.bounds.maxLongitude,
      },
      preview,
      fileKey,
      fileName: `${safeFileName(fields.title, 'route')}.gpx`,
      fileBytes: bytes.length,
    });
  } catch (error) {
    await services.blobs.delete(fileKey).catch(() => undefined);
    throw error;
  }
}

export function routebookRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  const own = async (userId: number | undefined, id: number) => {
    const row = await ownRoutebook(db, userId, id);
    if (!row) throw notFound('Routebook');
    return row;
  };
  /** Another rider's device answers as one that is not there: 404, never 403. */
  const ownedDevice = async (userId: number | undefined, id: number) => {
    const row = await ownDevice(db, userId, id);
    if (!row) throw notFound('Device');
    return row;
  };
  const reply = async (userId: number | undefined, id: number) =>
    routebookReply(await own(userId, id), await syncsOf(db, [id]));

  route(app, services, 'listRoutebooks', async ({ userId, query, request }) => {
    const page = await listRoutebooks(db, userId, query);
    const syncs = await syncsOf(
      db,
      page.rows.map((row) => row.id),
    );
    return pageReply(request, query, page, (row) => routebookReply(row, syncs));
  });

  route(app, services, 'uploadRoutebook', async ({ userId, request, reply: http }) => {
    const upload = await readUpload(request, services, userId!, {
      maxBytes: services.config.maxGpxBytes,
      extension: '.gpx',
      kind: 'GPX',
    });
    const fields = parse(routebookFieldsSchema, upload.fields, 'title');
    const id = await storeRoutebook(services, userId!, upload.bytes, fields);
    http.status(201);
    return reply(userId, id);
  });

  route(app, services, 'routebookGpx', async ({ userId, params, reply: http }) => {
    const row = await own(userId, params.id);
    const bytes = await services.blobs.get(row.file_key);
    return sendAttachment(http, bytes, {
      type: 'application/gpx+xml',
      asciiName: `routebook-${row.id}.gpx`,
      name: row.file_name,
    });
  });

  route(app, services, 'getRoutebook', async ({ userId, params }) => reply(userId, params.id));

  route(app, services, 'patchRoutebook', async ({ userId, params, body }) => {
    const row = await own(userId, params.id);
    await updateRoutebook(db, row.id, body);
    return reply(userId, row.id);
  });

  route(app, services, 'deleteRoutebook', async ({ userId, params }) => {
    const row = await own(userId, params.id);
    await deleteRoutebook(db, row.id);
    await services.blobs.delete(row.file_key).catch(() => undefined);
    return {};
  });

  route(app, services, 'sendRoutebook', async ({ userId, params, body }) => {
    const row = await own(userId, params.id);
    const device = await ownedDevice(userId, body.device_id);
    await markForDevice(db, row.id, device.id);
    return reply(userId, row.id);
  });

  // The phone app's side of "Send to device": what waits for the device, then the
  // acknowledgement once it is copied (the device itself never talks to the API).
  route(app, services, 'deviceRoutebooks', async ({ userId, params }) => {
    const device = await ownedDevice(userId, params.id);
    return (await waitingFor(db, device.id)).map(deviceRoutebookReply);
  });

  route(app, services, 'deviceRoutebooksSynced', async ({ userId, params, body }) => {
    const device = await ownedDevice(userId, params.id);
    return { synced: await markSynced(db, device.id, body.routebook_ids) };
  });
}
