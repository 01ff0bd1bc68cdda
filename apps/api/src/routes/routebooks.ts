import { randomUUID } from 'node:crypto';
import { ErrorCode, routebookFieldsSchema, type Routebook } from '@xoss/api-contract';
import { parseGpx } from '@xoss/activity-files';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound, parse } from '../http.ts';
import { route } from '../route.ts';
import type { Services } from '../services.ts';
import {
  deleteRoutebook,
  insertRoutebook,
  listRoutebooks,
  ownRoutebook,
  type RoutebookRow,
} from '../routebooks/store.ts';
import { pageReply, readUpload, safeFileName, sendAttachment } from './common.ts';

const routebookReply = (row: RoutebookRow): Routebook => ({
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

  route(app, services, 'listRoutebooks', async ({ userId, query, request }) =>
    pageReply(request, query, await listRoutebooks(db, userId, query), routebookReply),
  );

  route(app, services, 'uploadRoutebook', async ({ userId, request, reply }) => {
    const upload = await readUpload(request, services, userId!, {
      maxBytes: services.config.maxGpxBytes,
      extension: '.gpx',
      kind: 'GPX',
    });
    const fields = parse(routebookFieldsSchema, upload.fields, 'title');
    const id = await storeRoutebook(services, userId!, upload.bytes, fields);
    reply.status(201);
    return routebookReply(await own(userId, id));
  });

  route(app, services, 'routebookGpx', async ({ userId, params, reply }) => {
    const row = await own(userId, params.id);
    const bytes = await services.blobs.get(row.file_key);
    return sendAttachment(reply, bytes, {
      type: 'application/gpx+xml',
      asciiName: `routebook-${row.id}.gpx`,
      name: row.file_name,
    });
  });

  route(app, services, 'deleteRoutebook', async ({ userId, params }) => {
    const row = await own(userId, params.id);
    await deleteRoutebook(db, row.id);
    await services.blobs.delete(row.file_key).catch(() => undefined);
    return {};
  });
}
