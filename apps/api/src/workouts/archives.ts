// Importing a rider's whole history from an export archive (Strava's bulk export, Garmin
// Connect's, or ours): the archive waits in the file store; a job on its own queue walks its
// entries and queues one import per activity on the import queue, a few at a time.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { JobWithMetadata } from 'pg-boss';
import { ErrorCode } from '@xoss/api-contract';
import type { BlobStore } from '../blobStore.ts';
import type { Database } from '../db/db.ts';
import { sha256 } from '../digest.ts';
import { ApiError } from '../http.ts';
import {
  CsvError,
  readStravaCsv,
  sportOfStravaType,
  type StravaActivity,
} from '../athletes/stravaCsv.ts';
import { queueDb, type ImportJobs, type ImportRequest } from './importJobs.ts';
import {
  DEFAULT_ZIP_LIMITS,
  ZipReader,
  ZipRefused,
  type ZipEntry,
  type ZipLimits,
} from './zipEntries.ts';

const ARCHIVE_QUEUE = 'archive-import';

/** Imports of one archive queued at once: the rest wait, so other riders' imports interleave. */
const ARCHIVE_IN_FLIGHT = 8;

/** What the walk reads as an activity; anything else in the archive is not one. */
const ACTIVITY = /\.(fit|tcx|gpx)(\.gz)?$/i;

/** An entry that was not imported: named in the archive's failures. */
export interface Skipped {
  readonly name: string;
  readonly code: string;
  readonly message: string;
}

/** The archive's progress, as `GET /api/v2/imports/archives/{id}/` answers it. */
export interface ArchiveProgress {
  readonly id: string;
  readonly status: 'queued' | 'running' | 'done' | 'cancelled' | 'failed';
  readonly total: number | null;
  readonly done: number;
  readonly imported: number;
  readonly duplicates: number;
  readonly failed: number;
  readonly failures: readonly Skipped[];
  readonly created_at: string;
  readonly finished_at: string | null;
  readonly error: { code: string; message: string } | null;
}

interface ArchiveRow {
  readonly id: string;
  readonly user_id: number;
  readonly file_key: string;
  readonly language: string | null;
  readonly status: ArchiveProgress['status'];
  readonly total: number | null;
  readonly next_entry: number;
  readonly skipped: Skipped[];
  readonly error: { code: string; message: string } | null;
  readonly created_at: Date | string;
  readonly finished_at: Date | string | null;
}

/** One activity of the archive, in the order the walk takes them (stable across restarts). */
interface Item {
  readonly name: string;
  readonly entry: ZipEntry;
  /** The nested zip (Garmin Connect's) it is in, by its index in `nested`. */
  readonly zip?: number;
  readonly refused?: { readonly code: string; readonly message: string };
}

/** The import id of an archive's `index`-th item: the same on every walk, so queued once. */
function itemId(archiveId: string, index: number): string {
  const hex = createHash('sha256').update(`${archiveId}:${index}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ArchiveImportsOptions {
  readonly db: Database;
  readonly blobs: BlobStore;
  readonly log: FastifyBaseLogger;
  readonly imports: ImportJobs;
  /** Whether this process walks archives (as it runs imports). */
  readonly work: boolean;
  readonly maxArchiveBytes: number;
  readonly limits?: Partial<ZipLimits>;
  /** Where archives are unpacked while walked (a local disk). */
  readonly tmpDir?: string;
}

/**
 * Archive imports: `create` stores the archive and queues its walk; the walk (any process
 * that runs imports) queues each activity as an import with an id derived from the archive
 * and the entry, and records how far it got, so a walk resumed after a restart or by
 * another process queues nothing twice. Progress is counted from the imports' own rows.
 */
export class ArchiveImports {
  readonly #options: ArchiveImportsOptions;
  readonly #limits: ZipLimits;
  readonly #stopped = new AbortController();
  #worker: string | undefined;

  constructor(options: ArchiveImportsOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_ZIP_LIMITS, ...options.limits };
  }

  async start(): Promise<void> {
    const boss = this.#options.imports.boss;
    if (!(await boss.getQueue(ARCHIVE_QUEUE)))
      await boss
        .createQueue(ARCHIVE_QUEUE, {
          heartbeatSeconds: 30,
          expireInSeconds: 6 * 3600,
          retryLimit: 3,
          retryDelay: 5,
          deleteAfterSeconds: 7 * 86_400,
        })
        .catch(async (error: unknown) => {
          if (!(await boss.getQueue(ARCHIVE_QUEUE))) throw error;
        });
    await boss.getJobById(ARCHIVE_QUEUE, randomUUID());
    if (!this.#options.work) return;
    this.#worker = await boss.work(
      ARCHIVE_QUEUE,
      {
        localConcurrency: 1,
        groupConcurrency: 1,
        includeMetadata: true,
        pollingIntervalSeconds: 1,
      },
      async (jobs: JobWithMetadata<unknown>[]) => {
        for (const job of jobs) await this.#run(job);
      },
    );
  }

  async stop(): Promise<void> {
    this.#stopped.abort();
    if (this.#worker)
      await this.#options.imports.boss
        .offWork(ARCHIVE_QUEUE, { id: this.#worker, wait: true })
        .catch(() => undefined);
  }

  /** Stores an uploaded archive and queues its walk; refuses past `maxArchiveBytes`. */
  async create(userId: number, source: Readable, language: string | undefined): Promise<string> {
    const { db, blobs, imports, maxArchiveBytes } = this.#options;
    const id = randomUUID();
    const fileKey = `archives/${id}.zip`;
    const bytes = await blobs.putStream(fileKey, source, { maxBytes: maxArchiveBytes });
    try {
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO archive_imports (id, user_id, file_key, file_bytes, language)
           VALUES ($1, $2, $3, $4, $5)`,
          [id, userId, fileKey, bytes, language ?? null],
        );
        await imports.boss.send(
          ARCHIVE_QUEUE,
          { archiveId: id },
          { id, group: { id: String(userId) }, db: queueDb(tx) },
        );
      });
    } catch (error) {
      await blobs.delete(fileKey).catch(() => undefined);
      throw error;
    }
    return id;
  }

  /** The rider's archive's progress (404 for another rider's). */
  async progress(userId: number, id: string): Promise<ArchiveProgress> {
    const { db } = this.#options;
    const row = await this.#row(userId, id);
    const [counts] = await db.query<{
      pending: number;
      imported: number;
      duplicates: number;
      failed: number;
    }>(
      `SELECT count(*) FILTER (WHERE status IN ('uploading', 'queued'))::int AS pending,
              count(*) FILTER (WHERE status = 'done')::int AS imported,
              count(*) FILTER (WHERE status <> 'done' AND error->>'code' = '10409')::int AS duplicates,
              count(*) FILTER (WHERE status IN ('failed', 'given_up')
                AND coalesce(error->>'code', '') <> '10409')::int AS failed
         FROM imports WHERE archive_id = $1`,
      [id],
    );
    const failures = await db.query<Skipped>(
      `SELECT coalesce(options->>'entryName', '') AS name, coalesce(error->>'code', '') AS code,
              coalesce(error->>'detail', '') AS message
         FROM imports WHERE archive_id = $1 AND status IN ('failed', 'given_up')
          AND coalesce(error->>'code', '') <> '10409'
        ORDER BY finished_at LIMIT 500`,
      [id],
    );
    const skippedDuplicates = row.skipped.filter((item) => item.code === 'duplicate').length;
    const skippedFailures = row.skipped.filter((item) => item.code !== 'duplicate');
    const c = counts ?? { pending: 0, imported: 0, duplicates: 0, failed: 0 };
    const walked = row.total !== null && row.next_entry >= row.total;
    let status = row.status;
    if (status === 'running' && walked && c.pending === 0) {
      status = 'done';
      await db.query(
        "UPDATE archive_imports SET status = 'done', finished_at = now() WHERE id = $1 AND status = 'running'",
        [id],
      );
    }
    const finished = row.finished_at ?? (status === 'done' ? new Date() : null);
    return {
      id,
      status,
      total: row.total,
      done: row.skipped.length + c.imported + c.duplicates + c.failed,
      imported: c.imported,
      duplicates: c.duplicates + skippedDuplicates,
      failed: c.failed + skippedFailures.length,
      failures: [...skippedFailures, ...failures].slice(0, 500),
      created_at: new Date(row.created_at).toISOString(),
      finished_at: finished ? new Date(finished).toISOString() : null,
      error: row.error,
    };
  }

  /** Stops an archive: its walk ends, its queued imports are given up (imported ones stay). */
  async cancel(userId: number, id: string): Promise<ArchiveProgress> {
    const { db, blobs } = this.#options;
    await this.#row(userId, id);
    await db.query(
      `UPDATE archive_imports SET status = 'cancelled', finished_at = now()
        WHERE id = $1 AND status IN ('queued', 'running')`,
      [id],
    );
    const dropped = await db.query<{ file_key: string }>(
      `UPDATE imports SET status = 'given_up', finished_at = now(),
              error = '{"code":10400,"detail":"Cancelled"}'::jsonb
        WHERE archive_id = $1 AND status IN ('uploading', 'queued') RETURNING file_key`,
      [id],
    );
    for (const { file_key: key } of dropped) await blobs.delete(key).catch(() => undefined);
    return this.progress(userId, id);
  }

  async #row(userId: number, id: string): Promise<ArchiveRow> {
    const [row] = await this.#options.db.query<ArchiveRow>(
      'SELECT * FROM archive_imports WHERE id = $1 AND user_id = $2',
      [id, userId],
    );
    if (!row) throw new ApiError(ErrorCode.NotFound, 'No such archive import');
    return row;
  }

  async #run(job: JobWithMetadata<unknown>): Promise<void> {
    const archiveId = (job.data as { archiveId?: unknown } | null)?.archiveId;
    if (typeof archiveId !== 'string') return;
    const [row] = await this.#options.db.query<ArchiveRow>(
      'SELECT * FROM archive_imports WHERE id = $1',
      [archiveId],
    );
    if (!row || row.status === 'cancelled' || row.status === 'failed' || row.status === 'done')
      return;
    const signal = AbortSignal.any([job.signal, this.#stopped.signal]);
    try {
      await this.#walk(row, signal);
    } catch (error) {
      if (!(error instanceof ZipRefused)) throw error; // another attempt resumes the walk
      await this.#options.db.query(
        `UPDATE archive_imports SET status = 'failed', finished_at = now(), error = $2 WHERE id = $1`,
        [row.id, JSON.stringify({ code: error.code, message: error.message })],
      );
      await this.#options.blobs.delete(row.file_key).catch(() => undefined);
    }
  }

  /** Walks the archive from where it stopped, queueing each activity's import. */
  async #walk(row: ArchiveRow, signal: AbortSignal): Promise<void> {
    const { db, blobs, log } = this.#options;
    await db.query("UPDATE archive_imports SET status = 'running' WHERE id = $1", [row.id]);
    const folder = join(this.#options.tmpDir ?? tmpdir(), `xoss-archive-${row.id}`);
    await mkdir(folder, { recursive: true });
    const zips: ZipReader[] = [];
    try {
      const path = join(folder, 'archive.zip');
      await pipeline(blobs.stream(row.file_key), createWriteStream(path));
      const outer = await ZipReader.open(path, this.#limits);
      zips.push(outer);
      const { items, csv } = await this.#manifest(outer, zips, folder);
      if (row.total === null)
        await db.query('UPDATE archive_imports SET total = $2 WHERE id = $1', [
          row.id,
          items.length,
        ]);
      for (let index = row.next_entry; index < items.length; index++) {
        signal.throwIfAborted();
        if (await this.#cancelled(row.id)) return;
        const skipped = await this.#queueItem(row, index, items[index]!, zips, csv);
        await db.query(
          `UPDATE archive_imports SET next_entry = $2,
                  skipped = CASE WHEN $3::jsonb IS NULL THEN skipped ELSE skipped || $3::jsonb END
            WHERE id = $1`,
          [row.id, index + 1, skipped ? JSON.stringify([skipped]) : null],
        );
      }
      log.info({ archiveId: row.id, activities: items.length }, 'archive walked');
      await blobs.delete(row.file_key).catch(() => undefined);
    } finally {
      for (const zip of zips) zip.close();
      await rm(folder, { recursive: true, force: true });
    }
  }

  async #cancelled(id: string): Promise<boolean> {
    const [row] = await this.#options.db.query<{ status: string }>(
      'SELECT status FROM archive_imports WHERE id = $1',
      [id],
    );
    return row?.status !== 'running';
  }

  /** The activities of the archive (Garmin's nested zips opened), and its activities.csv. */
  async #manifest(
    outer: ZipReader,
    zips: ZipReader[],
    folder: string,
  ): Promise<{ items: Item[]; csv: Map<string, StravaActivity> }> {
    const entries = await outer.entries();
    const items: Item[] = [];
    const csv = new Map<string, StravaActivity>();
    let total = 0;
    for (const entry of entries) {
      total += entry.bytes;
      if (total > this.#limits.maxTotalBytes)
        throw new ZipRefused(
          'tooLarge',
          `The archive unpacks to more than ${Math.round(this.#limits.maxTotalBytes / 2 ** 30)} GB`,
        );
      if (/(^|\/)activities\.csv$/i.test(entry.name) && !entry.refused) {
        const text = (await outer.read(entry, this.#limits.maxEntryBytes)).toString('utf8');
        try {
          for (const activity of readStravaCsv(text))
            if (activity.filename) csv.set(activity.filename.replace(/^\.\//, ''), activity);
        } catch (error) {
          if (!(error instanceof CsvError)) throw error;
          items.push({
            name: entry.name,
            entry,
            refused: { code: 'csv', message: `activities.csv was not read: ${error.message}` },
          });
        }
      } else if (/\.zip$/i.test(entry.name)) {
        items.push(...(await this.#nested(outer, entry, zips, folder)));
      } else if (ACTIVITY.test(entry.name)) {
        items.push({
          name: entry.name,
          entry,
          ...(entry.refused ? { refused: entry.refused } : {}),
        });
      }
    }
    return { items, csv };
  }

  /** The activities of a zip inside the archive (one level, as Garmin Connect's export has). */
  async #nested(
    outer: ZipReader,
    entry: ZipEntry,
    zips: ZipReader[],
    folder: string,
  ): Promise<Item[]> {
    if (entry.refused) return [{ name: entry.name, entry, refused: entry.refused }];
    const path = join(folder, `nested-${zips.length}.zip`);
    try {
      await outer.pipeTo(entry, this.#limits.maxNestedBytes, createWriteStream(path));
      const inner = await ZipReader.open(path, this.#limits);
      zips.push(inner);
      const at = zips.length - 1;
      const items: Item[] = [];
      for (const item of await inner.entries()) {
        const name = `${entry.name}/${item.name}`;
        if (/\.zip$/i.test(item.name))
          items.push({
            name,
            entry: item,
            refused: {
              code: 'nestedTooDeep',
              message: 'Skipped: a zip inside a zip inside the archive',
            },
          });
        else if (ACTIVITY.test(item.name))
          items.push({
            name,
            entry: item,
            zip: at,
            ...(item.refused ? { refused: item.refused } : {}),
          });
      }
      return items;
    } catch (error) {
      if (!(error instanceof ZipRefused)) throw error;
      return [{ name: entry.name, entry, refused: { code: error.code, message: error.message } }];
    }
  }

  /** Queues one item's import (waiting while the archive has enough in flight); a skip says why. */
  async #queueItem(
    row: ArchiveRow,
    index: number,
    item: Item,
    zips: readonly ZipReader[],
    csv: ReadonlyMap<string, StravaActivity>,
  ): Promise<Skipped | undefined> {
    if (item.refused) return { name: item.name, ...item.refused };
    const { db, imports } = this.#options;
    // Queued by an earlier walk of this archive (one that died before recording its place).
    const id = itemId(row.id, index);
    const [queued] = await db.query('SELECT 1 FROM imports WHERE id = $1', [id]);
    if (queued) return undefined;
    let bytes: Buffer;
    try {
      bytes = await zips[item.zip ?? 0]!.read(item.entry, this.#limits.maxEntryBytes);
    } catch (error) {
      if (!(error instanceof ZipRefused)) throw error;
      return { name: item.name, code: error.code, message: error.message };
    }
    const fileSha256 = await sha256([bytes]);
    const [twin] = await db.query<{ id: number }>(
      'SELECT id FROM workouts WHERE user_id = $1 AND file_sha256 = $2',
      [row.user_id, fileSha256],
    );
    if (twin) return { name: item.name, code: 'duplicate', message: 'Already imported' };
    const request = importRequest(item.name, csv.get(item.name), row.language, fileSha256);
    for (;;) {
      await this.#waitForRoom(row.id);
      try {
        await imports.enqueue(row.user_id, bytes, request, { id, archiveId: row.id });
        return undefined;
      } catch (error) {
        // The rider's (or everyone's) queue is full: wait for room, as the walk does anyway.
        if (!(error instanceof ApiError) || error.code !== ErrorCode.Unavailable) throw error;
        if (error.headers['retry-after'] === undefined) throw error;
        await sleep(1000);
      }
    }
  }

  async #waitForRoom(archiveId: string): Promise<void> {
    for (;;) {
      const [row] = await this.#options.db.query<{ pending: number }>(
        `SELECT count(*)::int AS pending FROM imports
          WHERE archive_id = $1 AND status IN ('uploading', 'queued')`,
        [archiveId],
      );
      if ((row?.pending ?? 0) < ARCHIVE_IN_FLIGHT) return;
      this.#stopped.signal.throwIfAborted();
      await sleep(200);
    }
  }
}

/** The import of one archive entry: its metadata from activities.csv when it has a row. */
function importRequest(
  name: string,
  activity: StravaActivity | undefined,
  language: string | null,
  fileSha256: string,
): ImportRequest {
  const sportType = activity?.type ? sportOfStravaType(activity.type) : undefined;
  const notes = [activity?.description, activity?.gear ? `Gear: ${activity.gear}` : undefined]
    .filter(Boolean)
    .join('\n');
  return {
    entryName: name,
    batch: true,
    fileSha256,
    ...(language ? { language } : {}),
    ...(activity?.name ? { name: activity.name.slice(0, 200) } : {}),
    ...(sportType !== undefined ? { sportType } : {}),
    ...(notes ? { notes: notes.slice(0, 10_000) } : {}),
  };
}
