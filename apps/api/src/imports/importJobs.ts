// Over 300 lines: the import job's whole life (queue, upload row, wait for the result, retry,
// give-up and clean-up of dead processes' leftovers) is one state machine kept in one place.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@xoss/api-contract';
import { PgBoss, type Db, type JobResult, type JobWithMetadata } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { BlobStore } from '../platform/blobStore.ts';
import type { Database, Queryable } from '../platform/db/db.ts';
import { ApiError } from '../http/envelope.ts';
import {
  storageFullError,
  storageFullPart,
  type StorageHealth,
  type StoragePart,
} from '../platform/storageHealth.ts';
import { AnalysisFailed } from './pool.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The import queue (the demo seed runs its jobs here; closing stops it first). */
    readonly importJobs: ImportJobs;
  }
}

/**
 * Tries of an import after its first, for our own failures: enough for a job to outlive a
 * few process deaths under it (each costs a try) and a database away for minutes.
 */
const RETRY_LIMIT = 10;

/** The queue every API process (and the worker command) shares. */
const IMPORT_QUEUE = 'workout-import';

/**
 * A job's data, as `enqueue` sends it. Anything else (a job written to the queue's tables by
 * hand, or by a broken client of the queue) fails once, for good, before any work.
 */
const jobDataSchema = z.object({ importId: z.uuid() }).strict();

/** The first wait after a storage error, doubled at each error that follows, up to the cap. */
const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 60_000;

/**
 * Errors of a connection closed under a running statement while the process stops: expected
 * then, and said nowhere (every other error is still logged).
 */
const closedConnection = (error: unknown) =>
  /\bis closed\b|after calling end|connection terminated|not queryable|shut down while active/i.test(
    error instanceof Error ? error.message : String(error),
  );

/** What the upload asked for, kept with the import for whichever process runs it. */
export interface ImportRequest {
  readonly name?: string;
  /** The rider's language (the upload's `Accept-Language`), for a default name. */
  readonly language?: string;
  /** Import even when it starts when one of the rider's rides does. */
  readonly overlap?: 'keep';
  readonly idempotencyKey?: string;
  readonly idempotencyHash?: string;
  readonly fileSha256?: string;
  /** The import whose file held this recording too (a chained or multi-activity file). */
  readonly partOf?: string;
  /** The leg of a multisport file this import is (its first import is leg 0). */
  readonly leg?: number;
  /** From an export archive's `activities.csv`: the sport, the rider's description and gear. */
  readonly sportType?: number;
  readonly notes?: string;
  /** The bike or shoes it was done with (Strava's "Activity Gear"). */
  readonly gear?: string;
  /** The file's place in its export archive, named in the archive's failures. */
  readonly entryName?: string;
  /**
   * One of many imported together (an archive): the ride's year, week and day curves are
   * marked for one rebuild when next needed instead of merged ride by ride.
   */
  readonly batch?: boolean;
}

/** One upload on its way to becoming a workout (`imports` row). */
export interface ImportRow {
  readonly id: string;
  readonly user_id: number;
  readonly file_key: string;
  readonly file_bytes: number;
  readonly options: ImportRequest;
  readonly status: 'uploading' | 'queued' | 'done' | 'failed' | 'given_up';
  readonly workout_id: number | null;
  readonly error: StoredError | null;
}

/** An `ApiError` as the import row keeps it, for the request (in any process) that waits. */
interface StoredError {
  readonly code: number;
  readonly detail: string;
  readonly errors?: { path: string; message: string }[];
  readonly headers?: Record<string, string>;
  readonly existingId?: number;
}

const stored = (error: ApiError): StoredError => ({
  code: error.code,
  detail: error.message,
  ...(error.errors ? { errors: [...error.errors] } : {}),
  ...(Object.keys(error.headers).length > 0 ? { headers: error.headers } : {}),
  ...(error.existingId !== undefined ? { existingId: error.existingId } : {}),
});

const apiErrorOf = (error: StoredError): ApiError =>
  new ApiError(error.code as ApiError['code'], error.detail, {
    ...(error.errors ? { errors: error.errors } : {}),
    ...(error.headers ? { headers: error.headers } : {}),
    ...(error.existingId !== undefined ? { existingId: error.existingId } : {}),
  });

/** The import was given up (its request's deadline passed) or settled elsewhere: store nothing. */
class ImportSettled extends Error {
  constructor() {
    super('The import was settled before its result was stored');
    this.name = 'ImportSettled';
  }
}

/**
 * The import was not queued: its archive was cancelled (or failed) before it, or its row was
 * given up while its file was being written. Nothing of it is kept.
 */
export class ImportNotQueued extends Error {
  readonly importId: string;
  constructor(importId: string) {
    super('The import was stopped before it was queued');
    this.importId = importId;
    this.name = 'ImportNotQueued';
  }
}

/**
 * Runs one import: reads its file, analyses it and stores the workout, marking the import
 * `done` in the same transaction (`markImportDone`). An `ApiError` is a failure for good
 * (the file cannot be imported); anything else is retried, by this or another process.
 */
export type ImportRunner = (row: ImportRow, signal: AbortSignal) => Promise<number>;

export interface ImportJobsOptions {
  readonly db: Database;
  readonly blobs: BlobStore;
  readonly log: FastifyBaseLogger;
  /** Runs jobs (`undefined`: this process only enqueues). */
  readonly runner?: ImportRunner | undefined;
  /**
   * Whether this process fetches jobs from the queue (default: when it has a runner).
   * `IMPORT_JOBS=off` keeps the runner for `workHere` (the demo seed) but fetches nothing.
   */
  readonly work?: boolean;
  /** Workers start only at `startWork()`, once what the runner uses is there. */
  readonly deferWork?: boolean;
  /** Told when a write fails for lack of space (`/api/ready` reports it). */
  readonly health?: StorageHealth | undefined;
  /** Runs `resume` after `ms` (tests drive the queue's backoff with their own). */
  readonly schedule?: (ms: number, resume: () => void) => { cancel(): void };
  /** Milliseconds since the epoch (tests pass fake time). */
  readonly now?: () => number;
  /** Jobs this process runs at once. */
  readonly concurrency?: number;
  /** Imports a rider may have queued; more are refused with 503. */
  readonly maxQueuedPerUser?: number;
  /** Imports that may be queued in all. */
  readonly maxQueued?: number;
  /** A job whose worker sends no heartbeat for this long is retried elsewhere (>= 10). */
  readonly heartbeatS?: number;
  /** How often expired jobs (dead workers) are looked for. */
  readonly superviseS?: number;
  /** A job runs at most this long (analysis has its own, shorter, limit). */
  readonly expireS?: number;
  /** Attempts after the first (a worker that died, a database that went away). */
  readonly retryLimit?: number;
  /** An upload whose process died before queueing it is cleaned after this long. */
  readonly staleUploadS?: number;
}

/** Marks an import done in the transaction that stores its workout (or refuses if it is not queued). */
export async function claimImportForStore(tx: Queryable, importId: string): Promise<void> {
  const [row] = await tx.query<{ status: string }>(
    'SELECT status FROM imports WHERE id = $1 FOR UPDATE',
    [importId],
  );
  if (row?.status !== 'queued') throw new ImportSettled();
}

export async function markImportDone(
  tx: Queryable,
  importId: string,
  workoutId: number,
): Promise<void> {
  await tx.query(
    "UPDATE imports SET status = 'done', workout_id = $2, error = NULL, finished_at = now() WHERE id = $1",
    [importId, workoutId],
  );
}

type Outcome =
  | { readonly status: 'done'; readonly workoutId: number }
  | { readonly status: 'failed'; readonly error: ApiError };

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Imports as jobs on a pg-boss queue in the database: the upload stores its file and an
 * `imports` row and enqueues a job in one transaction; any process that runs jobs (every API
 * process by default, or the worker command) analyses it; the request waits for the row to
 * settle. A worker that dies stops sending heartbeats and its job is retried by another; a
 * job that fails for good marks its import `failed` with the error and deletes the file.
 * The same code runs on the embedded database (pg-boss's PGlite adapter) and on PostgreSQL.
 */
export class ImportJobs {
  readonly #boss: PgBoss;
  readonly #db: Database;
  readonly #blobs: BlobStore;
  readonly #log: FastifyBaseLogger;
  readonly #runner: ImportRunner | undefined;
  readonly #options: ImportJobsOptions;
  readonly #health: StorageHealth | undefined;
  readonly #now: () => number;
  readonly #schedule: (ms: number, resume: () => void) => { cancel(): void };
  /** Imports this process runs now: a give-up here stops them at once. */
  readonly #running = new Map<string, AbortController>();
  /** Requests of this process waiting for an import: woken when it settles here. */
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #stopped = new AbortController();
  #sweeper: NodeJS.Timeout | undefined;
  /** The pg-boss workers of this process fetching now (none while backing off). */
  #workerIds: string[] = [];
  /** Who asked for workers here: the configuration, and each `workHere` under way. */
  #workWanted = 0;
  #workStarted = false;
  /**
   * Storage errors back off: the workers stop fetching for `BACKOFF_FIRST_MS * 2^step` (up to
   * `BACKOFF_MAX_MS`); one log line per step. `resume` is set while backing off.
   */
  readonly #backoff: {
    step: number;
    lastAt: number;
    resume: { cancel(): void } | undefined;
  } = { step: 0, lastAt: 0, resume: undefined };
  /** Outcomes decided here that the database may not hold (it was full): local waiters read them. */
  readonly #outcomes = new Map<string, Outcome>();
  /** Imports a rider was told failed whose row could not be settled yet (the sweep tries again). */
  readonly #abandoned = new Set<string>();

  private constructor(boss: PgBoss, options: ImportJobsOptions) {
    this.#boss = boss;
    this.#db = options.db;
    this.#blobs = options.blobs;
    this.#log = options.log;
    this.#runner = options.runner;
    this.#options = options;
    this.#health = options.health;
    this.#now = options.now ?? Date.now;
    this.#schedule =
      options.schedule ??
      ((ms, resume) => {
        const timer = setTimeout(resume, ms);
        timer.unref();
        return { cancel: () => clearTimeout(timer) };
      });
  }

  /** The queue's pg-boss, for the archive walk's own queue (`ArchiveImports`). */
  get boss(): PgBoss {
    return this.#boss;
  }

  static async start(options: ImportJobsOptions): Promise<ImportJobs> {
    const superviseS = options.superviseS ?? 10;
    const boss = new PgBoss({
      ...options.db.queueConnection(),
      schema: 'pgboss',
      superviseIntervalSeconds: superviseS,
      monitorIntervalSeconds: superviseS,
      useListenNotify: true,
      // Scheduling (cron) is not used.
      schedule: false,
    });
    const jobs = new ImportJobs(boss, options);
    boss.on('error', (error) => jobs.#queueError(error));
    await boss.start();
    // Tries after the first, for failures of ours only (a file's own is final at once): a
    // process that died mid-job (kill -9, a restart under way) costs its job a try, so a
    // job must outlive several of them; the waits between tries double, up to a minute.
    const retries = {
      retryLimit: options.retryLimit ?? RETRY_LIMIT,
      retryDelay: 1,
      retryBackoff: true,
      retryDelayMax: 60,
    };
    // Every process creates it; the second and later find it there (and bring a queue an
    // earlier release made to today's tries).
    const queue = await boss.getQueue(IMPORT_QUEUE);
    if (!queue)
      await boss
        .createQueue(IMPORT_QUEUE, {
          notify: true,
          heartbeatSeconds: Math.max(10, options.heartbeatS ?? 10),
          expireInSeconds: options.expireS ?? 900,
          ...retries,
          deleteAfterSeconds: 86_400,
        })
        .catch(async (error: unknown) => {
          if (!(await boss.getQueue(IMPORT_QUEUE))) throw error;
        });
    else if (queue.retryLimit !== retries.retryLimit || !queue.retryBackoff)
      await boss.updateQueue(IMPORT_QUEUE, retries);
    // Caches the queue's table in pg-boss: `send` inside our transaction must not need a
    // second connection (the embedded database has one, held by that transaction).
    await boss.getJobById(IMPORT_QUEUE, randomUUID());
    if (!options.deferWork) await jobs.startWork();
    return jobs;
  }

  /**
   * Starts fetching jobs (when this process has a runner and `work` is on): at `start`, or
   * here once what the runner needs exists (`deferWork`). A second call does nothing.
   */
  async startWork(): Promise<void> {
    if (this.#workStarted || !this.#options.runner || !(this.#options.work ?? true)) return;
    this.#workStarted = true;
    this.#workWanted++;
    await this.#startWorkers();
  }

  /**
   * Runs queued jobs in this process until the returned function is called, even when it
   * only enqueues (`IMPORT_JOBS=off`): the demo seed of a first process, whose worker may
   * not have started yet, imports its rides here rather than wait for one.
   */
  async workHere(): Promise<() => Promise<void>> {
    if (!this.#runner) throw new Error('This process has no import runner');
    this.#workWanted++;
    if (this.#workerIds.length === 0 && !this.#backoff.resume) await this.#startWorkers();
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      if (--this.#workWanted === 0) await this.#stopWorkers(true);
    };
  }

  async #startWorkers(): Promise<void> {
    if (this.#stopped.signal.aborted || this.#workerIds.length > 0) return;
    const boss = this.#boss;
    // One pg-boss worker per thread, each told to fetch again at once after a job: alone,
    // a worker sleeps its polling interval after every job (4 jobs/s for two workers).
    for (let i = 0; i < Math.max(1, this.#options.concurrency ?? 2); i++) {
      const self = { id: '' };
      self.id = await boss.work(
        IMPORT_QUEUE,
        {
          localConcurrency: 1,
          // One running import per rider across every process: riders take turns.
          groupConcurrency: 1,
          includeMetadata: true,
          // Each job says how it ended: a malformed one is dead-lettered (failed for good,
          // no retries), whatever the queue's retry limit.
          perJobResults: true,
          // New jobs wake the workers (NOTIFY); a rider's next job, held back while the
          // previous one ran, is found by polling.
          pollingIntervalSeconds: 0.5,
          notifyPollingIntervalSeconds: 0.5,
        },
        async (batch: JobWithMetadata<unknown>[]): Promise<JobResult[]> => {
          const results: JobResult[] = [];
          try {
            // `includeMetadata`: each job carries its retry count and limit.
            for (const job of batch) results.push(await this.#handle(job));
          } finally {
            if (self.id) boss.notifyWorker(self.id);
          }
          return results;
        },
      );
      this.#workerIds.push(self.id);
    }
    if (!this.#sweeper) {
      this.#sweeper = setInterval(
        () => {
          void this.settleDeadJobs().catch((error: unknown) => {
            if (this.#stopped.signal.aborted) return;
            const part = storageFullPart(error);
            if (part) this.#storageTrouble(error, part);
            else this.#log.error({ err: error }, 'import queue sweep');
          });
        },
        (this.#options.superviseS ?? 10) * 1000,
      );
      this.#sweeper.unref();
    }
  }

  async #stopWorkers(wait: boolean): Promise<void> {
    const ids = this.#workerIds;
    this.#workerIds = [];
    if (this.#workWanted === 0) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
    }
    await Promise.all(
      ids.map((id) => this.#boss.offWork(IMPORT_QUEUE, { id, wait }).catch(() => undefined)),
    );
  }

  /**
   * An error pg-boss reports (a fetch, a maintenance round): storage errors back off; the
   * expected errors of a closing connection while stopping are not logged; the rest are.
   */
  #queueError(error: unknown): void {
    if (this.#stopped.signal.aborted && closedConnection(error)) return;
    const part = storageFullPart(error);
    if (part) this.#storageTrouble(error, part);
    else this.#log.error({ err: error }, 'import queue');
  }

  /**
   * A write of the queue failed for lack of space: the workers stop fetching for a while
   * (doubling at each error that follows, up to a minute), with one log line per step, instead
   * of failing every job (and logging) several times a second. A queue that ran clean for
   * twice its last wait starts again from the first step.
   */
  #storageTrouble(error: unknown, part: StoragePart): void {
    this.#health?.failed(part, error);
    if (this.#backoff.resume || this.#stopped.signal.aborted) return;
    const now = this.#now();
    const backoff = this.#backoff;
    const last = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.max(0, backoff.step - 1));
    if (backoff.step > 0 && now - backoff.lastAt > 2 * last + BACKOFF_FIRST_MS) backoff.step = 0;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** backoff.step);
    backoff.step++;
    backoff.lastAt = now;
    this.#log.error(
      { err: error, storage: part, retryInMs: delay },
      `import queue: ${part === 'database' ? 'the database' : 'the file store'} is full; jobs wait ${delay / 1000} s`,
    );
    if (this.#workerIds.length > 0) void this.#stopWorkers(false);
    backoff.resume = this.#schedule(delay, () => {
      backoff.resume = undefined;
      backoff.lastAt = this.#now();
      if (this.#workWanted > 0) void this.#startWorkers();
    });
  }

  /**
   * Stores the file and enqueues its import: the row is made first (`uploading`, counted
   * against the rider's limit under their row lock), then the file is written, then the row
   * becomes `queued` in the transaction that adds the job. A process that dies between
   * leaves a row that names the file, and the sweep deletes both's leftovers
   * (`settleDeadJobs`). Refuses with 503 when the rider (or everyone) has too many imports;
   * throws `ImportNotQueued` for an archive's entry once that archive is cancelled or failed.
   */
  async enqueue(
    userId: number,
    bytes: Uint8Array,
    request: ImportRequest,
    place: {
      /** The import's id when the caller decides it: queued once, however often asked. */
      readonly id?: string;
      /** The export archive the file came from. */
      readonly archiveId?: string;
    } = {},
  ): Promise<string> {
    const id = place.id ?? randomUUID();
    const fileKey = `workouts/${id}.upload`;
    const maxPerUser = this.#options.maxQueuedPerUser ?? 32;
    const maxAll = this.#options.maxQueued ?? 256;
    // A write that fails for lack of space is answered at once (503, retry later), with
    // nothing kept: no retry would find more room, and waiting only holds the rider.
    const fresh = await this.#db
      .transaction(async (tx) => {
        // Counted under the rider's row lock: simultaneous uploads are counted one by one.
        await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
        // An archive's entry only while its archive runs, checked under a share lock: a cancel
        // (an update of that row) waits for this transaction, then gives up the row made here.
        if (place.archiveId !== undefined) {
          const [running] = await tx.query(
            `SELECT id FROM archive_imports WHERE id = $1 AND status = 'running' FOR SHARE`,
            [place.archiveId],
          );
          if (!running) throw new ImportNotQueued(id);
        }
        const [counts] = await tx.query<{ mine: number; all: number }>(
          `SELECT count(*) FILTER (WHERE user_id = $1)::int AS mine, count(*)::int AS all
           FROM imports WHERE status IN ('uploading', 'queued')`,
          [userId],
        );
        if (counts && (counts.mine > maxPerUser || counts.all >= maxAll))
          throw new ApiError(
            ErrorCode.Unavailable,
            counts.mine > maxPerUser
              ? `You already have ${counts.mine} imports under way; send more once they are done`
              : 'Too many imports are under way; please try again in a minute',
            { headers: { 'retry-after': '30' } },
          );
        const inserted = await tx.query(
          `INSERT INTO imports (id, user_id, file_key, file_bytes, options, archive_id)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING RETURNING id`,
          [id, userId, fileKey, bytes.length, JSON.stringify(request), place.archiveId ?? null],
        );
        return inserted.length > 0;
      })
      .catch((error: unknown) => {
        // Rolled back: nothing was written.
        throw this.#refuseForSpace(error) ?? error;
      });
    // Queued before (the caller named the import): nothing more to do.
    if (!fresh) return id;
    try {
      await this.#blobs.put(fileKey, bytes);
      await this.#db.transaction(async (tx) => {
        const [ahead] = await tx.query<{ queued: number }>(
          "SELECT count(*)::int AS queued FROM imports WHERE user_id = $1 AND status = 'queued'",
          [userId],
        );
        // Only from `uploading`: a cancel of its archive (or the sweep) since the row was made
        // stands, and no job is sent. Unguarded, a cancelled archive's entry was imported.
        const [stillWanted] = await tx.query(
          "UPDATE imports SET status = 'queued' WHERE id = $1 AND status = 'uploading' RETURNING id",
          [id],
        );
        if (!stillWanted) throw new ImportNotQueued(id);
        // Riders take turns in the queue, not only in the threads: a job's priority is minus
        // the rider's jobs already waiting, so a rider's first import goes before another
        // rider's ninth (the queue takes higher priorities first, then the oldest).
        await this.#boss.send(
          IMPORT_QUEUE,
          { importId: id },
          {
            id,
            group: { id: String(userId) },
            priority: -Math.min(ahead?.queued ?? 0, 1000),
            db: queueDb(tx),
          },
        );
      });
    } catch (error) {
      if (error instanceof ImportNotQueued) {
        // Its file was written after the cancel looked for it: it goes here.
        await this.#blobs.delete(fileKey).catch(() => undefined);
        // A rider's own upload whose row the sweep took (its file took that long to write).
        if (place.archiveId === undefined)
          throw new ApiError(
            ErrorCode.Unavailable,
            'The file could not be stored in time; please send it again',
            { headers: { 'retry-after': '30' } },
          );
        throw error;
      }
      const full = this.#refuseForSpace(error);
      if (full) {
        // The transaction that queues the job rolled back (no job); the file and the row go.
        // Deleting needs no room; should it fail, the sweep removes an `uploading` row later.
        await this.#blobs.delete(fileKey).catch(() => undefined);
        await this.#db
          .query("DELETE FROM imports WHERE id = $1 AND status IN ('uploading', 'queued')", [id])
          .catch(() => undefined);
        throw full;
      }
      await this.#settle(id, 'failed', failedForGood(error), ['uploading', 'queued']).catch(
        () => undefined,
      );
      throw error;
    }
    return id;
  }

  /** The 503 for a write that failed for lack of space (and `/api/ready` is told), if it did. */
  #refuseForSpace(error: unknown): ApiError | undefined {
    const part = storageFullPart(error);
    if (!part) return undefined;
    this.#health?.failed(part, error);
    this.#log.warn({ err: error, storage: part }, 'an upload was refused: storage is full');
    return storageFullError(part);
  }

  /**
   * Waits until the import settles (in whichever process runs it). When `signal` aborts
   * first (the request's deadline, the client gone), the import is given up: it stops,
   * stores nothing, and the abort's reason is thrown; unless it was done just then. A
   * request waiting for another's import (`own: false`, a retry) only stops waiting.
   */
  async wait(
    importId: string,
    signal?: AbortSignal,
    options: { readonly own?: boolean } = {},
  ): Promise<Outcome> {
    let wake: () => void = () => undefined;
    const wakers = this.#waiters.get(importId) ?? new Set();
    this.#waiters.set(importId, wakers);
    try {
      for (let round = 0; ; round++) {
        const outcome = this.#outcomes.get(importId) ?? (await this.#outcome(importId));
        if (outcome) return outcome;
        // The queue of this process waits out a full disk: the rider is told now, not at the
        // request's deadline (the import is given up; it would fail for the same reason).
        if (this.#waitingOutFullStorage()) {
          const full = storageFullError('database');
          if (options.own !== false) {
            const after = await this.giveUp(importId, full).catch(() => {
              this.#abandon(importId);
              return undefined;
            });
            if (after) return after;
          }
          return { status: 'failed', error: full };
        }
        if (signal?.aborted) {
          const after = options.own === false ? undefined : await this.giveUp(importId);
          if (after) return after;
          throw signal.reason instanceof Error ? signal.reason : new Error('Given up');
        }
        // Every few seconds: a job whose retries ran out while no handler was alive.
        if (round % 20 === 19) await this.#settleIfDead(importId);
        const nap = new AbortController();
        wake = () => nap.abort();
        wakers.add(wake);
        await sleep(
          Math.min(250, 20 + round * 20),
          AbortSignal.any([nap.signal, ...(signal ? [signal] : [])]),
        );
        wakers.delete(wake);
      }
    } finally {
      wakers.delete(wake);
      if (wakers.size === 0) this.#waiters.delete(importId);
    }
  }

  /**
   * The queue's jobs by state, as pg-boss's monitor last counted them (every `superviseS`,
   * kept on the queue's row): one small read, for `/metrics` and `/api/ready`. `failed`
   * counts the failures still kept (a day), not all time. Undefined when the queue is gone.
   */
  async stats(): Promise<
    Record<'queued' | 'ready' | 'deferred' | 'active' | 'failed', number> | undefined
  > {
    const queue = await this.#boss.getQueue(IMPORT_QUEUE);
    if (!queue) return undefined;
    return {
      queued: queue.queuedCount,
      ready: queue.readyCount,
      deferred: queue.deferredCount,
      active: queue.activeCount,
      failed: queue.failedCount,
    };
  }

  /** Whether this process's workers wait out a full disk now (they fetch no jobs). */
  get backingOff(): boolean {
    return this.#backoff.resume !== undefined;
  }

  /** Whether this process's queue is backing off from storage that was full a moment ago. */
  #waitingOutFullStorage(): boolean {
    if (!this.#backoff.resume || this.#workerIds.length > 0 || this.#workWanted === 0) return false;
    return this.#health ? this.#health.failing('database') || this.#health.failing('files') : true;
  }

  /** A rider was told this import failed, but its row could not say so: settled later. */
  #abandon(importId: string): void {
    this.#abandoned.add(importId);
    // Bounded: the oldest are left to the sweep of dead jobs.
    if (this.#abandoned.size > 1000) this.#abandoned.delete(this.#abandoned.values().next().value!);
  }

  /** Keeps an outcome decided here for local waiters (bounded: the oldest go first). */
  #decided(importId: string, outcome: Outcome): void {
    this.#outcomes.set(importId, outcome);
    if (this.#outcomes.size > 1000) this.#outcomes.delete(this.#outcomes.keys().next().value!);
    this.#settled(importId);
  }

  /**
   * Gives an import up: it stores nothing and its file goes. Returns its outcome instead
   * when it had already settled (done just before).
   */
  async giveUp(
    importId: string,
    error = new ApiError(ErrorCode.Unavailable, 'The import was given up'),
  ): Promise<Outcome | undefined> {
    if (!(await this.#settle(importId, 'given_up', error))) return this.#outcome(importId);
    this.#running.get(importId)?.abort(error);
    await this.#boss.cancel(IMPORT_QUEUE, importId).catch(() => undefined);
    return undefined;
  }

  /**
   * Ends an import without a workout (first come: a settled import is left alone), then
   * deletes its file and records that it is gone. Whether this call settled it.
   */
  async #settle(
    importId: string,
    status: 'failed' | 'given_up',
    error: ApiError,
    from: readonly string[] = ['queued'],
  ): Promise<boolean> {
    const [row] = await this.#db.query<{ file_key: string }>(
      `UPDATE imports SET status = $2, error = $3, finished_at = now()
        WHERE id = $1 AND status = ANY($4::text[]) RETURNING file_key`,
      [importId, status, JSON.stringify(stored(error)), from],
    );
    if (row) await this.#dropFile(importId, row.file_key);
    this.#settled(importId);
    return row !== undefined;
  }

  async #dropFile(importId: string, fileKey: string): Promise<void> {
    await this.#blobs.delete(fileKey);
    await this.#db.query('UPDATE imports SET file_gone = true WHERE id = $1', [importId]);
  }

  async #outcome(importId: string): Promise<Outcome | undefined> {
    const [row] = await this.#db.query<Pick<ImportRow, 'status' | 'workout_id' | 'error'>>(
      'SELECT status, workout_id, error FROM imports WHERE id = $1',
      [importId],
    );
    if (!row)
      return { status: 'failed', error: new ApiError(ErrorCode.NotFound, 'No such import') };
    if (row.status === 'done' && row.workout_id !== null)
      return { status: 'done', workoutId: row.workout_id };
    // Still under way (a retry may wait for an upload whose file is still being written).
    if (row.status === 'queued' || row.status === 'uploading') return undefined;
    return {
      status: 'failed',
      error: row.error
        ? apiErrorOf(row.error)
        : new ApiError(ErrorCode.Unavailable, 'The import did not finish; please send it again'),
    };
  }

  #settled(importId: string): void {
    for (const wake of this.#waiters.get(importId) ?? []) wake();
  }

  /** Marks an import failed for good; its file goes. */
  async #fail(importId: string, error: ApiError): Promise<void> {
    await this.#settle(importId, 'failed', error);
  }

  /**
   * One job, from validation to its result for pg-boss: `completed` when it ended (a workout,
   * or a failure stored on its import), `deadletter` when it must never run again (malformed,
   * or storage full: the rider was told), `failed` when another attempt may succeed.
   */
  async #handle(job: JobWithMetadata<unknown>): Promise<JobResult> {
    const parsed = jobDataSchema.safeParse(job.data);
    if (!parsed.success) {
      // Once per job: dead-lettered, it never runs again and holds no rider's turn.
      this.#log.warn(
        { jobId: job.id, issues: parsed.error.issues.map((issue) => issue.message) },
        'import queue: a malformed job was dropped',
      );
      return { id: job.id, status: 'deadletter', output: { message: 'malformed job data' } };
    }
    const { importId } = parsed.data;
    // At debug level a line per job: what an operator follows when imports seem stuck.
    this.#log.debug({ jobId: job.id, importId }, 'import job started');
    try {
      await this.#run(job, importId);
      if (this.#backoff.step > 0 && !this.#backoff.resume) this.#backoff.step = 0;
      return { id: job.id, status: 'completed' };
    } catch (error) {
      const part = storageFullPart(error);
      if (part && !this.#stopped.signal.aborted) {
        // No retry would find more room: the rider is told now (here, even when the row
        // cannot be written), the file goes, and the queue waits a while before the next job.
        const failure = storageFullError(part);
        this.#decided(importId, { status: 'failed', error: failure });
        this.#storageTrouble(error, part);
        await this.#settle(importId, 'failed', failure).catch(() => this.#abandon(importId));
        return { id: job.id, status: 'deadletter', output: { message: 'storage full' } };
      }
      return { id: job.id, status: 'failed', output: { message: String(error) } };
    }
  }

  async #run(job: JobWithMetadata<unknown>, importId: string): Promise<void> {
    // Told failed already (storage was full): it stays failed.
    if (this.#abandoned.has(importId)) {
      await this.#settle(importId, 'failed', storageFullError('database'));
      this.#abandoned.delete(importId);
      return;
    }
    const [row] = await this.#db.query<ImportRow>(
      `UPDATE imports SET attempts = attempts + 1 WHERE id = $1 AND status = 'queued'
        RETURNING id, user_id, file_key, file_bytes, options, status, workout_id, error`,
      [importId],
    );
    // Settled already: given up, or done by an attempt that died before completing its job;
    // or no such import at all.
    if (!row) return;
    const local = new AbortController();
    this.#running.set(importId, local);
    const signal = AbortSignal.any([job.signal, local.signal, this.#stopped.signal]);
    try {
      await this.#runner!(row, signal);
      this.#settled(importId);
    } catch (error) {
      if (error instanceof ImportSettled || local.signal.aborted) return;
      if (error instanceof ApiError) {
        await this.#fail(importId, error);
        return;
      }
      // This process is stopping, or its claim on the job was lost: another attempt follows.
      if (signal.aborted || storageFullPart(error)) throw error;
      if (job.retryCount >= job.retryLimit) {
        this.#log.error({ err: error, importId }, 'import failed for good');
        await this.#fail(importId, failedForGood(error));
        return;
      }
      this.#log.warn({ err: error, importId }, 'import failed; it will be retried');
      throw error;
    } finally {
      this.#running.delete(importId);
    }
  }

  /** One import whose job failed or was cancelled without its handler saying why (it died). */
  async #settleIfDead(importId: string): Promise<void> {
    const job = await this.#boss.getJobById(IMPORT_QUEUE, importId).catch(() => null);
    if (job && (job.state === 'failed' || job.state === 'cancelled'))
      await this.#fail(importId, failedForGood(new Error(`job ${job.state}`)));
  }

  /**
   * Leftovers of processes that died, cleaned by every process that runs jobs, every few
   * seconds: imports still queued whose jobs failed for good (their last worker died) or are
   * gone; uploads whose process died before queueing them (`uploading` for longer than
   * `staleUploadS`); files of ended imports whose deletion did not happen.
   */
  async settleDeadJobs(): Promise<number> {
    const staleS = this.#options.staleUploadS ?? 300;
    const dead = await this.#db.query<{ id: string; status: string }>(
      `SELECT i.id, i.status FROM imports i
         LEFT JOIN pgboss.job j ON j.name = $1 AND j.id = i.id
        WHERE (i.status = 'queued'
               AND (j.state IN ('failed', 'cancelled')
                    OR (j.id IS NULL AND i.created_at < now() - interval '10 minutes')))
           OR (i.status = 'uploading' AND i.created_at < now() - make_interval(secs => $2))`,
      [IMPORT_QUEUE, staleS],
    );
    for (const { id, status } of dead) {
      // Said once, with the import: the rider reads a failure, the operator why.
      this.#log.warn(
        { importId: id, status },
        'import failed for good: its job ended without a result',
      );
      await this.#settle(id, 'failed', failedForGood(new Error('the job ended without a result')), [
        status,
      ]);
    }
    const undeleted = await this.#db.query<{ id: string; file_key: string }>(
      `SELECT id, file_key FROM imports
        WHERE status IN ('failed', 'given_up') AND NOT file_gone
          AND finished_at < now() - interval '1 minute'`,
    );
    for (const { id, file_key } of undeleted) await this.#dropFile(id, file_key);
    // Imports whose riders were told they failed while their rows could not be written.
    let abandoned = 0;
    for (const id of [...this.#abandoned]) {
      if (await this.#settle(id, 'failed', storageFullError('database'))) abandoned++;
      this.#abandoned.delete(id);
    }
    return dead.length + undeleted.length + abandoned;
  }

  /**
   * Stops fetching and running jobs (call before the database closes; again is harmless).
   * Running jobs stop here; their claims lapse and another process retries them.
   */
  async stop(): Promise<void> {
    if (!this.#stopped.signal.aborted)
      this.#stopped.abort(new AnalysisFailed('closed', 'The import queue is closed'));
    clearInterval(this.#sweeper);
    this.#backoff.resume?.cancel();
    await this.#boss.stop({ graceful: false, close: true, timeout: 2000 }).catch(() => undefined);
  }
}

/**
 * A transaction as pg-boss' `Db`: a job sent through it is queued in the same transaction as
 * the rows that describe it, so neither exists without the other.
 */
export function queueDb(tx: Queryable): Db {
  return {
    executeSql: async (text: string, values?: unknown[]) => ({
      rows: await tx.query(text, values ?? []),
    }),
  };
}

/** What a rider is told when every attempt failed for a reason of ours. */
function failedForGood(error: unknown): ApiError {
  void error;
  return new ApiError(
    ErrorCode.Unavailable,
    'The file could not be analysed just now; please try again',
    { headers: { 'retry-after': '5' } },
  );
}
