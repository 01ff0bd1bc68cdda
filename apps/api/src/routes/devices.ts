import { ErrorCode, type Device } from '@xoss/api-contract';
import {
  defaultDocument,
  parsePanels,
  profileFor,
  toPanelsObject,
  validate,
} from '@xoss/data-fields';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound } from '../http/envelope.ts';
import { route } from '../http/route.ts';
import type { Services } from '../services.ts';
import {
  boundTo,
  deleteDevice,
  insertDevice,
  listDevices,
  ownDevice,
  saveLayout,
  type DeviceRow,
} from '../devices/store.ts';
import { pageReply } from './common.ts';

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
    const row = await ownDevice(db, userId, id);
    if (!row) throw notFound('Device');
    return row;
  };

  route(app, services, 'listDevices', async ({ userId, query, request }) =>
    pageReply(request, query, await listDevices(db, userId, query), deviceReply),
  );

  route(app, services, 'bindDevice', async ({ userId, body, reply }) => {
    const serial = body.serial.toUpperCase();
    const row = await insertDevice(db, {
      userId,
      serial,
      model: body.model,
      firmware: currentFirmware[body.model],
      manufacture: 'XOSS',
    });
    if (!row) {
      const owner = await boundTo(db, serial);
      if (owner !== undefined && owner !== userId)
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
    await deleteDevice(db, row.id);
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
    await saveLayout(db, row.id, document);
    return document;
  });
}
