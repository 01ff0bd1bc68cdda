// Over 300 lines: an archive's walk (copy, manifest under whole-archive limits, one nested
// zip open at a time, resume, its tries and its end) is one job whose steps share its state.
// Importing a rider's whole history from an export archive (Strava's bulk export, Garmin
// Connect's, or ours): the archive waits in the file store; a job on its own queue walks its
// entries and queues one import per activity on the import queue, a few at a time.
//
// The walk is bounded as a whole (`ZipLimits`: entries, nested zips, unpacked and temporary
// bytes over the archive and all its nested zips), opens one file at a time, and ends every
// archive as done, cancelled or failed with a reason the rider reads and one log line: an
// archive that breaks a limit at once, a walk that keeps failing after `MAX_WALKS` tries.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, statfs, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { JobWithMetadata } from 'pg-boss';
import { ErrorCode } from '@xoss/api-contract';
import { BlobTooLarge, type BlobStore } from '../platform/blobStore.ts';
import type { Database } from '../platform/db/db.ts';
import { ApiError } from '../http/envelope.ts';
import { assertFits, roomLeft } from '../platform/quota.ts';
import {
  CsvError,
  readStravaCsv,
  sportOfStravaType,
  type StravaActivity,
} from '../athletes/stravaCsv.ts';
import { contentSha256 } from '../platform/digest.ts';
import { bytesText } from '../platform/bytes.ts';
import { looksLikeActivity } from '../analysis/analyse.ts';
import { ImportNotQueued, queueDb, type ImportJobs, type ImportRequest } from './importJobs.ts';
import {
  ArchiveLimit,
  DEFAULT_ZIP_LIMITS,
  ZipReader,
  ZipRefused,
  type ZipEntry,
  type ZipLimits,
} from './zipEntries.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Export archives' walks (tests hold and restart them). */
    readonly archiveImports: ArchiveImports;
  }
}

const ARCHIVE_QUEUE = 'archive-import';

/** Imports of one archive queued at once: the rest wait, so other riders' imports interleave. */
const ARCHIVE_IN_FLIGHT = 8;

/**
 * Archives one process walks at once, never two of one rider (the queue's group): a rider's
 * large archive does not hold another rider's back.
 */
const ARCHIVE_WALKS = 4;

/**
 * How long a walk goes on before it looks for another rider's archive waiting for a slot,
 * and gives its own to it (queued again, at the back of the line): riders take turns, so a
 * one-ride archive starts within a slice whatever others have queued.
 */
const WALK_SLICE_MS = 5_000;

/** Tries of a walk (a restart, a database hiccup) before the archive is failed for good. */
const MAX_WALKS = 3;

/** Entries skipped that an archive keeps with their reasons (the progress reply lists 500). */
const MAX_SKIP_DETAILS = 500;

/** What the walk reads as an activity; anything else in the archive is not one. */
const ACTIVITY = /\.(fit|tcx|gpx)(\.gz)?$/i;

/** A name as the rider reads it and the database stores it: control characters shown as "\ufffd". */
// eslint-disable-next-line no-control-regex
const shownName = (name: string) => name.replace(/[\u0000-\u001f\u007f]/g, '\ufffd');

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
  readonly file_bytes: number | string;
  readonly language: string | null;
  readonly status: ArchiveProgress['status'];
  readonly total: number | null;
  readonly next_entry: number;
  readonly walks: number;
  /** The first `MAX_SKIP_DETAILS` entries skipped, with why. */
  readonly skipped: Skipped[];
  /** Entries skipped in all, and of them duplicates. */
  readonly skipped_count: number;
  readonly skipped_duplicates: number;
  readonly error: { code: string; message: string } | null;
  readonly created_at: Date | string;
  readonly finished_at: Date | string | null;
  /** The archive's walk job now (none: its first, whose id is the archive's). */
  readonly job_id: string | null;
}

/** One activity of the archive, in the order the walk takes them (stable across restarts). */
interface Item {
  readonly name: string;
  /** The nested zip (Garmin Connect's) it is in, by its index in the walk's `nested`. */
  readonly zip?: number;
  /** Its index among its zip's entries. */
  readonly at: number;
  readonly refused?: { readonly code: string; readonly message: string };
}

/** What one walk holds: the archive's copy open, its nested zips unpacked (closed). */
interface Walk {
  readonly folder: string;
  readonly outer: ZipReader;
  readonly outerEntries: readonly ZipEntry[];
  readonly nested: string[];
  readonly items: Item[];
  readonly csv: Map<string, StravaActivity>;
  readonly budget: Budget;
  /** The one nested zip open now, if any. */
  open?: { readonly zip: number; readonly reader: ZipReader; readonly entries: ZipEntry[] };
}

/** What the walk has spent of the archive's limits, refusing the archive past one. */
class Budget {
  entries = 0;
  zips = 0;
  unpacked = 0;
  temp = 0;
  readonly limits: ZipLimits;
  constructor(limits: ZipLimits) {
    this.limits = limits;
  }

  get entriesLeft(): number {
    return this.limits.maxEntries - this.entries;
  }
  addEntries(count: number): void {
    this.entries += count;
    if (this.entries > this.limits.maxEntries)
      throw new ArchiveLimit(
        'tooManyEntries',
        `The archive holds more than ${this.limits.maxEntries} entries`,
      );
  }
  addZip(): void {
    if (++this.zips > this.limits.maxNestedZips)
      throw new ArchiveLimit(
        'tooManyZips',
        `The archive holds more than ${this.limits.maxNestedZips} zips inside it`,
      );
  }
  addUnpacked(bytes: number): void {
    this.unpacked += bytes;
    if (this.unpacked > this.limits.maxTotalBytes)
      throw new ArchiveLimit(
        'archiveTooLarge',
        `The archive unpacks to more than ${bytesText(this.limits.maxTotalBytes)}`,
      );
  }
  addTemp(bytes: number): void {
    this.temp += bytes;
    if (this.temp > this.limits.maxTempBytes)
      throw new ArchiveLimit(
        'archiveTooLarge',
        `The archive and the zips inside it take more than ${bytesText(this.limits.maxTempBytes)} to unpack`,
      );
  }
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
  /**
   * Where archives are unpacked while walked: `DATA_DIR/tmp/archives`, on the disk the
   * readiness check watches (the system's temporary folder only without a data folder).
   */
  readonly tmpDir?: string;
  /** Free space the walk leaves on the temporary folder's disk (`MIN_FREE_DISK_BYTES`). */
  readonly minFreeBytes?: number;
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
    this.#limits = {
      ...DEFAULT_ZIP_LIMITS,
      // The archive's copy and as much again in nested zips, unless told otherwise.
      maxTempBytes: 2 * options.maxArchiveBytes + 64 * 1024 * 1024,
      ...options.limits,
    };
  }

  /** The folder archives are unpacked in while walked (`sweepArchiveFolders` cleans it). */
  get tmpDir(): string {
    return this.#options.tmpDir ?? join(tmpdir(), 'xoss-archives');
  }

  async start(): Promise<void> {
    const boss = this.#options.imports.boss;
    if (!(await boss.getQueue(ARCHIVE_QUEUE)))
      await boss
        .createQueue(ARCHIVE_QUEUE, {
          heartbeatSeconds: 30,
          expireInSeconds: 6 * 3600,
          // More than MAX_WALKS: the walk counts its own tries (a crash is one the queue's
          // handler never sees end) and fails the archive itself after the last.
          retryLimit: MAX_WALKS + 2,
          retryDelay: 5,
          deleteAfterSeconds: 7 * 86_400,
        })
        .catch(async (error: unknown) => {
          if (!(await boss.getQueue(ARCHIVE_QUEUE))) throw error;
        });
    await boss.getJobById(ARCHIVE_QUEUE, randomUUID());
    if (!this.#options.work || this.#stopped.signal.aborted) return;
    this.#worker = await boss.work(
      ARCHIVE_QUEUE,
      {
        localConcurrency: ARCHIVE_WALKS,
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

  /**
   * Stores an uploaded archive and queues its walk. Refused with 413, keeping nothing, as
   * soon as it passes `maxArchiveBytes` or the room left in the rider's quota (a stored
   * archive counts in it until its walk is over).
   */
  async create(userId: number, source: Readable, language: string | undefined): Promise<string> {
    const { db, blobs, imports, maxArchiveBytes } = this.#options;
    const id = randomUUID();
    const fileKey = `archives/${id}.zip`;
    const room = await roomLeft(db, userId);
    const maxBytes = Math.min(maxArchiveBytes, Math.max(0, room.bytes));
    let bytes: number;
    try {
      bytes = await blobs.putStream(fileKey, source, { maxBytes });
    } catch (error) {
      source.resume();
      if (!(error instanceof BlobTooLarge)) throw error;
      throw maxBytes < maxArchiveBytes
        ? room.full()
        : new ApiError(
            ErrorCode.PayloadTooLarge,
            `The archive is larger than ${bytesText(maxArchiveBytes)}`,
          );
    }
    try {
      await db.transaction(async (tx) => {
        // Locks the rider's row: two archives sent at once cannot overrun the quota together.
        await assertFits(tx, userId, bytes);
        await tx.query(
          `INSERT INTO archive_imports (id, user_id, file_key, file_bytes, stored_bytes, language)
           VALUES ($1, $2, $3, $4, $4, $5)`,
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
    let row = await this.#row(userId, id);
    if (row.status === 'queued' || row.status === 'running') row = await this.#checkJob(row);
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
    // Every activity not imported, with why: failures first, then those already here (a
    // duplicate found by the walk or by its import), so the rider can tell which they were.
    const notImported = await db.query<Skipped>(
      `SELECT coalesce(options->>'entryName', '') AS name,
              CASE WHEN error->>'code' = '10409' THEN 'duplicate'
                   ELSE coalesce(error->>'code', '') END AS code,
              coalesce(error->>'detail', '') AS message
         FROM imports WHERE archive_id = $1 AND status IN ('failed', 'given_up')
        ORDER BY (error->>'code' = '10409'), finished_at LIMIT 500`,
      [id],
    );
    const failures = notImported.filter((item) => item.code !== 'duplicate');
    const importDuplicates = notImported.filter((item) => item.code === 'duplicate');
    const skippedDuplicates = row.skipped.filter((item) => item.code === 'duplicate');
    const skippedFailures = row.skipped.filter((item) => item.code !== 'duplicate');
    const skipped = Number(row.skipped_count);
    const skippedAsDuplicates = Number(row.skipped_duplicates);
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
      done: skipped + c.imported + c.duplicates + c.failed,
      imported: c.imported,
      duplicates: c.duplicates + skippedAsDuplicates,
      failed: c.failed + skipped - skippedAsDuplicates,
      failures: [...skippedFailures, ...failures, ...skippedDuplicates, ...importDuplicates].slice(
        0,
        500,
      ),
      created_at: new Date(row.created_at).toISOString(),
      finished_at: finished ? new Date(finished).toISOString() : null,
      error: row.error,
    };
  }

  /**
   * An archive whose walk the queue has given up on (every try failed, or its process died
   * each time) is failed here, so it never reads `running` for ever.
   */
  async #checkJob(row: ArchiveRow): Promise<ArchiveRow> {
    const walked = row.total !== null && row.next_entry >= row.total;
    if (walked) return row;
    const job = await this.#options.imports.boss
      .getJobById(ARCHIVE_QUEUE, row.job_id ?? row.id)
      .catch(() => null);
    if (job && job.state !== 'failed' && job.state !== 'cancelled') return row;
    // No job at all: deleted after a week, or lost with a restored backup.
    if (!job && Date.now() - new Date(row.created_at).getTime() < 60_000) return row;
    await this.#fail(row, {
      code: 'walkFailed',
      message: 'The archive could not be read to the end: import it again',
    });
    return this.#row(row.user_id, row.id);
  }

  /** Stops an archive: its walk ends, its queued imports are given up (imported ones stay). */
  async cancel(userId: number, id: string): Promise<ArchiveProgress> {
    const { db, blobs } = this.#options;
    const row = await this.#row(userId, id);
    const [stopped] = await db.query(
      `UPDATE archive_imports SET status = 'cancelled', finished_at = now(), stored_bytes = 0
        WHERE id = $1 AND status IN ('queued', 'running') RETURNING id`,
      [id],
    );
    const dropped = await db.query<{ file_key: string }>(
      `UPDATE imports SET status = 'given_up', finished_at = now(),
              error = '{"code":10400,"detail":"Cancelled"}'::jsonb
        WHERE archive_id = $1 AND status IN ('uploading', 'queued') RETURNING file_key`,
      [id],
    );
    for (const { file_key: key } of dropped) await blobs.delete(key).catch(() => undefined);
    // The archive itself: a walk under way in another process works from its own copy.
    if (stopped) await blobs.delete(row.file_key).catch(() => undefined);
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

  /** Ends an archive as failed with the rider's reason: one log line, its zip removed. */
  async #fail(row: ArchiveRow, error: { code: string; message: string }): Promise<void> {
    const { db, blobs, log } = this.#options;
    const [failed] = await db.query(
      `UPDATE archive_imports SET status = 'failed', finished_at = now(), error = $2,
              stored_bytes = 0
        WHERE id = $1 AND status IN ('queued', 'running') RETURNING id`,
      [row.id, JSON.stringify(error)],
    );
    // Logged with the status, before the clean-up: whoever sees the archive failed finds the
    // line (a test read the log while the zip was still being deleted, on a loaded machine).
    if (failed)
      log.warn(
        { archiveId: row.id, userId: row.user_id, code: error.code, reason: error.message },
        'archive import failed',
      );
    await blobs.delete(row.file_key).catch(() => undefined);
  }

  async #run(job: JobWithMetadata<unknown>): Promise<void> {
    const archiveId = (job.data as { archiveId?: unknown } | null)?.archiveId;
    if (typeof archiveId !== 'string') return;
    const { db, log } = this.#options;
    const [row] = await db.query<ArchiveRow>(
      `UPDATE archive_imports SET walks = walks + 1
        WHERE id = $1 AND status IN ('queued', 'running') RETURNING *`,
      [archiveId],
    );
    if (!row) return;
    if (row.walks > MAX_WALKS) {
      // Earlier tries ended without a word (their process died): no more.
      await this.#fail(row, {
        code: 'walkFailed',
        message: `Reading the archive stopped ${MAX_WALKS} times: import it again, or send its activities one by one`,
      });
      return;
    }
    const signal = AbortSignal.any([job.signal, this.#stopped.signal]);
    try {
      await this.#walk(row, signal);
    } catch (error) {
      await db
        .query('UPDATE archive_imports SET walking_since = NULL WHERE id = $1', [row.id])
        .catch(() => undefined);
      if (error instanceof ZipRefused) {
        await this.#fail(row, { code: error.code, message: error.message });
        return;
      }
      if (this.#stopped.signal.aborted) {
        // Stopped with its process: not a try of its own, another process resumes it.
        await db
          .query('UPDATE archive_imports SET walks = walks - 1 WHERE id = $1', [row.id])
          .catch(() => undefined);
        throw error;
      }
      const reason = error instanceof Error ? error.message : String(error);
      if (row.walks >= MAX_WALKS) {
        log.error({ err: error, archiveId: row.id }, 'archive walk failed');
        await this.#fail(row, {
          code: (error as NodeJS.ErrnoException).code === 'ENOSPC' ? 'noSpace' : 'walkFailed',
          message:
            (error as NodeJS.ErrnoException).code === 'ENOSPC'
              ? 'The server had no room to unpack the archive: import it again later'
              : 'The archive could not be read to the end: import it again',
        });
        return;
      }
      log.warn({ archiveId: row.id, try: row.walks, reason }, 'archive walk failed; tried again');
      throw error;
    }
  }

  /** Refuses what would leave the temporary folder's disk with less than its reserve. */
  async #roomFor(folder: string, bytes: number): Promise<void> {
    const reserve = this.#options.minFreeBytes ?? 0;
    const stats = await statfs(folder);
    if (stats.bavail * stats.bsize - bytes < reserve)
      throw new ArchiveLimit(
        'noSpace',
        'The server has no room to unpack the archive now: import it again later',
      );
  }

  /**
   * Whether another rider's archive waits for a slot: queued or given back, and walked by
   * no process now (one whose process died is its queue's to retry, not waiting here).
   */
  async #othersWaiting(row: ArchiveRow): Promise<boolean> {
    const [other] = await this.#options.db.query(
      `SELECT 1 FROM archive_imports
        WHERE status IN ('queued', 'running') AND walking_since IS NULL AND user_id <> $1
        LIMIT 1`,
      [row.user_id],
    );
    return other !== undefined;
  }

  /**
   * Gives the walk's slot to the archives waiting: its place is kept (`next_entry`), a job
   * of its own is queued again (at the back of the line, the rider's one walk at a time
   * still) and this one ends. Not a try of its own: `walks` is as before.
   */
  async #yieldTurn(row: ArchiveRow): Promise<void> {
    const { db, imports } = this.#options;
    const jobId = randomUUID();
    await db.transaction(async (tx) => {
      await tx.query(
        `UPDATE archive_imports SET job_id = $2, walking_since = NULL, walks = walks - 1
          WHERE id = $1`,
        [row.id, jobId],
      );
      // Behind archives not started yet (priority 0): a new archive, however small, waits
      // for one slice at most, not for every long one's turn.
      await imports.boss.send(
        ARCHIVE_QUEUE,
        { archiveId: row.id },
        { id: jobId, group: { id: String(row.user_id) }, priority: -1, db: queueDb(tx) },
      );
    });
  }

  /** Walks the archive from where it stopped, queueing each activity's import. */
  async #walk(row: ArchiveRow, signal: AbortSignal): Promise<void> {
    const { db, blobs, log } = this.#options;
    // Only from queued or running: a cancel (or a failure) written since the job claimed the
    // archive stands, and the walk ends before it reads anything. Unguarded, this write put a
    // cancelled archive back to running and its walk imported every ride.
    const [walking] = await db.query(
      `UPDATE archive_imports SET status = 'running', walking_since = now()
        WHERE id = $1 AND status IN ('queued', 'running') RETURNING id`,
      [row.id],
    );
    if (!walking) return;
    const folder = join(this.tmpDir, row.id);
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    let walk: Walk | undefined;
    try {
      walk = await this.#manifest(row, folder, signal);
      const { items } = walk;
      if (row.total === null)
        await db.query('UPDATE archive_imports SET total = $2 WHERE id = $1', [
          row.id,
          items.length,
        ]);
      let touched = Date.now();
      let slice = Date.now();
      // Its place and its skips are written every few hundred entries, not each (an archive
      // of 99,999 entries that are not activities took a write a skip): a walk resumed after
      // a crash redoes at most those, and queues nothing twice (an import's id is its place).
      let written = { at: row.next_entry, time: Date.now() };
      let skips: Skipped[] = [];
      let detailed = row.skipped.length;
      const record = async (next: number) => {
        const details = skips.slice(0, Math.max(0, MAX_SKIP_DETAILS - detailed));
        const duplicates = skips.filter((skip) => skip.code === 'duplicate').length;
        await db.query(
          `UPDATE archive_imports SET next_entry = $2,
                  skipped = CASE WHEN $3::jsonb IS NULL THEN skipped ELSE skipped || $3::jsonb END,
                  skipped_count = skipped_count + $4, skipped_duplicates = skipped_duplicates + $5
            WHERE id = $1`,
          [
            row.id,
            next,
            details.length > 0 ? JSON.stringify(details) : null,
            skips.length,
            duplicates,
          ],
        );
        detailed += details.length;
        skips = [];
        written = { at: next, time: Date.now() };
      };
      for (let index = row.next_entry; index < items.length; index++) {
        signal.throwIfAborted();
        if (index - written.at >= 200 || Date.now() - written.time >= 1000) {
          await record(index);
          if (await this.#cancelled(row.id)) return;
          if (Date.now() - slice >= WALK_SLICE_MS) {
            if (await this.#othersWaiting(row)) {
              await this.#yieldTurn(row);
              return;
            }
            slice = Date.now();
          }
        }
        // Beside other processes, a start spares temporary folders written within the hour.
        if (Date.now() - touched > 60_000) {
          touched = Date.now();
          await utimes(folder, new Date(), new Date()).catch(() => undefined);
        }
        const skipped = await this.#queueItem(row, index, items[index]!, walk);
        if (skipped) skips.push(skipped);
      }
      await record(items.length);
      log.info({ archiveId: row.id, activities: items.length }, 'archive walked');
      await db.query(
        'UPDATE archive_imports SET stored_bytes = 0, walking_since = NULL WHERE id = $1',
        [row.id],
      );
      await blobs.delete(row.file_key).catch(() => undefined);
    } catch (error) {
      // Cancelled (or failed) while an entry was being queued: that entry was not queued,
      // and the walk ends here, as at its next check.
      if (error instanceof ImportNotQueued) return;
      throw error;
    } finally {
      walk?.open?.reader.close();
      walk?.outer.close();
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

  /**
   * The archive copied to `folder`, its activities listed (each nested zip unpacked beside
   * it, listed and closed) and its activities.csv read, every limit counted over the whole.
   */
  async #manifest(row: ArchiveRow, folder: string, signal: AbortSignal): Promise<Walk> {
    const budget = new Budget(this.#limits);
    const path = join(folder, 'archive.zip');
    const size = Number(row.file_bytes);
    budget.addTemp(size);
    await this.#roomFor(folder, size);
    await pipeline(this.#options.blobs.stream(row.file_key), createWriteStream(path));
    const outer = await ZipReader.open(path, this.#limits);
    const walk: Walk = {
      folder,
      outer,
      outerEntries: [],
      nested: [],
      items: [],
      csv: new Map(),
      budget,
    };
    try {
      const entries = await outer.entries(budget.entriesLeft);
      budget.addEntries(entries.length);
      (walk as { outerEntries: readonly ZipEntry[] }).outerEntries = entries;
      for (const [at, entry] of entries.entries()) {
        if (at % 1000 === 0) signal.throwIfAborted();
        budget.addUnpacked(entry.bytes);
        if (/(^|\/)activities\.csv$/i.test(entry.name) && !entry.refused) {
          await this.#readCsv(walk, entry, at);
        } else if (/\.zip$/i.test(entry.name)) {
          walk.items.push(...(await this.#nested(walk, entry, at)));
        } else if (ACTIVITY.test(entry.name)) {
          walk.items.push(item(entry.name, at, undefined, entry.refused));
        }
      }
      return walk;
    } catch (error) {
      outer.close();
      throw error;
    }
  }

  async #readCsv(walk: Walk, entry: ZipEntry, at: number): Promise<void> {
    try {
      const text = (await walk.outer.read(entry, this.#limits.maxEntryBytes)).toString('utf8');
      for (const activity of readStravaCsv(text))
        if (activity.filename) walk.csv.set(activity.filename.replace(/^\.\//, ''), activity);
    } catch (error) {
      if (error instanceof ArchiveLimit) throw error;
      if (!(error instanceof CsvError) && !(error instanceof ZipRefused)) throw error;
      walk.items.push(
        item(entry.name, at, undefined, {
          code: 'csv',
          message: `activities.csv was not read: ${error.message}`,
        }),
      );
    }
  }

  /**
   * The activities of a zip inside the archive (one level, as Garmin Connect's export has):
   * unpacked to the temporary folder, listed and closed again (a walk holds one zip open
   * besides the archive). A damaged nested zip is skipped with its reason; a limit of the
   * whole archive fails the archive.
   */
  async #nested(walk: Walk, entry: ZipEntry, at: number): Promise<Item[]> {
    if (entry.refused) return [item(entry.name, at, undefined, entry.refused)];
    const { budget } = walk;
    budget.addZip();
    const zip = walk.nested.length;
    const path = join(walk.folder, `nested-${zip}.zip`);
    let inner: ZipReader | undefined;
    try {
      budget.addTemp(entry.bytes);
      await this.#roomFor(walk.folder, entry.bytes);
      await walk.outer.pipeTo(entry, this.#limits.maxNestedBytes, () => createWriteStream(path));
      walk.nested.push(path);
      inner = await ZipReader.open(path, this.#limits);
      const entries = await inner.entries(budget.entriesLeft);
      budget.addEntries(entries.length);
      const items: Item[] = [];
      for (const [index, innerEntry] of entries.entries()) {
        budget.addUnpacked(innerEntry.bytes);
        const name = `${entry.name}/${innerEntry.name}`;
        if (/\.zip$/i.test(innerEntry.name))
          items.push(
            item(name, index, zip, {
              code: 'nestedTooDeep',
              message: 'Skipped: a zip inside a zip inside the archive',
            }),
          );
        else if (ACTIVITY.test(innerEntry.name))
          items.push(item(name, index, zip, innerEntry.refused));
      }
      return items;
    } catch (error) {
      if (error instanceof ArchiveLimit || !(error instanceof ZipRefused)) throw error;
      // Nothing of it will be read: its file goes now, not at the end of the walk.
      if (walk.nested.length > zip) walk.nested[zip] = '';
      await rm(path, { force: true });
      return [item(entry.name, at, undefined, { code: error.code, message: error.message })];
    } finally {
      inner?.close();
    }
  }

  /** The reader and entry of an item: its nested zip opened, the one open before closed. */
  async #source(walk: Walk, item: Item): Promise<{ reader: ZipReader; entry: ZipEntry }> {
    if (item.zip === undefined) return { reader: walk.outer, entry: walk.outerEntries[item.at]! };
    if (walk.open?.zip !== item.zip) {
      walk.open?.reader.close();
      walk.open = undefined;
      const reader = await ZipReader.open(walk.nested[item.zip]!, this.#limits);
      try {
        walk.open = { zip: item.zip, reader, entries: await reader.entries() };
      } catch (error) {
        reader.close();
        throw error;
      }
    }
    return { reader: walk.open.reader, entry: walk.open.entries[item.at]! };
  }

  /** Queues one item's import (waiting while the archive has enough in flight); a skip says why. */
  async #queueItem(
    row: ArchiveRow,
    index: number,
    item: Item,
    walk: Walk,
  ): Promise<Skipped | undefined> {
    if (item.refused) return { name: shownName(item.name), ...item.refused };
    const { db, imports } = this.#options;
    // Queued by an earlier walk of this archive (one that died before recording its place).
    // One whose process died between its row and its job (`uploading`) never ran: its row
    // goes, and it is queued again now (one walk of an archive at a time: nobody else is
    // queueing it).
    const id = itemId(row.id, index);
    const [queued] = await db.query<{ status: string; file_key: string }>(
      'SELECT status, file_key FROM imports WHERE id = $1',
      [id],
    );
    if (queued?.status === 'uploading') {
      await db.query("DELETE FROM imports WHERE id = $1 AND status = 'uploading'", [id]);
      await this.#options.blobs.delete(queued.file_key).catch(() => undefined);
    } else if (queued) return undefined;
    let bytes: Buffer;
    try {
      const { reader, entry } = await this.#source(walk, item);
      bytes = await reader.read(entry, this.#limits.maxEntryBytes);
    } catch (error) {
      if (error instanceof ArchiveLimit || !(error instanceof ZipRefused)) throw error;
      return { name: shownName(item.name), code: error.code, message: error.message };
    }
    // Named like an activity but not one by its first bytes: skipped here with its reason,
    // never an import job (99,999 such entries once held a walk for hours).
    if (!looksLikeActivity(bytes))
      return {
        name: shownName(item.name),
        code: 'notActivity',
        message: 'Not an activity file: FIT, TCX and GPX (also as .gz) can be imported',
      };
    const fileSha256 = await contentSha256(bytes, this.#limits.maxEntryBytes);
    const [twin] = await db.query<{ id: number }>(
      'SELECT id FROM workouts WHERE user_id = $1 AND file_sha256 = $2',
      [row.user_id, fileSha256],
    );
    if (twin) return { name: shownName(item.name), code: 'duplicate', message: 'Already imported' };
    const request = importRequest(item.name, walk.csv.get(item.name), row.language, fileSha256);
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

function item(name: string, at: number, zip: number | undefined, refused: Item['refused']): Item {
  return {
    name,
    at,
    ...(zip !== undefined ? { zip } : {}),
    ...(refused ? { refused } : {}),
  };
}

/** The import of one archive entry: its metadata from activities.csv when it has a row. */
function importRequest(
  name: string,
  activity: StravaActivity | undefined,
  language: string | null,
  fileSha256: string,
): ImportRequest {
  const sportType = activity?.type ? sportOfStravaType(activity.type) : undefined;
  const notes = activity?.description ?? '';
  const gear = activity?.gear?.trim().slice(0, 120);
  return {
    entryName: name,
    batch: true,
    fileSha256,
    ...(language ? { language } : {}),
    ...(activity?.name ? { name: activity.name.slice(0, 200) } : {}),
    ...(sportType !== undefined ? { sportType } : {}),
    ...(notes ? { notes: notes.slice(0, 10_000) } : {}),
    ...(gear ? { gear } : {}),
  };
}
