// Over 300 lines: the import job's whole life (queue, upload row, wait for the result, retry,
// give-up and clean-up of dead processes' leftovers) is one state machine kept in one place.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@xoss/api-contract';
import { PgBoss, type Db, type JobWithMetadata } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from '../blobStore.ts';
import type { Database, Queryable } from '../db/db.ts';
import { ApiError } from '../http.ts';
import { AnalysisFailed } from './pool.ts';

/** The queue every API process (and the worker command) shares. */
const IMPORT_QUEUE = 'workout-import';

/** What the upload asked for, kept with the import for whichever process runs it. */
export interface ImportRequest {
  readonly name?: string;
  readonly idempotencyKey?: string;
  readonly idempotencyHash?: string;
  readonly fileSha256?: string;
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
 * Runs one import: reads its file, analyses it and stores the workout, marking the import
 * `done` in the same transaction (`markImportDone`). An `ApiError` is a failure for good
 * (the file cannot be imported); anything else is retried, by this or another process.
 */
export type ImportRunner = (row: ImportRow, signal: AbortSignal) => Promise<number>;

export interface ImportJobsOptions {
  readonly db: Database;
  readonly blobs: BlobStore;
  readonly log: FastifyBaseLogger;
  /** Runs jobs in this process (`undefined`: it only enqueues, as an API-only process). */
  readonly runner?: ImportRunner | undefined;
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
  /** Imports this process runs now: a give-up here stops them at once. */
  readonly #running = new Map<string, AbortController>();
  /** Requests of this process waiting for an import: woken when it settles here. */
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #stopped = new AbortController();
  #sweeper: NodeJS.Timeout | undefined;

  private constructor(boss: PgBoss, options: ImportJobsOptions) {
    this.#boss = boss;
    this.#db = options.db;
    this.#blobs = options.blobs;
    this.#log = options.log;
    this.#runner = options.runner;
    this.#options = options;
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
    boss.on('error', (error) => options.log.error({ err: error }, 'import queue'));
    await boss.start();
    // Every process creates it; the second and later find it there.
    if (!(await boss.getQueue(IMPORT_QUEUE)))
      await boss
        .createQueue(IMPORT_QUEUE, {
          notify: true,
          heartbeatSeconds: Math.max(10, options.heartbeatS ?? 10),
          expireInSeconds: options.expireS ?? 900,
          retryLimit: options.retryLimit ?? 2,
          retryDelay: 1,
          deleteAfterSeconds: 86_400,
        })
        .catch(async (error: unknown) => {
          if (!(await boss.getQueue(IMPORT_QUEUE))) throw error;
        });
    // Caches the queue's table in pg-boss: `send` inside our transaction must not need a
    // second connection (the embedded database has one, held by that transaction).
    await boss.getJobById(IMPORT_QUEUE, randomUUID());
    if (options.runner) {
      // One pg-boss worker per thread, each told to fetch again at once after a job: alone,
      // a worker sleeps its polling interval after every job (4 jobs/s for two workers).
      for (let i = 0; i < Math.max(1, options.concurrency ?? 2); i++) {
        const self = { id: '' };
        self.id = await boss.work<{ importId: string }>(
          IMPORT_QUEUE,
          {
            localConcurrency: 1,
            // One running import per rider across every process: riders take turns.
            groupConcurrency: 1,
            includeMetadata: true,
            // New jobs wake the workers (NOTIFY); a rider's next job, held back while the
            // previous one ran, is found by polling.
            pollingIntervalSeconds: 0.5,
            notifyPollingIntervalSeconds: 0.5,
          },
          async ([job]) => {
            if (!job) return;
            try {
              // `includeMetadata`: the job carries its retry count and limit.
              await jobs.#run(job as JobWithMetadata<{ importId: string }>);
            } finally {
              if (self.id) boss.notifyWorker(self.id);
            }
          },
        );
      }
      jobs.#sweeper = setInterval(() => {
        void jobs.settleDeadJobs().catch((error: unknown) => {
          if (!jobs.#stopped.signal.aborted)
            options.log.error({ err: error }, 'import queue sweep');
        });
      }, superviseS * 1000);
      jobs.#sweeper.unref();
    }
    return jobs;
  }

  /**
   * Stores the file and enqueues its import: the row is made first (`uploading`, counted
   * against the rider's limit under their row lock), then the file is written, then the row
   * becomes `queued` in the transaction that adds the job. A process that dies between
   * leaves a row that names the file, and the sweep deletes both's leftovers
   * (`settleDeadJobs`). Refuses with 503 when the rider (or everyone) has too many imports.
   */
  async enqueue(userId: number, bytes: Uint8Array, request: ImportRequest): Promise<string> {
    const id = randomUUID();
    const fileKey = `workouts/${id}.upload`;
    const maxPerUser = this.#options.maxQueuedPerUser ?? 32;
    const maxAll = this.#options.maxQueued ?? 256;
    await this.#db.transaction(async (tx) => {
      // Counted under the rider's row lock: simultaneous uploads are counted one by one.
      await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
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
      await tx.query(
        'INSERT INTO imports (id, user_id, file_key, file_bytes, options) VALUES ($1, $2, $3, $4, $5)',
        [id, userId, fileKey, bytes.length, JSON.stringify(request)],
      );
    });
    try {
      await this.#blobs.put(fileKey, bytes);
      await this.#db.transaction(async (tx) => {
        await tx.query("UPDATE imports SET status = 'queued' WHERE id = $1", [id]);
        const db: Db = {
          executeSql: async (text: string, values?: unknown[]) => ({
            rows: await tx.query(text, values ?? []),
          }),
        };
        await this.#boss.send(
          IMPORT_QUEUE,
          { importId: id },
          { id, group: { id: String(userId) }, db },
        );
      });
    } catch (error) {
      await this.#settle(id, 'failed', failedForGood(error), ['uploading', 'queued']).catch(
        () => undefined,
      );
      throw error;
    }
    return id;
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
        const outcome = await this.#outcome(importId);
        if (outcome) return outcome;
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
   * Gives an import up: it stores nothing and its file goes. Returns its outcome instead
   * when it had already settled (done just before).
   */
  async giveUp(importId: string): Promise<Outcome | undefined> {
    const error = new ApiError(ErrorCode.Unavailable, 'The import was given up');
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

  async #run(job: JobWithMetadata<{ importId: string }>): Promise<void> {
    const { importId } = job.data;
    const [row] = await this.#db.query<ImportRow>(
      `UPDATE imports SET attempts = attempts + 1 WHERE id = $1 AND status = 'queued'
        RETURNING id, user_id, file_key, file_bytes, options, status, workout_id, error`,
      [importId],
    );
    // Settled already: given up, or done by an attempt that died before completing its job.
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
      if (signal.aborted) throw error;
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
    for (const { id, status } of dead)
      await this.#settle(id, 'failed', failedForGood(new Error('the job ended without a result')), [
        status,
      ]);
    const undeleted = await this.#db.query<{ id: string; file_key: string }>(
      `SELECT id, file_key FROM imports
        WHERE status IN ('failed', 'given_up') AND NOT file_gone
          AND finished_at < now() - interval '1 minute'`,
    );
    for (const { id, file_key } of undeleted) await this.#dropFile(id, file_key);
    return dead.length + undeleted.length;
  }

  async stop(): Promise<void> {
    this.#stopped.abort(new AnalysisFailed('closed', 'The import queue is closed'));
    clearInterval(this.#sweeper);
    // Running jobs stop here; their claims lapse and another process retries them.
    await this.#boss.stop({ graceful: false, close: true, timeout: 2000 }).catch(() => undefined);
  }
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
