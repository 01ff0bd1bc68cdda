// A rider's own data: the export archive, and deleting the account (on both databases).
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { demoGpx } from '../src/commands/seed.ts';
import {
  PASSWORD,
  bearer,
  fitFile,
  suiteHarnesses,
  upload,
  type DatabaseFactory,
  type Harness,
} from './harness.ts';

/** Every entry of a zip, by name. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (failed, stream) => {
          if (failed) return reject(failed);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A rider with one of everything: two rides (one shared), a routebook, a device, a zone, an article, a comment. */
async function busyRider(h: Harness) {
  const rider = await h.user();
  const auth = bearer(rider.access);
  const files = [fitFile(600, 31, 1_790_000_000), fitFile(900, 32, 1_790_100_000)];
  const rides: number[] = [];
  for (const [index, bytes] of files.entries()) {
    const reply = await upload(
      h,
      '/api/v2/workouts/',
      rider.access,
      { filename: `r${index}.fit`, bytes },
      index === 0 ? { name: '=HYPERLINK("x"), a "quoted", name' } : {},
    );
    expect(reply.statusCode).toBe(201);
    rides.push(reply.json<{ data: { id: number } }>().data.id);
  }
  const shared = await h.server.inject({
    method: 'PATCH',
    url: `/api/v2/workouts/${rides[0]}/`,
    headers: auth,
    payload: { shared: true, notes: 'Line one\nline two', gear: 'Canyon Ultimate' },
  });
  const shareId = shared.json<{ data: { share_id: string } }>().data.share_id;
  const gpx = new TextEncoder().encode(demoGpx(1, 600, false));
  const book = await upload(
    h,
    '/api/v2/routebooks/',
    rider.access,
    { filename: 'loop.gpx', bytes: gpx },
    { title: 'Loop' },
  );
  expect(book.statusCode).toBe(201);
  const serial = `NAV${String(rider.id).padStart(6, '0')}`;
  expect(
    (
      await h.server.inject({
        method: 'POST',
        url: '/api/v2/devices/',
        headers: auth,
        payload: { serial, model: 'NAV' },
      })
    ).statusCode,
  ).toBe(201);
  expect(
    (
      await h.server.inject({
        method: 'POST',
        url: '/api/v2/privacy-zones/',
        headers: auth,
        payload: { name: 'Home', latitude: 48.1, longitude: 11.5, radius_m: 300 },
      })
    ).statusCode,
  ).toBe(201);
  const post = (
    await h.server.inject({
      method: 'POST',
      url: '/api/v2/posts/',
      headers: auth,
      payload: { title: 'My loop', body: 'Ride it', language: 'en' },
    })
  ).json<{ data: { id: number } }>().data;
  await h.server.inject({
    method: 'POST',
    url: `/api/v2/posts/${post.id}/comments/`,
    headers: auth,
    payload: { body: 'Great loop' },
  });
  return {
    rider,
    auth,
    files,
    rides,
    shareId,
    gpx,
    routebook: book.json<{ data: { id: number } }>().data.id,
    serial,
    postId: post.id,
  };
}

export function defineAthleteDataSuite(makeFactory: () => Promise<DatabaseFactory>): void {
  const make = suiteHarnesses(makeFactory);

  describe('export', () => {
    it("streams a zip of everything the rider gave us, files byte for byte in Strava's layout, and only to them", async () => {
      const h = await make();
      const busy = await busyRider(h);
      const other = await h.user();
      const reply = await h.server.inject({
        method: 'GET',
        url: `/api/v2/athlete/${busy.rider.id}/export/`,
        headers: busy.auth,
      });
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-type']).toBe('application/zip');
      expect(reply.headers['content-disposition']).toMatch(/^attachment; filename="xoss-export-/);
      const entries = await unzip(reply.rawPayload);
      for (const [index, id] of busy.rides.entries())
        expect(entries.get(`activities/${id}.fit`)?.equals(Buffer.from(busy.files[index]!))).toBe(
          true,
        );
      expect(entries.get(`routebooks/${busy.routebook}.gpx`)?.equals(Buffer.from(busy.gpx))).toBe(
        true,
      );
      // The README names the portal's real way back in (the page an archive is imported on).
      const readme = [...entries.entries()].find(([name]) => /^README/i.test(name))![1];
      expect(readme.toString('utf8')).toContain('/dashboard/workouts/archive');
      const csv = entries.get('activities.csv')!.toString('utf8').split('\r\n');
      expect(csv[0]).toMatch(/^Activity ID,Activity Date,Activity Name,Activity Type,/);
      // A name a spreadsheet would run as a formula is written inert, quotes doubled.
      expect(csv[1]).toContain(`"'=HYPERLINK(""x""), a ""quoted"", name"`);
      expect(csv[1]).toContain(`activities/${busy.rides[0]}.fit`);
      // The gear goes in Strava's own column (an import of the archive reads it back).
      expect(csv[1]).toContain(`,Canyon Ultimate,activities/${busy.rides[0]}.fit,`);
      const rides = JSON.parse(entries.get('rides.json')!.toString('utf8')) as {
        id: number;
        notes: string;
        gear: string | null;
        summary: { timer_time_s: number };
      }[];
      expect(rides.map((ride) => ride.id)).toEqual(busy.rides);
      expect(rides[0]!).toMatchObject({ notes: 'Line one\nline two', gear: 'Canyon Ultimate' });
      expect(rides[1]!.summary.timer_time_s).toBe(900);
      const profile = JSON.parse(entries.get('profile.json')!.toString('utf8')) as {
        email: string;
        password_hash?: string;
      };
      expect(profile.email).toBe(busy.rider.email);
      expect(profile).not.toHaveProperty('password_hash');
      expect(JSON.parse(entries.get('devices.json')!.toString('utf8'))).toMatchObject([
        { serial: busy.serial, model: 'NAV' },
      ]);
      expect(JSON.parse(entries.get('privacy-zones.json')!.toString('utf8'))).toEqual([
        { name: 'Home', latitude: 48.1, longitude: 11.5, radius_m: 300 },
      ]);
      expect(JSON.parse(entries.get('comments.json')!.toString('utf8'))).toMatchObject({
        comments: [{ body: 'Great loop', article: 'My loop' }],
      });
      // Nobody else's: another rider, and no one signed out.
      const forbidden = await h.server.inject({
        method: 'GET',
        url: `/api/v2/athlete/${busy.rider.id}/export/`,
        headers: bearer(other.access),
      });
      expect(forbidden.statusCode).toBe(403);
      const anonymous = await h.server.inject({
        method: 'GET',
        url: `/api/v2/athlete/${busy.rider.id}/export/`,
      });
      expect(anonymous.statusCode).toBe(401);
    }); // several imports and argon2 hashes: past 5 s on a shared 2-core machine
  });

  describe('deleting the account', () => {
    it('asks for the password, then leaves no row and no file of the rider, their share link 404 and no way back in', async () => {
      const h = await make();
      const busy = await busyRider(h);
      // Another rider's things must stay.
      const other = await h.user();
      const kept = await upload(h, '/api/v2/workouts/', other.access, {
        filename: 'kept.fit',
        bytes: fitFile(600, 40),
      });
      expect(kept.statusCode).toBe(201);
      const keysBefore = await allKeys(h);
      const remove = (password: string) =>
        h.server.inject({
          method: 'DELETE',
          url: `/api/v2/athlete/${busy.rider.id}/`,
          headers: busy.auth,
          payload: { password },
        });
      const wrong = await remove('not the password');
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toMatchObject({ code: 10303 });
      expect(
        (await h.server.inject({ method: 'GET', url: `/api/v2/share/workouts/${busy.shareId}/` }))
          .statusCode,
      ).toBe(200);
      // Not someone else's account, even with the right password.
      const foreign = await h.server.inject({
        method: 'DELETE',
        url: `/api/v2/athlete/${other.id}/`,
        headers: busy.auth,
        payload: { password: PASSWORD },
      });
      expect(foreign.statusCode).toBe(403);

      const done = await remove(PASSWORD);
      expect(done.statusCode).toBe(200);
      expect(
        (await h.server.inject({ method: 'GET', url: `/api/v2/share/workouts/${busy.shareId}/` }))
          .statusCode,
      ).toBe(404);
      const login = await h.server.inject({
        method: 'POST',
        url: '/api/v1/jwt-token/',
        payload: { email: busy.rider.email, password: PASSWORD },
      });
      expect(login.statusCode).not.toBe(200);
      expect(
        (await h.server.inject({ method: 'GET', url: '/api/v2/workouts/', headers: busy.auth }))
          .statusCode,
      ).toBe(401);
      // No row anywhere names the rider: every column that refers to users, and the e-mail.
      expect(await rowsOf(h, busy.rider.id)).toEqual([]);
      expect(
        await h.db.query('SELECT id FROM users WHERE lower(email) = lower($1)', [busy.rider.email]),
      ).toEqual([]);
      expect(await h.db.query('SELECT id FROM posts WHERE id = $1', [busy.postId])).toEqual([]);
      // The store keeps only the other rider's files (and the maps' packages).
      const keysAfter = await allKeys(h);
      const otherRide = await h.db.query<{ file_key: string }>(
        'SELECT file_key FROM workouts WHERE user_id = $1',
        [other.id],
      );
      expect(keysAfter).toContain(otherRide[0]!.file_key);
      const goneKeys = keysBefore.filter((key) => !keysAfter.includes(key));
      expect(goneKeys.length).toBeGreaterThanOrEqual(5); // 2 files, 2 streams, 1 routebook
      expect(keysAfter.every((key) => keysBefore.includes(key))).toBe(true);
      for (const key of keysAfter)
        expect(
          (
            await h.db.query(
              `SELECT 1 FROM workouts WHERE file_key = $1 UNION ALL SELECT 1 FROM routebooks WHERE file_key = $1
             UNION ALL SELECT 1 FROM workout_streams WHERE blob_key = $1 UNION ALL SELECT 1 FROM map_regions WHERE file_key = $1`,
              [key],
            )
          ).length,
        ).toBe(1);
    }); // several imports and argon2 hashes: past 5 s on a shared 2-core machine
  });
}

async function allKeys(h: Harness): Promise<string[]> {
  const keys: string[] = [];
  for (const prefix of ['workouts', 'streams', 'routebooks', 'maps'])
    keys.push(...(await h.blobs.list(prefix)));
  return keys.sort();
}

/** Rows of any table whose user-referencing column holds `userId`. */
async function rowsOf(h: Harness, userId: number): Promise<string[]> {
  const columns = await h.db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name
       FROM information_schema.constraint_column_usage u
       JOIN information_schema.referential_constraints r ON r.unique_constraint_name = u.constraint_name
       JOIN information_schema.key_column_usage c ON c.constraint_name = r.constraint_name
      WHERE u.table_name = 'users' AND u.column_name = 'id' AND c.table_schema = 'public'`,
  );
  expect(columns.length).toBeGreaterThan(10);
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const [row] = await h.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "${table}" WHERE "${column}" = $1`,
      [userId],
    );
    if (row && row.count > 0) found.push(`${table}.${column}: ${row.count}`);
  }
  return found;
}
