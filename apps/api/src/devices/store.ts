import type { Device } from '@xoss/api-contract';
import type { Queryable } from '../platform/db/db.ts';
import { pageOf, type PageWindow, type RowPage } from '../platform/db/page.ts';

// The devices table: a rider's bound bike computers and their saved data pages.

export interface DeviceRow {
  id: number;
  user_id: number;
  serial: string;
  model: Device['model'];
  firmware_version: string;
  manufacture: string;
  layout: Record<string, unknown> | null;
  created_at: Date;
}

/** The rider's device `id`, or undefined when it is not theirs (or not there). */
export async function ownDevice(
  db: Queryable,
  userId: number | undefined,
  id: number,
): Promise<DeviceRow | undefined> {
  const [row] = await db.query<DeviceRow>('SELECT * FROM devices WHERE id = $1 AND user_id = $2', [
    id,
    userId,
  ]);
  return row;
}

/** One page of the rider's devices, in the order they were bound. */
export function listDevices(
  db: Queryable,
  userId: number | undefined,
  window: PageWindow,
): Promise<RowPage<DeviceRow>> {
  return pageOf<DeviceRow>(
    db,
    {
      select: 'SELECT * FROM devices WHERE user_id = $1',
      params: [userId],
      orderBy: 'id',
      count: 'SELECT count(*)::int AS count FROM devices WHERE user_id = $1',
    },
    window,
  );
}

/**
 * Binds a device to the rider; undefined when its serial is bound already (to anyone:
 * `boundTo` tells whom).
 */
export async function insertDevice(
  db: Queryable,
  device: {
    userId: number | undefined;
    serial: string;
    model: Device['model'];
    firmware: string;
    manufacture: string;
  },
): Promise<DeviceRow | undefined> {
  const [row] = await db.query<DeviceRow>(
    `INSERT INTO devices (user_id, serial, model, firmware_version, manufacture) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (serial) DO NOTHING RETURNING *`,
    [device.userId, device.serial, device.model, device.firmware, device.manufacture],
  );
  return row;
}

/** The user a serial number is bound to, if any. */
export async function boundTo(db: Queryable, serial: string): Promise<number | undefined> {
  const [bound] = await db.query<{ user_id: number }>(
    'SELECT user_id FROM devices WHERE serial = $1',
    [serial],
  );
  return bound?.user_id;
}

export async function deleteDevice(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM devices WHERE id = $1', [id]);
}

/** Stores a device's data pages (a panels.json object). */
export async function saveLayout(
  db: Queryable,
  id: number,
  document: Record<string, unknown>,
): Promise<void> {
  await db.query('UPDATE devices SET layout = $1 WHERE id = $2', [JSON.stringify(document), id]);
}
