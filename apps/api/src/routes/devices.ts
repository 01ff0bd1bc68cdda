import { ErrorCode, type Device } from '@xoss/api-contract';
import {
  defaultDocument,
  parsePanels,
  profileFor,
  toPanelsObject,
  validate,
} from '@xoss/data-fields';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound } from '../http.ts';
import { route } from '../route.ts';
import type { Services } from '../services.ts';
import { paginate } from './common.ts';

interface DeviceRow {
  id: number;
  user_id: number;
  serial: string;
  model: Device['model'];
  firmware_version: string;
  manufacture: string;
  layout: Record<string, unknown> | null;
  created_at: Date;
}

const deviceReply = (row: DeviceRow): Device => ({
  id: row.id,
  serial: row.serial,
  model: row.model,
  firmware_version: row.firmware_version,
  manufacture: row.manufacture,
  created_at: new Date(row.created_at).toISOString(),
});

/** What a freshly bound device reports until it syncs: the current firmware of its model. */
const currentFirmware: Record<Device['model'], string> = {
  NAV: '2.3.1',
  'NAV+': '2.3.1',
  SPRINT: '1.8.4',
  G2: '3.1.0',
  'G2+': '3.1.0',
  G: '1.6.2',
  'G+': '1.6.2',
};

/** The stored layout, or the model's default document (the device's own). */
function layoutOf(row: DeviceRow, now: number): Record<string, unknown> {
  if (row.layout) return row.layout;
  const profile = profileFor(row.model)!;
  return toPanelsObject(defaultDocument(profile, row.serial, Math.floor(now / 1000)));
}

export function deviceRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  const own = async (userId: number | undefined, id: number) => {
    const [row] = await db.query<DeviceRow>(
      'SELECT * FROM devices WHERE id = $1 AND user_id = $2',
      [id, userId],
    );
    if (!row) throw notFound('Device');
    return row;
  };

  route(app, services, 'listDevices', async ({ userId, query, request }) => {
    return paginate(
      db,
      request,
      query,
      {
        select: 'SELECT * FROM devices WHERE user_id = $1',
        params: [userId],
        orderBy: 'id',
        count: 'SELECT count(*)::int AS count FROM devices WHERE user_id = $1',
      },
      deviceReply,
    );
  });

  route(app, services, 'bindDevice', async ({ userId, body, reply }) => {
    const serial = body.serial.toUpperCase();
    const [row] = await db.query<DeviceRow>(
      `INSERT INTO devices (user_id, serial, model, firmware_version, manufacture) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (serial) DO NOTHING RETURNING *`,
      [userId, serial, body.model, currentFirmware[body.model], 'XOSS'],
    );
    if (!row) {
      const [bound] = await db.query<{ user_id: number }>(
        'SELECT user_id FROM devices WHERE serial = $1',
        [serial],
      );
      if (bound && bound.user_id !== userId)
        throw new ApiError(
          ErrorCode.Conflict,
          'This device is bound to another account: unbind it there first, or contact support',
          { errors: [{ path: 'serial', message: 'Bound to another account' }] },
        );
      throw new ApiError(
        ErrorCode.ValidationFailed,
        'This device is already bound to your account',
        {
          errors: [{ path: 'serial', message: 'Already bound' }],
        },
      );
    }
    reply.status(201);
    return deviceReply(row);
  });

  route(app, services, 'getDevice', async ({ userId, params }) =>
    deviceReply(await own(userId, params.id)),
  );
  route(app, services, 'deleteDevice', async ({ userId, params }) => {
    const row = await own(userId, params.id);
    await db.query('DELETE FROM devices WHERE id = $1', [row.id]);
    return {};
  });

  route(app, services, 'getLayout', async ({ userId, params }) =>
    layoutOf(await own(userId, params.id), services.now()),
  );
  route(app, services, 'putLayout', async ({ userId, params, body }) => {
    const row = await own(userId, params.id);
    const parsed = parsePanels(body);
    if (!parsed.ok)
      throw new ApiError(
        ErrorCode.ValidationFailed,
        'The layout document is not a valid panels.json',
        {
          errors: parsed.error.map((problem) => ({
            path: problem.path,
            message: problem.message,
          })),
        },
      );
    const profile = profileFor(row.model)!;
    const problems = validate(parsed.value, profile);
    if (problems.length > 0)
      throw new ApiError(ErrorCode.ValidationFailed, `The layout does not fit a ${profile.name}`, {
        errors: problems.map((problem) => ({ path: problem.path, message: problem.message })),
      });
    const document = toPanelsObject({
      ...parsed.value,
      deviceModel: row.model,
      sn: row.serial,
      updatedAt: Math.floor(services.now() / 1000),
    });
    await db.query('UPDATE devices SET layout = $1 WHERE id = $2', [
      JSON.stringify(document),
      row.id,
    ]);
    return document;
  });
}
