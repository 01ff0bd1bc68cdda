import { describe, expect, it } from 'vitest';
import { demoGpx } from '../src/commands/seed.ts';
import { bearer, suiteHarnesses, upload, type DatabaseFactory, type Harness } from './harness.ts';

// Routebooks as riders use them: one opened, renamed, sent to a device, picked up by the
// phone app for that device and acknowledged; and every such call kept to the owner.

interface Book {
  id: number;
  title: string;
  description: string;
  devices: { device_id: number; marked_at: string; synced_at: string | null }[];
}

async function call<T>(
  h: Harness,
  access: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<{ status: number; body: { code: number; detail?: string; data: T } }> {
  const reply = await h.server.inject({
    method,
    url,
    headers: bearer(access),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  return { status: reply.statusCode, body: reply.json() };
}

async function newBook(h: Harness, access: string, title: string): Promise<Book> {
  const reply = await upload(
    h,
    '/api/v2/routebooks/',
    access,
    { filename: 'r.gpx', bytes: new TextEncoder().encode(demoGpx(3, 900, false)) },
    { title },
  );
  expect(reply.statusCode, reply.body).toBe(201);
  return reply.json<{ data: Book }>().data;
}

async function newDevice(h: Harness, access: string, serial: string): Promise<number> {
  const reply = await call<{ id: number }>(h, access, 'POST', '/api/v2/devices/', {
    serial,
    model: 'NAV+',
  });
  expect(reply.status).toBe(201);
  return reply.body.data.id;
}

export function defineRoutebooksSuite(makeFactory: () => Promise<DatabaseFactory>): void {
  const make = suiteHarnesses(makeFactory);

  describe('routebooks: open, rename, send to a device', () => {
    it('opens one routebook, renames it and changes its description, and refuses an empty rename', async () => {
      const h = await make();
      const rider = await h.user();
      const book = await newBook(h, rider.access, 'Bay loop');
      expect(book.devices).toEqual([]);
      const one = await call<Book>(h, rider.access, 'GET', `/api/v2/routebooks/${book.id}/`);
      expect(one.status).toBe(200);
      expect(one.body.data).toMatchObject({ id: book.id, title: 'Bay loop', devices: [] });

      const renamed = await call<Book>(h, rider.access, 'PATCH', `/api/v2/routebooks/${book.id}/`, {
        title: '  Coast road  ',
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data).toMatchObject({ title: 'Coast road', description: '' });
      const described = await call<Book>(
        h,
        rider.access,
        'PATCH',
        `/api/v2/routebooks/${book.id}/`,
        { description: 'Windy at the cape' },
      );
      expect(described.body.data).toMatchObject({
        title: 'Coast road',
        description: 'Windy at the cape',
      });

      for (const payload of [{}, { title: '   ' }, { title: 'x'.repeat(121) }, { owner: 2 }]) {
        const bad = await call(h, rider.access, 'PATCH', `/api/v2/routebooks/${book.id}/`, payload);
        expect(bad.status, JSON.stringify(payload)).toBe(400);
        expect(bad.body.code).toBe(10400);
      }
      const list = await call<{ results: Book[] }>(h, rider.access, 'GET', '/api/v2/routebooks/');
      expect(list.body.data.results.map((item) => item.title)).toEqual(['Coast road']);
    });

    it('sends a routebook to a device: the phone app lists it with its download, acknowledges it, and a second send brings it back', async () => {
      const h = await make();
      const rider = await h.user();
      const first = await newBook(h, rider.access, 'First');
      const second = await newBook(h, rider.access, 'Second');
      const nav = await newDevice(h, rider.access, 'NAVP0001');
      const other = await newDevice(h, rider.access, 'NAVP0002');

      const empty = await call<unknown[]>(
        h,
        rider.access,
        'GET',
        `/api/v2/devices/${nav}/routebooks/`,
      );
      expect(empty.status).toBe(200);
      expect(empty.body.data).toEqual([]);

      const sent = await call<Book>(
        h,
        rider.access,
        'POST',
        `/api/v2/routebooks/${second.id}/send/`,
        {
          device_id: nav,
        },
      );
      expect(sent.status).toBe(200);
      expect(sent.body.data.devices).toEqual([
        { device_id: nav, marked_at: expect.any(String) as string, synced_at: null },
      ]);
      await call(h, rider.access, 'POST', `/api/v2/routebooks/${first.id}/send/`, {
        device_id: nav,
      });

      // Waiting for the NAV+: both, in the order they were sent, each with its GPX link.
      const waiting = await call<{ id: number; title: string; download_url: string }[]>(
        h,
        rider.access,
        'GET',
        `/api/v2/devices/${nav}/routebooks/`,
      );
      expect(waiting.body.data.map((item) => item.title)).toEqual(['Second', 'First']);
      const link = waiting.body.data[0]!.download_url;
      expect(link).toBe(`/api/v2/routebooks/${second.id}/gpx/`);
      const gpx = await h.server.inject({
        method: 'GET',
        url: link,
        headers: bearer(rider.access),
      });
      expect(gpx.statusCode).toBe(200);
      expect(gpx.body).toContain('<gpx');
      // The other device has nothing waiting.
      const none = await call<unknown[]>(
        h,
        rider.access,
        'GET',
        `/api/v2/devices/${other}/routebooks/`,
      );
      expect(none.body.data).toEqual([]);

      // The app copied "Second" over: it leaves the list and shows as synced on the routebook.
      const synced = await call<{ synced: number }>(
        h,
        rider.access,
        'POST',
        `/api/v2/devices/${nav}/routebooks/synced/`,
        { routebook_ids: [second.id] },
      );
      expect(synced.body.data).toEqual({ synced: 1 });
      const again = await call<{ synced: number }>(
        h,
        rider.access,
        'POST',
        `/api/v2/devices/${nav}/routebooks/synced/`,
        { routebook_ids: [second.id] },
      );
      expect(again.body.data).toEqual({ synced: 0 });
      const after = await call<{ title: string }[]>(
        h,
        rider.access,
        'GET',
        `/api/v2/devices/${nav}/routebooks/`,
      );
      expect(after.body.data.map((item) => item.title)).toEqual(['First']);
      const book = await call<Book>(h, rider.access, 'GET', `/api/v2/routebooks/${second.id}/`);
      expect(book.body.data.devices[0]!.synced_at).toEqual(expect.any(String));

      // Sent again (deleted on the device, wanted back): waiting once more.
      await call(h, rider.access, 'POST', `/api/v2/routebooks/${second.id}/send/`, {
        device_id: nav,
      });
      const back = await call<{ title: string }[]>(
        h,
        rider.access,
        'GET',
        `/api/v2/devices/${nav}/routebooks/`,
      );
      expect(back.body.data.map((item) => item.title)).toEqual(['First', 'Second']);

      // Bad acknowledgements are 400 with the field named.
      for (const payload of [
        {},
        { routebook_ids: [] },
        { routebook_ids: ['x'] },
        { routebook_ids: [0] },
      ]) {
        const bad = await call(
          h,
          rider.access,
          'POST',
          `/api/v2/devices/${nav}/routebooks/synced/`,
          payload,
        );
        expect(bad.status, JSON.stringify(payload)).toBe(400);
        expect(bad.body.code).toBe(10400);
      }
      const noDevice = await call(
        h,
        rider.access,
        'POST',
        `/api/v2/routebooks/${first.id}/send/`,
        {},
      );
      expect(noDevice.status).toBe(400);

      // Deleting the device or the routebook takes its marks with it.
      await call(h, rider.access, 'DELETE', `/api/v2/routebooks/${first.id}/`);
      const left = await call<{ title: string }[]>(
        h,
        rider.access,
        'GET',
        `/api/v2/devices/${nav}/routebooks/`,
      );
      expect(left.body.data.map((item) => item.title)).toEqual(['Second']);
      await call(h, rider.access, 'DELETE', `/api/v2/devices/${nav}/`);
      const marks = await h.db.query('SELECT * FROM routebook_syncs');
      expect(marks).toEqual([]);
    });

    it("keeps other riders' routebooks and devices out: 404 for each, nothing marked", async () => {
      const h = await make();
      const a = await h.user();
      const b = await h.user();
      const book = await newBook(h, a.access, 'Mine');
      const device = await newDevice(h, a.access, 'NAVA0001');
      const theirs = await newDevice(h, b.access, 'NAVB0001');
      const theirBook = await newBook(h, b.access, 'Theirs');

      for (const [method, url, payload] of [
        ['GET', `/api/v2/routebooks/${book.id}/`, undefined],
        ['PATCH', `/api/v2/routebooks/${book.id}/`, { title: 'Stolen' }],
        ['POST', `/api/v2/routebooks/${book.id}/send/`, { device_id: theirs }],
        ['GET', `/api/v2/devices/${device}/routebooks/`, undefined],
        ['POST', `/api/v2/devices/${device}/routebooks/synced/`, { routebook_ids: [book.id] }],
      ] as const) {
        const reply = await call(h, b.access, method, url, payload);
        expect(reply.status, `${method} ${url}`).toBe(404);
        expect(reply.body.code).toBe(10404);
      }
      // B's own routebook to A's device, and A's routebook to B's device: 404 both ways.
      const toTheirDevice = await call(
        h,
        b.access,
        'POST',
        `/api/v2/routebooks/${theirBook.id}/send/`,
        {
          device_id: device,
        },
      );
      expect(toTheirDevice.status).toBe(404);
      expect(toTheirDevice.body.detail).toMatch(/Device/);
      const fromA = await call(h, a.access, 'POST', `/api/v2/routebooks/${book.id}/send/`, {
        device_id: theirs,
      });
      expect(fromA.status).toBe(404);
      expect(await h.db.query('SELECT * FROM routebook_syncs')).toEqual([]);
      const kept = await call<Book>(h, a.access, 'GET', `/api/v2/routebooks/${book.id}/`);
      expect(kept.body.data.title).toBe('Mine');

      // A's device acknowledging B's routebook changes nothing of B's.
      await call(h, b.access, 'POST', `/api/v2/routebooks/${theirBook.id}/send/`, {
        device_id: theirs,
      });
      const foreign = await call<{ synced: number }>(
        h,
        a.access,
        'POST',
        `/api/v2/devices/${device}/routebooks/synced/`,
        { routebook_ids: [theirBook.id] },
      );
      expect(foreign.body.data).toEqual({ synced: 0 });
      const still = await call<{ id: number }[]>(
        h,
        b.access,
        'GET',
        `/api/v2/devices/${theirs}/routebooks/`,
      );
      expect(still.body.data.map((item) => item.id)).toEqual([theirBook.id]);
    });
  });
}
