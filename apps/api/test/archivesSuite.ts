// Export archives imported in one go (on both databases): Strava's layout, Garmin Connect's
// nested zips, our own export back in, and hostile archives.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { ZipFile } from 'yazl';
import { demoGpx } from '../src/seed.ts';
import {
  bearer,
  fitFile,
  suiteHarnesses,
  upload,
  type DatabaseFactory,
  type Harness,
} from './harness.ts';

type Entry = readonly [name: string, bytes: Uint8Array | string, mode?: number];

/** A zip of `entries` (names as given: yazl refuses unsafe ones, so those are patched in after). */
function zipOf(
  entries: readonly Entry[],
  patches: readonly [string, string][] = [],
): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, bytes, mode] of entries)
    zip.addBuffer(Buffer.from(bytes), name, mode === undefined ? {} : { mode });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => {
      const bytes = Buffer.concat(chunks);
      // A name yazl will not write ("../x", "/x"): written as a stand-in of the same length,
      // then swapped in the local header and the central directory.
      for (const [from, to] of patches) {
        const a = Buffer.from(from);
        const b = Buffer.from(to);
        for (let at = bytes.indexOf(a); at !== -1; at = bytes.indexOf(a, at + 1)) b.copy(bytes, at);
      }
      resolve(bytes);
    });
  });
}

/** Letters that do not compress much (a fixed sequence: the same every run). */
function noise(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = 12345;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = 97 + ((state >>> 16) % 26);
  }
  return bytes;
}

const corpusTcx = (name: string) =>
  readFileSync(
    new URL(`../../../packages/activity-files/test/corpus/tcx/${name}`, import.meta.url),
  );

export function defineArchivesSuite(makeFactory: () => Promise<DatabaseFactory>): void {
  const make = suiteHarnesses(makeFactory);

  const send = async (h: Harness, access: string, zip: Buffer, filename = 'export.zip') =>
    upload(h, '/api/v2/imports/archives/', access, { filename, bytes: new Uint8Array(zip) });

  const progressOf = async (h: Harness, access: string, id: string) => {
    const reply = await h.server.inject({
      method: 'GET',
      url: `/api/v2/imports/archives/${id}/`,
      headers: bearer(access),
    });
    expect(reply.statusCode).toBe(200);
    return reply.json<{
      data: {
        status: string;
        total: number;
        done: number;
        imported: number;
        duplicates: number;
        failed: number;
        failures: { name: string; code: string; message: string }[];
        error: { code: string } | null;
      };
    }>().data;
  };

  const finished = (h: Harness, access: string, id: string) =>
    vi.waitFor(
      async () => {
        const progress = await progressOf(h, access, id);
        expect(['done', 'failed', 'cancelled']).toContain(progress.status);
        return progress;
      },
      { timeout: 60_000, interval: 200 },
    );

  const rides = async (h: Harness, access: string) =>
    (
      await h.server.inject({
        method: 'GET',
        url: '/api/v2/workouts/?page_size=100',
        headers: bearer(access),
      })
    ).json<{ data: { results: { id: number; name: string; sport_type: number }[] } }>().data
      .results;

  describe('archives', () => {
    it('imports a Strava bulk export: names, sport, notes from activities.csv, duplicates counted, failures named', async () => {
      const h = await make();
      const rider = await h.user();
      const known = fitFile(600, 51, 1_780_000_000);
      expect(
        (await upload(h, '/api/v2/workouts/', rider.access, { filename: 'k.fit', bytes: known }))
          .statusCode,
      ).toBe(201);
      const csv =
        'Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,Distance,Activity Gear,Filename,Elapsed Time,Distance\n' +
        '1,"Jan 1, 2026, 8:00:00 AM","Morning, ""easy"" spin",Ride,"Legs\nfelt good",600,5.1,Canyon,activities/1.fit.gz,600,5100\n' +
        '2,"Jan 2, 2026, 8:00:00 AM",Lunch run,Run,,900,3,,activities/2.tcx,900,3000\n' +
        '3,"Jan 3, 2026, 8:00:00 AM",=cmd|calc,Ride,,600,5,,activities/3.gpx.gz,600,5000\n' +
        '4,"Jan 4, 2026, 8:00:00 AM",Known,Ride,,600,5,,activities/4.fit,600,5000\n' +
        '5,"Jan 5, 2026, 8:00:00 AM",Broken,Ride,,600,5,,activities/5.fit,600,5000\n';
      const zip = await zipOf([
        ['activities.csv', csv],
        ['activities/1.fit.gz', gzipSync(fitFile(600, 52, 1_767_254_400))],
        ['activities/2.tcx', corpusTcx('dblock-tcx-running_activity_1.tcx')],
        ['activities/3.gpx.gz', gzipSync(demoGpx(53, 600, true))],
        ['activities/4.fit', known],
        ['activities/5.fit', 'not a ride at all'],
        ['media/photo.jpg', 'jpeg'],
      ]);
      const created = await send(h, rider.access, zip);
      expect(created.statusCode).toBe(202);
      const { id } = created.json<{ data: { id: string } }>().data;
      const progress = await finished(h, rider.access, id);
      expect(progress).toMatchObject({
        status: 'done',
        total: 5,
        done: 5,
        imported: 3,
        duplicates: 1,
        failed: 1,
      });
      expect(progress.failures).toMatchObject([{ name: 'activities/5.fit', code: '10415' }]);
      expect(progress.failures[0]!.message).toMatch(/cannot be read/);
      const list = await rides(h, rider.access);
      expect(list).toHaveLength(4);
      const byName = new Map(list.map((ride) => [ride.name, ride]));
      expect(byName.get('Morning, "easy" spin')?.sport_type).toBe(2);
      expect(byName.get('Lunch run')?.sport_type).toBe(1);
      // A name a spreadsheet would run is kept as text (shown, never run).
      expect(byName.has('=cmd|calc')).toBe(true);
      const morning = (
        await h.server.inject({
          method: 'GET',
          url: `/api/v2/workouts/${byName.get('Morning, "easy" spin')!.id}/`,
          headers: bearer(rider.access),
        })
      ).json<{ data: { notes: string } }>().data;
      expect(morning.notes).toBe('Legs\nfelt good\nGear: Canyon');
      // Nobody else's.
      const other = await h.user();
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/imports/archives/${id}/`,
            headers: bearer(other.access),
          })
        ).statusCode,
      ).toBe(404);
    }, 60_000);

    it("imports Garmin Connect's nested zips one level deep, and our own export back in", async () => {
      const h = await make();
      const rider = await h.user();
      const part = await zipOf([
        ['a_ACTIVITY.fit', fitFile(600, 61, 1_770_000_000)],
        ['b_ACTIVITY.fit', fitFile(700, 62, 1_770_100_000)],
        ['deeper.zip', await zipOf([['c.fit', fitFile(600, 63, 1_770_200_000)]])],
      ]);
      const garmin = await zipOf([
        ['DI_CONNECT/DI-Connect-Fitness/summary.json', '{}'],
        ['DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip', part],
      ]);
      const created = await send(h, rider.access, garmin);
      const progress = await finished(
        h,
        rider.access,
        created.json<{ data: { id: string } }>().data.id,
      );
      expect(progress).toMatchObject({ status: 'done', total: 3, imported: 2, failed: 1 });
      expect(progress.failures[0]).toMatchObject({ code: 'nestedTooDeep' });

      // Our export of this rider, imported by another: the same rides, the same names.
      const exported = await h.server.inject({
        method: 'GET',
        url: `/api/v2/athlete/${rider.id}/export/`,
        headers: bearer(rider.access),
      });
      expect(exported.statusCode).toBe(200);
      const newcomer = await h.user();
      const back = await send(h, newcomer.access, exported.rawPayload, 'xoss-export.zip');
      const again = await finished(
        h,
        newcomer.access,
        back.json<{ data: { id: string } }>().data.id,
      );
      expect(again).toMatchObject({ status: 'done', total: 2, imported: 2, failed: 0 });
      const names = (rides: { name: string }[]) => rides.map((ride) => ride.name).sort();
      expect(names(await rides(h, newcomer.access))).toEqual(names(await rides(h, rider.access)));
    }, 60_000);

    it('skips unsafe names, links, bombs, oversized entries and a broken activities.csv, each with its reason', async () => {
      const h = await make({ maxFitBytes: 2 * 1024 * 1024 });
      const rider = await h.user();
      const zip = await zipOf(
        [
          [
            'activities.csv',
            'Activity ID,Activity Name,Filename\n1,"never closed,activities/ok.fit\n',
          ],
          ['activities/ok.fit', fitFile(600, 71, 1_775_000_000)],
          ['xx/evil.fit', fitFile(600, 72, 1_775_100_000)],
          ['Xabs.fit', fitFile(600, 73, 1_775_200_000)],
          ['activities/link.fit', '/etc/passwd', 0o120777],
          ['activities/bomb.fit', Buffer.alloc(20 * 1024 * 1024)],
          ['activities/huge.gpx', noise(3 * 1024 * 1024)],
        ],
        [
          ['xx/evil.fit', '../evil.fit'],
          ['Xabs.fit', '/abs.fit'],
        ],
      );
      const created = await send(h, rider.access, zip);
      expect(created.statusCode).toBe(202);
      const progress = await finished(
        h,
        rider.access,
        created.json<{ data: { id: string } }>().data.id,
      );
      expect(progress.status).toBe('done');
      expect(progress.imported).toBe(1);
      const codes = Object.fromEntries(
        progress.failures.map((failure) => [failure.name, failure.code]),
      );
      expect(codes).toMatchObject({
        'activities.csv': 'csv',
        '../evil.fit': 'unsafePath',
        '/abs.fit': 'unsafePath',
        'activities/link.fit': 'link',
        'activities/bomb.fit': 'zipBomb',
        'activities/huge.gpx': 'tooLarge',
      });
      expect(await rides(h, rider.access)).toHaveLength(1);
    }, 60_000);

    it('refuses what is not a zip, and files that are not .zip, with a reason', async () => {
      const h = await make();
      const rider = await h.user();
      const wrongType = await send(h, rider.access, Buffer.from('hello'), 'ride.fit');
      expect(wrongType.statusCode).toBe(415);
      const created = await send(h, rider.access, Buffer.from('not a zip at all'));
      expect(created.statusCode).toBe(202);
      const progress = await finished(
        h,
        rider.access,
        created.json<{ data: { id: string } }>().data.id,
      );
      expect(progress).toMatchObject({ status: 'failed', error: { code: 'notZip' } });
    }, 60_000);

    it('walks an archive again (a restart) without importing anything twice, and stops when cancelled', async () => {
      const h = await make();
      const rider = await h.user();
      const zip = await zipOf(
        Array.from(
          { length: 4 },
          (_, i) =>
            [`activities/${i}.fit`, fitFile(300, 80 + i, 1_776_000_000 + i * 10_000)] as const,
        ),
      );
      const created = await send(h, rider.access, zip);
      const { id } = created.json<{ data: { id: string } }>().data;
      await finished(h, rider.access, id);
      // As if the walk had died before recording its progress: it starts over, from a copy.
      await h.db.query(
        "UPDATE archive_imports SET status = 'running', next_entry = 0, finished_at = NULL WHERE id = $1",
        [id],
      );
      await h.blobs.put(`archives/${id}.zip`, zip);
      await h.server.importJobs.boss.send(
        'archive-import',
        { archiveId: id },
        { id: crypto.randomUUID(), group: { id: String(rider.id) } },
      );
      await vi.waitFor(
        async () => {
          const [row] = await h.db.query<{ next_entry: number }>(
            'SELECT next_entry FROM archive_imports WHERE id = $1',
            [id],
          );
          expect(row!.next_entry).toBe(4);
        },
        { timeout: 30_000 },
      );
      expect(await finished(h, rider.access, id)).toMatchObject({
        imported: 4,
        duplicates: 0,
        failed: 0,
      });
      expect(await rides(h, rider.access)).toHaveLength(4);
      // Cancelling a finished import changes nothing; another rider cannot.
      const other = await h.user();
      expect(
        (
          await h.server.inject({
            method: 'DELETE',
            url: `/api/v2/imports/archives/${id}/`,
            headers: bearer(other.access),
          })
        ).statusCode,
      ).toBe(404);

      // A long archive cancelled at once: what was queued is given up, the walk stops.
      const long = await zipOf(
        Array.from(
          { length: 24 },
          (_, i) =>
            [`activities/${i}.fit`, fitFile(300, 90 + i, 1_777_000_000 + i * 10_000)] as const,
        ),
      );
      const started = await send(h, rider.access, long);
      const longId = started.json<{ data: { id: string } }>().data.id;
      const cancelled = await h.server.inject({
        method: 'DELETE',
        url: `/api/v2/imports/archives/${longId}/`,
        headers: bearer(rider.access),
      });
      expect(cancelled.json()).toMatchObject({ data: { status: 'cancelled' } });
      await vi.waitFor(
        async () => {
          const [row] = await h.db.query<{ pending: number }>(
            "SELECT count(*)::int AS pending FROM imports WHERE archive_id = $1 AND status IN ('uploading', 'queued')",
            [longId],
          );
          expect(row!.pending).toBe(0);
        },
        { timeout: 30_000 },
      );
      const after = await progressOf(h, rider.access, longId);
      expect(after.status).toBe('cancelled');
      expect(after.imported).toBeLessThan(24);
      expect((await rides(h, rider.access)).length).toBe(4 + after.imported);
    }, 60_000);
  });
}
