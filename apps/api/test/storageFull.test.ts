import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../src/platform/blobStore.ts';
import { createUser } from '../src/commands/createUser.ts';
import type { Database, Queryable } from '../src/platform/db/db.ts';
import type { ApiError } from '../src/http/envelope.ts';
import { ImportJobs } from '../src/imports/importJobs.ts';
import {
  bearer,
  closePool,
  fitFile,
  harness,
  pgliteFactory,
  upload,
  type DatabaseFactory,
  type Harness,
} from './harness.ts';

// Security item: a full disk (file store or database) is answered at once with 503 and
// nothing is kept; `/api/ready` says so until there is room again; the import queue backs
// off instead of failing jobs several times a second; a malformed job fails once.

/** What PostgreSQL (and PGlite) throw when a table cannot grow: SQLSTATE 53100. */
const diskFull = () =>
  Object.assign(new Error('could not extend file "base/5/16400": No space left on device'), {
    code: '53100',
  });

/**
 * A 2 MB filesystem of its own (tmpfs) that a test fills up, or, where mounting is not
 * allowed, a folder whose writes fail with ENOSPC while it is "full".
 */
function smallDisk() {
  const dir = mkdtempSync(join(tmpdir(), 'xoss-full-'));
  let mounted = false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'ignore' });
    mounted = true;
  } catch {
    // Not root, or no tmpfs: ENOSPC is injected instead.
  }
  let full = false;
  const filler = join(dir, 'filler');
  const write: typeof writeFile = (...args) =>
    full && !mounted
      ? Promise.reject(
          Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
        )
      : writeFile(...args);
  return {
    mounted,
    root: join(dir, 'files'),
    blobs: () => new LocalBlobStore(join(dir, 'files'), { write }),
    /** Fills the disk to the last byte. */
    fill() {
      full = true;
      if (!mounted) return;
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { stdio: 'ignore' });
      } catch {
        // dd stops with an error when the disk is full: that is the point.
      }
    },
    free() {
      full = false;
      rmSync(filler, { force: true });
    },
    remove() {
      if (mounted) execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Makes the database's writes of one kind (`matches` on the SQL) fail with disk_full. */
function failWrites(db: Database, matches: RegExp) {
  const original = db.transaction.bind(db);
  const originalQuery = db.query.bind(db);
  const guard = (sql: string) => {
    if (matches.test(sql)) throw diskFull();
  };
  Object.assign(db, {
    transaction: <T>(work: (tx: Queryable) => Promise<T>) =>
      original((tx) =>
        work({
          query: async <Row>(sql: string, params?: readonly unknown[]) => {
            guard(sql);
            return tx.query<Row>(sql, params);
          },
        }),
      ),
    query: async <Row>(sql: string, params?: readonly unknown[]) => {
      guard(sql);
      return originalQuery<Row>(sql, params);
    },
  });
  return () => Object.assign(db, { transaction: original, query: originalQuery });
}

/**
 * The value `read` gives once `done` holds, read again until then (a bounded number of
 * times): what the queue writes after the reply (its job's state) lands a moment later.
 */
async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let polls = 0; polls < 200 && !done(value); polls++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

const count = async (h: Harness, sql: string) =>
  Number((await h.db.query<{ n: number }>(sql))[0]!.n);

/** Nothing of an upload is kept: no import under way, no workout, no file. */
async function nothingKept(h: Harness, root: string) {
  expect(
    await count(h, "SELECT count(*) AS n FROM imports WHERE status IN ('uploading', 'queued')"),
  ).toBe(0);
  expect(await count(h, 'SELECT count(*) AS n FROM workouts')).toBe(0);
  expect(
    await count(
      h,
      "SELECT count(*) AS n FROM pgboss.job WHERE name = 'workout-import' AND state IN ('created', 'retry', 'active')",
    ),
  ).toBe(0);
  for (const folder of ['workouts', '.tmp'])
    expect(existsSync(join(root, folder)) ? readdirSync(join(root, folder)) : []).toEqual([]);
}

const ready = (h: Harness) => h.server.inject({ method: 'GET', url: '/api/ready' });

describe('a full disk', () => {
  let factory: DatabaseFactory;
  // Mounted here, not while the file is collected: a run that skips these tests mounts nothing.
  let disk: ReturnType<typeof smallDisk>;
  beforeAll(async () => {
    disk = smallDisk();
    factory = await pgliteFactory();
  });
  afterAll(async () => {
    await closePool();
    disk?.remove();
  });

  // An hour's deadline: an answer that waited for it would never come within the test.
  const patient = { uploadTimeoutMs: 3_600_000, handlerTimeoutMs: 3_600_000 };

  it('answers an upload to a full file store with 503 at once, keeps nothing, and is not ready until there is room', async () => {
    const h = await harness(factory, patient, { blobs: disk.blobs() });
    try {
      const rider = await h.user();
      expect((await ready(h)).statusCode).toBe(200);
      disk.fill();
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'ride.fit',
        bytes: fitFile(600, 31),
      });
      expect(reply.statusCode).toBe(503);
      expect(reply.json()).toMatchObject({ code: 10503, msg: 'unavailable' });
      expect(reply.json<{ detail: string }>().detail).toMatch(/storage is full/);
      expect(reply.headers['retry-after']).toBeDefined();
      await nothingKept(h, disk.root);
      // The import row was removed, not left behind as a record of a failed import.
      expect(await count(h, 'SELECT count(*) AS n FROM imports')).toBe(0);

      const notReady = await ready(h);
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toMatchObject({ code: 10503, errors: [{ path: 'files' }] });
      expect(h.logs.filter((line) => line.includes('the file store cannot write'))).toHaveLength(1);

      disk.free();
      // The probe's cache and the hold after a failed write pass (fake time).
      h.clock += 60_000;
      expect((await ready(h)).statusCode).toBe(200);
      expect(h.logs.filter((line) => line.includes('the file store can write again'))).toHaveLength(
        1,
      );
      const retry = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'ride.fit',
        bytes: fitFile(600, 31),
      });
      expect(retry.statusCode).toBe(201);
    } finally {
      disk.free();
      await h.close();
    }
  });

  it('says not ready while a probe of the file store cannot write, without any upload', async () => {
    if (!disk.mounted) return;
    const h = await harness(factory, patient, { blobs: disk.blobs() });
    try {
      disk.fill();
      const reply = await ready(h);
      expect(reply.statusCode).toBe(503);
      expect(reply.json()).toMatchObject({ errors: [{ path: 'files' }] });
      disk.free();
      h.clock += 2_000;
      expect((await ready(h)).statusCode).toBe(200);
    } finally {
      disk.free();
      await h.close();
    }
  });

  it('answers an upload whose workout cannot be stored (database full) with 503 at once, and keeps nothing', async () => {
    const h = await harness(factory, patient);
    try {
      const rider = await h.user();
      const restore = failWrites(h.db, /INSERT INTO workouts/);
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'ride.fit',
        bytes: fitFile(600, 32),
      });
      expect(reply.statusCode).toBe(503);
      expect(reply.json<{ detail: string }>().detail).toMatch(/storage is full/);
      expect(reply.headers['retry-after']).toBeDefined();
      // The job failed for good (no retry), the import is failed, its file gone.
      const jobs = await settled(
        () =>
          h.db.query<{ state: string; retry_count: number }>(
            "SELECT state, retry_count FROM pgboss.job WHERE name = 'workout-import'",
          ),
        (rows) => rows.every((job) => job.state === 'failed'),
      );
      expect(jobs).toEqual([{ state: 'failed', retry_count: 0 }]);
      const imports = await settled(
        () =>
          h.db.query<{ status: string; file_gone: boolean }>(
            'SELECT status, file_gone FROM imports',
          ),
        (rows) => rows.every((row) => row.file_gone),
      );
      expect(imports).toEqual([{ status: 'failed', file_gone: true }]);
      expect(await h.blobs.list('workouts')).toEqual([]);
      expect(await count(h, 'SELECT count(*) AS n FROM workouts')).toBe(0);

      const notReady = await ready(h);
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toMatchObject({ errors: [{ path: 'database' }] });

      restore();
      h.clock += 60_000;
      expect((await ready(h)).statusCode).toBe(200);
      // The queue waited a second after the error, then takes the next upload.
      const retry = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'ride.fit',
        bytes: fitFile(600, 32),
      });
      expect(retry.statusCode).toBe(201);
    } finally {
      await h.close();
    }
  });

  it('answers an upload whose import row cannot be written with 503 at once, and says the database is not ready', async () => {
    const h = await harness(factory, patient);
    try {
      const rider = await h.user();
      const restore = failWrites(h.db, /INSERT INTO imports/);
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'ride.fit',
        bytes: fitFile(600, 33),
      });
      restore();
      expect(reply.statusCode).toBe(503);
      expect(reply.json<{ detail: string }>().detail).toMatch(/storage is full/);
      expect(await count(h, 'SELECT count(*) AS n FROM imports')).toBe(0);
      expect(await h.blobs.list('workouts')).toEqual([]);
      const notReady = await ready(h);
      expect(notReady.json()).toMatchObject({ errors: [{ path: 'database' }] });
    } finally {
      await h.close();
    }
  });

  it('says not ready while a write transaction of the database fails', async () => {
    const h = await harness(factory, patient);
    try {
      const original = h.db.transaction.bind(h.db);
      Object.assign(h.db, { transaction: () => Promise.reject(diskFull()) });
      const reply = await ready(h);
      Object.assign(h.db, { transaction: original });
      expect(reply.statusCode).toBe(503);
      expect(reply.json()).toMatchObject({ code: 10503, errors: [{ path: 'database' }] });
      expect(reply.json<{ detail: string }>().detail).toContain('the database cannot write');
      h.clock += 2_000;
      expect((await ready(h)).statusCode).toBe(200);
      expect(h.logs.filter((line) => line.includes('the database cannot write'))).toHaveLength(1);
      expect(h.logs.filter((line) => line.includes('the database can write again'))).toHaveLength(
        1,
      );
    } finally {
      await h.close();
    }
  });

  it('fails a malformed job once, for good, and a rider of its group still gets their import', async () => {
    const h = await harness(factory, patient);
    const boss = new PgBoss({
      ...h.db.queueConnection(),
      schema: 'pgboss',
      supervise: false,
      schedule: false,
      migrate: false,
    });
    try {
      const rider = await h.user();
      await boss.start();
      const group = { group: { id: String(rider.id) } };
      const malformed = [
        await boss.send('workout-import', null, group),
        await boss.send('workout-import', { importId: 'x' }, group),
      ];
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'ride.fit',
        bytes: fitFile(600, 34),
      });
      expect(reply.statusCode).toBe(201);
      const states = await settled(
        () =>
          h.db.query<{ state: string; retry_count: number }>(
            'SELECT state, retry_count FROM pgboss.job WHERE id = ANY($1::uuid[]) ORDER BY id',
            [malformed],
          ),
        (rows) => rows.every((job) => job.state === 'failed'),
      );
      expect(states).toEqual([
        { state: 'failed', retry_count: 0 },
        { state: 'failed', retry_count: 0 },
      ]);
      expect(h.logs.filter((line) => line.includes('a malformed job was dropped'))).toHaveLength(2);
      const list = await h.server.inject({
        method: 'GET',
        url: '/api/v2/workouts/',
        headers: bearer(rider.access),
      });
      expect(list.json<{ data: { count: number } }>().data.count).toBe(1);
    } finally {
      await boss.stop({ close: false, graceful: false }).catch(() => undefined);
      await h.close();
    }
  });
});

describe('the import queue on a full database', () => {
  let factory: DatabaseFactory;
  beforeAll(async () => {
    factory = await pgliteFactory();
  });

  it('backs off (1 s doubling to 60 s), one log line and one attempt per step', async () => {
    const db = await factory.create();
    const lines: string[] = [];
    const record = (_fields: unknown, message?: string) => void lines.push(String(message));
    const log = {
      error: record,
      warn: record,
      info: record,
      debug: record,
      trace: record,
      fatal: record,
      child: () => log,
    } as unknown as FastifyBaseLogger;
    // The queue's waits are the test's to end: each asks here, and the test resumes it.
    const waits: { ms: number; resume: () => void }[] = [];
    let attempts = 0;
    // Resolves once `ready()` holds, checked at each wait asked and each attempt.
    let changed: () => void = () => undefined;
    const until = async (ready: () => boolean) => {
      while (!ready()) await new Promise<void>((resolve) => (changed = resolve));
    };
    const dir = mkdtempSync(join(tmpdir(), 'xoss-backoff-'));
    mkdirSync(join(dir, 'files'));
    const jobs = await ImportJobs.start({
      db,
      blobs: new LocalBlobStore(join(dir, 'files')),
      log,
      concurrency: 1,
      now: () => 0,
      runner: () => {
        attempts++;
        changed();
        return Promise.reject(diskFull());
      },
      schedule: (ms, resume) => {
        waits.push({ ms, resume });
        changed();
        return { cancel: () => undefined };
      },
    });
    try {
      const userId = await createUser(db, 'full@example.com', 'Full', 'a long password 123');
      const ids: string[] = [];
      for (let i = 0; i < 9; i++) ids.push(await jobs.enqueue(userId, new Uint8Array([i]), {}));
      // The first job fails; its rider is told at once, with the storage's 503.
      const first = await jobs.wait(ids[0]!);
      expect(first.status).toBe('failed');
      expect((first as { error: ApiError }).error.message).toMatch(/storage is full/);
      await until(() => waits.length === 1);
      for (let step = 1; step < 9; step++) {
        // While it waits, nothing runs: one attempt per step so far.
        expect(attempts).toBe(step);
        waits.at(-1)!.resume();
        await until(() => waits.length === step + 1);
      }
      expect(waits.map((wait) => wait.ms)).toEqual([
        1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000,
      ]);
      expect(attempts).toBe(9);
      expect(lines.filter((line) => line.includes('is full; jobs wait'))).toHaveLength(9);
      // Each failed once, for good: no retries wait in the queue.
      const states = await settled(
        () =>
          db.query<{ state: string; retry_count: number }>(
            "SELECT DISTINCT state, retry_count FROM pgboss.job WHERE name = 'workout-import'",
          ),
        (rows) => rows.length === 1,
      );
      expect(states).toEqual([{ state: 'failed', retry_count: 0 }]);
    } finally {
      await jobs.stop();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
