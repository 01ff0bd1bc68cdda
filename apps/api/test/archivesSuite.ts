// Export archives imported in one go (on both databases): Strava's layout, Garmin Connect's
// nested zips, our own export back in, and hostile archives.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { ZipFile } from 'yazl';
import { demoGpx } from '../src/commands/seed.ts';
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

/**
 * A zip of many small entries stored as they are, written here (yazl queues a deflate per
 * entry: 99,999 of them took half a minute): local headers, then the central directory.
 */
function storedZip(entries: readonly (readonly [name: string, text: string])[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const nameBytes = Buffer.from(name);
    const data = Buffer.from(text);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, data);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(nameBytes.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(central);
  // More than 65,535 entries: their count is in the ZIP64 end record (and its locator).
  const zip64 = Buffer.alloc(56 + 20);
  zip64.writeUInt32LE(0x06064b50, 0);
  zip64.writeBigUInt64LE(44n, 4);
  zip64.writeUInt16LE(45, 12);
  zip64.writeUInt16LE(45, 14);
  zip64.writeBigUInt64LE(BigInt(entries.length), 24);
  zip64.writeBigUInt64LE(BigInt(entries.length), 32);
  zip64.writeBigUInt64LE(BigInt(directory.length), 40);
  zip64.writeBigUInt64LE(BigInt(offset), 48);
  zip64.writeUInt32LE(0x07064b50, 56);
  zip64.writeBigUInt64LE(BigInt(offset + directory.length), 64);
  zip64.writeUInt32LE(1, 72);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, zip64, end]);
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

/** The smallest zip there is: an end of central directory and nothing else. */
const EMPTY_ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);

/** `zip` with the central directory's unpacked size of `name` changed to `bytes` (a lie). */
function lyingSize(zip: Buffer, name: string, bytes: number): Buffer {
  const copy = Buffer.from(zip);
  for (let at = copy.indexOf('PK\x01\x02', 0, 'latin1'); at !== -1;) {
    const nameLength = copy.readUInt16LE(at + 28);
    if (copy.subarray(at + 46, at + 46 + nameLength).toString() === name) {
      copy.writeUInt32LE(bytes, at + 24);
      return copy;
    }
    at = copy.indexOf('PK\x01\x02', at + 4, 'latin1');
  }
  throw new Error(`${name} is not in the zip`);
}

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
        error: { code: string; message: string } | null;
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
      { interval: 200 },
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
      // What was not imported, failures first, then what was already here, by name. An
      // entry that is no activity by its first bytes is skipped without an import.
      expect(progress.failures).toMatchObject([
        { name: 'activities/5.fit', code: 'notActivity' },
        { name: 'activities/4.fit', code: 'duplicate' },
      ]);
      expect(progress.failures[0]!.message).toMatch(/^Not an activity file/);
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
      ).json<{ data: { notes: string; gear: string | null } }>().data;
      // Strava's "Activity Gear" is the ride's gear, not a line of its notes.
      expect(morning).toMatchObject({ notes: 'Legs\nfelt good', gear: 'Canyon' });
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
    });

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
    });

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
    });

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
    });

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
      await vi.waitFor(async () => {
        const [row] = await h.db.query<{ next_entry: number }>(
          'SELECT next_entry FROM archive_imports WHERE id = $1',
          [id],
        );
        expect(row!.next_entry).toBe(4);
      });
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
      await vi.waitFor(async () => {
        const [row] = await h.db.query<{ pending: number }>(
          "SELECT count(*)::int AS pending FROM imports WHERE archive_id = $1 AND status IN ('uploading', 'queued')",
          [longId],
        );
        expect(row!.pending).toBe(0);
      });
      const after = await progressOf(h, rider.access, longId);
      expect(after.status).toBe('cancelled');
      expect(after.imported).toBeLessThan(24);
      expect((await rides(h, rider.access)).length).toBe(4 + after.imported);
    });

    /**
     * An archive of three rides whose cancel is sent, and awaited, as its walk queues the first
     * entry: before the query that contains `at.query`, or before the file written under a key
     * that starts with `at.put`. The walk's job is then waited for to its end.
     */
    const cancelInsideWalk = async (
      h: Harness,
      access: string,
      at: { readonly query?: string; readonly put?: string },
    ) => {
      const zip = await zipOf(
        Array.from(
          { length: 3 },
          (_, i) =>
            [`activities/${i}.fit`, fitFile(300, 75 + i, 1_776_000_000 + i * 10_000)] as const,
        ),
      );
      let archiveId: string | undefined;
      let cancelled: Promise<unknown> | undefined;
      const fire = async () => {
        if (cancelled || archiveId === undefined) return;
        cancelled = h.server.inject({
          method: 'DELETE',
          url: `/api/v2/imports/archives/${archiveId}/`,
          headers: bearer(access),
        });
        await cancelled;
      };
      // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its db below
      const query = h.db.query;
      const queries = vi.spyOn(h.db, 'query').mockImplementation(async function (
        this: typeof h.db,
        ...args: Parameters<typeof query>
      ) {
        const text = String(args[0]);
        // The archive's id from the walk's first write (it may come before the upload's reply).
        if (text.includes("SET status = 'running', walking_since"))
          archiveId = String((args[1] as unknown[] | undefined)?.[0]);
        if (at.query !== undefined && text.includes(at.query)) await fire();
        return query.apply(this, args);
      });
      // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its store below
      const put = h.blobs.put;
      const puts = vi.spyOn(h.blobs, 'put').mockImplementation(async function (
        this: typeof h.blobs,
        ...args: Parameters<typeof put>
      ) {
        if (at.put !== undefined && args[0].startsWith(at.put)) await fire();
        return put.apply(this, args);
      });
      try {
        await send(h, access, zip);
        await vi.waitFor(() => expect(cancelled).toBeDefined());
        await cancelled;
        await vi.waitFor(async () => {
          const [row] = await query.call(h.db, 'SELECT job_id FROM archive_imports WHERE id = $1', [
            archiveId,
          ]);
          const job = await h.server.importJobs.boss.getJobById(
            'archive-import',
            (row as { job_id: string | null } | undefined)?.job_id ?? archiveId!,
          );
          expect(job?.state).toBe('completed');
        });
      } finally {
        queries.mockRestore();
        puts.mockRestore();
      }
      return archiveId!;
    };

    it('keeps a cancel that lands as the walk starts: nothing is imported (interleaving forced)', async () => {
      const h = await make();
      const rider = await h.user();
      // Forced: the rider's cancel is written after the job has claimed the archive and
      // before its walk marks it running (with the old write it went on and imported all three).
      const id = await cancelInsideWalk(h, rider.access, {
        query: "SET status = 'running', walking_since",
      });
      expect((await progressOf(h, rider.access, id)).status).toBe('cancelled');
      expect(await rides(h, rider.access)).toHaveLength(0);
    });

    it('keeps a cancel that lands while an entry is being queued, before its row (interleaving forced)', async () => {
      const h = await make();
      const rider = await h.user();
      // Forced: the cancel is written after the walk's last look at its status and before the
      // first entry's import row is made (its duplicate check is the last step before).
      const id = await cancelInsideWalk(h, rider.access, {
        query: 'FROM workouts WHERE user_id = $1 AND file_sha256',
      });
      expect((await progressOf(h, rider.access, id)).status).toBe('cancelled');
      // Without the archive's check in the entry's first transaction, all three were imported.
      expect(await h.db.query('SELECT id FROM imports WHERE archive_id = $1', [id])).toEqual([]);
      expect(await rides(h, rider.access)).toHaveLength(0);
      expect(await h.blobs.list('workouts')).toEqual([]);
    });

    it('keeps a cancel that lands while an entry is being queued, between its row and its job (interleaving forced)', async () => {
      const h = await make();
      const rider = await h.user();
      // Forced: the cancel is written once the first entry's row is made (`uploading`) and
      // before its file is written and its job sent.
      const id = await cancelInsideWalk(h, rider.access, { put: 'workouts/' });
      expect((await progressOf(h, rider.access, id)).status).toBe('cancelled');
      // The entry's row stays given up, with no job; unguarded, it became queued and its ride
      // was imported after the cancel had answered.
      expect(
        await h.db.query<{ status: string }>('SELECT status FROM imports WHERE archive_id = $1', [
          id,
        ]),
      ).toEqual([{ status: 'given_up' }]);
      expect(await rides(h, rider.access)).toHaveLength(0);
      // Its file, written after the cancel looked for it, is gone too.
      expect(await h.blobs.list('workouts')).toEqual([]);
    });

    it('survives a fuzz of hostile archives: each ends with its reason, the server stays up, nothing is left behind', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'xoss-archive-fuzz-'));
      try {
        const h = await make(
          { maxArchiveBytes: 4 * 1024 * 1024, maxArchiveEntries: 2_000 },
          { dataDir },
        );
        const rider = await h.user();
        const ride = (i: number) => fitFile(300, 60 + i, 1_778_000_000 + i * 10_000);
        const archive = async (zip: Buffer) => {
          const created = await send(h, rider.access, zip);
          expect(created.statusCode).toBe(202);
          return finished(h, rider.access, created.json<{ data: { id: string } }>().data.id);
        };
        const fuzz: [string, Buffer, Record<string, unknown>][] = [
          [
            // The attack that crashed the server: thousands of zips inside the archive.
            'empty nested zips past the limit of zips',
            await zipOf(
              Array.from({ length: 1_100 }, (_, i) => [`nested-${i}.zip`, EMPTY_ZIP] as const),
            ),
            { status: 'failed', error: { code: 'tooManyZips' } },
          ],
          [
            // Each nested zip under the limit of entries, all of them together over it.
            'nested zips whose entries pass the whole archive limit together',
            await zipOf(
              await Promise.all(
                Array.from(
                  { length: 5 },
                  async (_, z) =>
                    [
                      `UploadedFiles_${z}.zip`,
                      await zipOf(
                        Array.from({ length: 500 }, (_, i) => [`${i}.txt`, 'x'] as const),
                      ),
                    ] as const,
                ),
              ),
            ),
            { status: 'failed', error: { code: 'tooManyEntries' } },
          ],
          [
            'many tiny entries',
            await zipOf(Array.from({ length: 2_500 }, (_, i) => [`media/${i}.txt`, ''] as const)),
            { status: 'failed', error: { code: 'tooManyEntries' } },
          ],
          [
            'a NUL byte in a name between two rides',
            await zipOf(
              [
                ['activities/a.fit', ride(1)],
                ['activities/nXl.fit', ride(2)],
                ['activities/z.fit', ride(3)],
              ],
              [['activities/nXl.fit', 'activities/n\u0000l.fit']],
            ),
            {
              status: 'done',
              imported: 2,
              failures: [{ name: 'activities/n\ufffdl.fit', code: 'unsafePath' }],
            },
          ],
          [
            'a size that lies',
            lyingSize(
              await zipOf([
                ['activities/liar.fit', ride(4)],
                ['activities/honest.fit', ride(5)],
              ]),
              'activities/liar.fit',
              100,
            ),
            { status: 'done', imported: 1, failures: [{ code: 'badEntry' }] },
          ],
          [
            'a truncated archive',
            (await zipOf([['activities/cut.fit', ride(6)]])).subarray(0, 400),
            { status: 'failed', error: { code: 'notZip' } },
          ],
        ];
        for (const [what, zip, expected] of fuzz) {
          const progress = await archive(zip);
          expect(progress, what).toMatchObject(expected);
          expect((progress.error?.message ?? 'ok').length, what).toBeGreaterThan(0);
          const health = await h.server.inject({ method: 'GET', url: '/api/health' });
          expect(health.statusCode, what).toBe(200);
        }
        // Over the size limit: 413 at once, and neither a row nor a file is kept.
        const tooLarge = await send(h, rider.access, Buffer.concat([noise(4 * 1024 * 1024 + 1)]));
        expect(tooLarge.statusCode).toBe(413);
        const [{ count }] = (await h.db.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM archive_imports WHERE user_id = $1',
          [rider.id],
        )) as [{ count: number }];
        expect(count).toBe(fuzz.length);
        // Nothing left: no archive in the store, no temporary file, none counted in the quota.
        await vi.waitFor(async () => {
          expect(await h.blobs.list('archives')).toEqual([]);
          expect(readdirSync(join(dataDir, 'tmp', 'archives'))).toEqual([]);
        });
        const stored = await h.db.query<{ stored: number }>(
          'SELECT stored_bytes::int AS stored FROM archive_imports WHERE user_id = $1',
          [rider.id],
        );
        expect(stored.every((row) => row.stored === 0)).toBe(true);
        // Each failure said once in the log, with its reason.
        expect(h.logs.filter((line) => line.includes('archive import failed'))).toHaveLength(4);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it("gives riders' archives turns: a long archive does not hold another rider's short one", async () => {
      const h = await make();
      const busy = await h.user();
      const quick = await h.user();
      // Hundreds of small entries that each fail on their own.
      const long = await zipOf(
        Array.from({ length: 600 }, (_, i) => [`activities/${i}.gpx`, `<gpx>${i}</gpx>`] as const),
      );
      const longId = (await send(h, busy.access, long)).json<{ data: { id: string } }>().data.id;
      await vi.waitFor(
        async () => expect((await progressOf(h, busy.access, longId)).status).toBe('running'),
        { interval: 100 },
      );
      const short = await zipOf([['activities/one.fit', fitFile(300, 77, 1_779_500_000)]]);
      const shortId = (await send(h, quick.access, short)).json<{ data: { id: string } }>().data.id;
      const done = await finished(h, quick.access, shortId);
      expect(done).toMatchObject({ status: 'done', imported: 1 });
      // The long one is still under way: the short one did not wait for it.
      const meanwhile = await progressOf(h, busy.access, longId);
      expect(meanwhile.status).toBe('running');
      expect(meanwhile.done).toBeLessThan(600);
      await h.server.inject({
        method: 'DELETE',
        url: `/api/v2/imports/archives/${longId}/`,
        headers: bearer(busy.access),
      });
    });

    it("starts a sixth rider's one-ride archive while five riders' archives of 99,999 entries that are not activities walk", async () => {
      const h = await make();
      // 99,999 tiny entries named as rides (12 MB of zip): each is refused by its first
      // bytes, never an import job.
      const junk = storedZip(
        Array.from({ length: 99_999 }, (_, i) => [`rides/${i}.fit`, `not a ride ${i}`] as const),
      );
      const busy = await Promise.all(Array.from({ length: 5 }, () => h.user()));
      const long: string[] = [];
      for (const rider of busy)
        long.push((await send(h, rider.access, junk)).json<{ data: { id: string } }>().data.id);
      // Every slot of this process is walking one (four), the fifth waits.
      await vi.waitFor(
        async () => {
          const walking = await h.db.query(
            'SELECT id FROM archive_imports WHERE walking_since IS NOT NULL',
          );
          expect(walking.length).toBe(4);
        },
        { interval: 100 },
      );
      const quick = await h.user();
      const short = await zipOf([['activities/one.fit', fitFile(300, 78, 1_779_600_000)]]);
      const shortId = (await send(h, quick.access, short)).json<{ data: { id: string } }>().data.id;
      const done = await finished(h, quick.access, shortId);
      expect(done).toMatchObject({ status: 'done', imported: 1, failed: 0 });
      // Meanwhile every one of the five was still walking: the short one took a turn.
      for (const [k, rider] of busy.entries()) {
        const progress = await progressOf(h, rider.access, long[k]!);
        expect(progress.status).not.toBe('done');
        expect(progress.done).toBeLessThan(99_999);
      }
      // The entries cost no import job, and each skipped one says why.
      const jobs = await h.db.query('SELECT id FROM imports WHERE archive_id = ANY($1)', [long]);
      expect(jobs).toEqual([]);
      const some = await progressOf(h, busy[0]!.access, long[0]!);
      expect(some.failures[0]).toMatchObject({ code: 'notActivity' });
      for (const [k, rider] of busy.entries())
        await h.server.inject({
          method: 'DELETE',
          url: `/api/v2/imports/archives/${long[k]}/`,
          headers: bearer(rider.access),
        });
    });

    it('counts a stored archive in the quota until its walk ends, and removes it when cancelled', async () => {
      const h = await make();
      const rider = await h.user();
      const zip = await zipOf([['activities/big.gpx', randomBytes(300_000)]]);
      await h.db.query('UPDATE users SET quota_bytes = $2 WHERE id = $1', [
        rider.id,
        zip.length + 100_000,
      ]);
      // Held: no process walks it while the quota is looked at.
      await h.server.importJobs.boss.offWork('archive-import');
      const first = await send(h, rider.access, zip);
      expect(first.statusCode).toBe(202);
      const { id } = first.json<{ data: { id: string } }>().data;
      const second = await send(h, rider.access, zip);
      expect(second.statusCode).toBe(413);
      expect(second.json<{ detail: string }>().detail).toMatch(/quota/);
      expect(await h.blobs.list('archives')).toHaveLength(1);
      const cancelled = await h.server.inject({
        method: 'DELETE',
        url: `/api/v2/imports/archives/${id}/`,
        headers: bearer(rider.access),
      });
      expect(cancelled.json()).toMatchObject({ data: { status: 'cancelled' } });
      expect(await h.blobs.list('archives')).toEqual([]);
      expect((await send(h, rider.access, zip)).statusCode).toBe(202);
    });

    it('fails an archive whose walk keeps dying, instead of leaving it running', async () => {
      const h = await make();
      const rider = await h.user();
      await h.server.importJobs.boss.offWork('archive-import');
      const created = await send(
        h,
        rider.access,
        await zipOf([['activities/a.fit', fitFile(300, 70, 1_779_000_000)]]),
      );
      const { id } = created.json<{ data: { id: string } }>().data;
      // Three walks began and never ended (their processes died); the queue tries again.
      await h.db.query("UPDATE archive_imports SET walks = 3, status = 'running' WHERE id = $1", [
        id,
      ]);
      await h.server.archiveImports.start();
      const progress = await finished(h, rider.access, id);
      expect(progress).toMatchObject({ status: 'failed', error: { code: 'walkFailed' } });
      // One log line (the server's log stream may hand it over a tick after the status), and
      // its zip deleted.
      const failures = () => h.logs.filter((line) => line.includes('archive import failed'));
      await vi.waitFor(() => expect(failures().length).toBeGreaterThan(0));
      await vi.waitFor(async () => expect(await h.blobs.list('archives')).toEqual([]));
      expect(failures()).toHaveLength(1);
      expect(await rides(h, rider.access)).toEqual([]);
    });
  });
}
