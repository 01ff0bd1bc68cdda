import type { Readable } from 'node:stream';
import { ErrorCode } from '@xoss/api-contract';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BlobStore } from './blobStore.ts';
import type { Database } from './db/db.ts';
import { ApiError, sendError } from '../http/envelope.ts';
import type { QueueProbe, ReadyChecks } from './readiness.ts';
import { bearerMatches } from './digest.ts';
import { storageFullPart } from './storageHealth.ts';

/** Where Prometheus scrapes (outside `/api`: it is for operators, not for the apps). */
const METRICS_PATH = '/metrics';

/** The route label of requests no route matched (404s, app pages): one label, not their URLs. */
const UNMATCHED = 'unmatched';
/** Methods kept as they are; anything else is counted as `OTHER` (bounded label values). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The operator's numbers of one server instance: each has its own registry (never
 * prom-client's global one), so several servers in one process (tests) count apart.
 */
export class ApiMetrics {
  readonly registry = new Registry();
  readonly #httpRequests: Counter<'route' | 'method' | 'status'>;
  readonly #httpDuration: Histogram<'route' | 'method' | 'status'>;
  readonly #importDuration: Histogram<'outcome'>;
  readonly #importOutcomes: Counter<'outcome' | 'code'>;
  readonly #loginLimited: Counter<'reason'>;
  readonly #requestsLimited: Counter;
  readonly #fileStoreErrors: Counter<'operation'>;
  readonly #readyChecks: Gauge<'check'>;
  #imports: QueueProbe | undefined;

  /**
   * `processMetrics`: also Node's own (event-loop lag, heap, GC, CPU, open handles); only
   * when metrics are served, as they cost a little (an event-loop delay histogram, a GC
   * observer) that nobody could read otherwise.
   */
  constructor(options: { db: Database; processMetrics: boolean }) {
    const registers = [this.registry];
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    this.#httpRequests = new Counter({
      name: 'xoss_http_requests_total',
      help: 'HTTP requests answered, by route template (never the raw URL), method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.#httpDuration = new Histogram({
      name: 'xoss_http_request_duration_seconds',
      help: 'Time from receiving a request to its reply, by route template, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.#importDuration = new Histogram({
      name: 'xoss_import_job_duration_seconds',
      help: 'Time an import job ran in this process (analysis and storing), by outcome',
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
    this.#importOutcomes = new Counter({
      name: 'xoss_import_outcomes_total',
      help: 'Import jobs run in this process, by outcome and API error code (0: imported)',
      labelNames: ['outcome', 'code'],
      registers,
    });
    this.#loginLimited = new Counter({
      name: 'xoss_login_limited_total',
      help: 'Logins refused by a limit: rate_limited (per account or address), busy (hashing queue full)',
      labelNames: ['reason'],
      registers,
    });
    this.#requestsLimited = new Counter({
      name: 'xoss_requests_limited_total',
      help: 'Requests refused with 429 by a per-rider or per-address limit (requests, corrections)',
      registers,
    });
    this.#fileStoreErrors = new Counter({
      name: 'xoss_file_store_errors_total',
      help: 'File store (local folder or S3) operations that failed, missing files aside',
      labelNames: ['operation'],
      registers,
    });
    this.#readyChecks = new Gauge({
      name: 'xoss_ready_check_ok',
      help: 'Whether each check of the last /api/ready poll passed (1) or failed (0)',
      labelNames: ['check'],
      registers,
    });
    const queue = () => this.#imports;
    new Gauge({
      name: 'xoss_import_queue_jobs',
      help: "Import jobs in the shared queue by state, as pg-boss's monitor last counted them",
      labelNames: ['state'],
      registers,
      // Read at scrape time from the queue's own row (pg-boss keeps the counts there): one
      // small query, never a count over the jobs table.
      async collect() {
        const stats = await queue()
          ?.stats()
          .catch(() => undefined);
        this.reset();
        if (!stats) return;
        for (const [state, count] of Object.entries(stats)) this.set({ state }, count);
      },
    });
    new Gauge({
      name: 'xoss_import_queue_backing_off',
      help: "1 while this process's import workers wait out a full disk, else 0",
      registers,
      collect() {
        this.set(queue()?.backingOff ? 1 : 0);
      },
    });
    const { db } = options;
    new Gauge({
      name: 'xoss_db_pool_connections',
      help: 'Database connections of this process (PostgreSQL pool: total, idle; embedded: its one connection)',
      labelNames: ['state'],
      registers,
      collect() {
        const usage = db.usage?.();
        if (!usage) return;
        this.set({ state: 'total' }, usage.total);
        this.set({ state: 'idle' }, usage.idle);
      },
    });
    new Gauge({
      name: 'xoss_db_pool_waiting',
      help: 'Queries waiting for a connection (PostgreSQL) or statements queued behind the running one (embedded)',
      registers,
      collect() {
        const usage = db.usage?.();
        if (usage) this.set(usage.waiting);
      },
    });
  }

  /** The import queue whose depth is reported (it starts after the metrics). */
  watchQueue(imports: QueueProbe): void {
    this.#imports = imports;
  }

  /** One answered request; `route` is the route's URL template, undefined when none matched. */
  request(route: string | undefined, method: string, status: number, seconds: number): void {
    const labels = {
      route: route ?? UNMATCHED,
      method: METHODS.has(method) ? method : 'OTHER',
      status: String(status),
    };
    this.#httpRequests.inc(labels);
    this.#httpDuration.observe(labels, seconds);
  }

  /** Counts the security events that are limits being hit (server.ts's security log). */
  securityEvent(event: string): void {
    if (event === 'login.rateLimited') this.#loginLimited.inc({ reason: 'rate_limited' });
    else if (event === 'login.busy') this.#loginLimited.inc({ reason: 'busy' });
    else if (event === 'request.rateLimited' || event === 'workout.correctionsLimited')
      this.#requestsLimited.inc();
  }

  /** The last `/api/ready` poll's checks. */
  readyChecks(checks: ReadyChecks): void {
    for (const [check, { ok }] of Object.entries(checks) as [string, { ok: boolean }][])
      this.#readyChecks.set({ check }, ok ? 1 : 0);
  }

  /** Runs one import job, timing it and counting how it ended. */
  async importJob<T>(run: () => Promise<T>, signal: AbortSignal): Promise<T> {
    const stop = this.#importDuration.startTimer();
    let outcome = 'imported';
    let code = '0';
    try {
      return await run();
    } catch (error) {
      [outcome, code] = importOutcome(error, signal);
      throw error;
    } finally {
      stop({ outcome });
      this.#importOutcomes.inc({ outcome, code });
    }
  }

  /** The same store, counting its failed operations (a missing file is no failure). */
  countingBlobs(blobs: BlobStore): BlobStore {
    const errors = this.#fileStoreErrors;
    const counted =
      <A extends unknown[], R>(operation: string, call: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        try {
          return await call(...args);
        } catch (error) {
          if (!missingFile(error)) errors.inc({ operation });
          throw error;
        }
      };
    return {
      put: counted('put', (key: string, bytes: Uint8Array) => blobs.put(key, bytes)),
      putStream: counted(
        'putStream',
        (key: string, source: Readable, options: { maxBytes: number }) =>
          blobs.putStream(key, source, options),
      ),
      get: counted('get', (key: string) => blobs.get(key)),
      size: counted('size', (key: string) => blobs.size(key)),
      delete: counted('delete', (key: string) => blobs.delete(key)),
      list: counted('list', (prefix: string) => blobs.list(prefix)),
      modifiedAt: counted('modifiedAt', (key: string) => blobs.modifiedAt(key)),
      stream(key: string, range?: { start: number; end: number }): Readable {
        const stream = blobs.stream(key, range);
        // Counted, not handled: whoever reads the stream still gets its error.
        stream.prependListener('error', (error) => {
          if (!missingFile(error)) errors.inc({ operation: 'stream' });
        });
        return stream;
      },
    };
  }
}

/** A file that is not there (ENOENT locally, 404 / NoSuchKey on S3): asked for, not a fault. */
const missingFile = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === 'ENOENT' ||
  /not found|404|NoSuchKey/i.test(String(error));

/** How an import job ended, as [outcome, API error code] labels. */
function importOutcome(error: unknown, signal: AbortSignal): [string, string] {
  if (storageFullPart(error)) return ['storage_full', String(ErrorCode.Unavailable)];
  if (error instanceof ApiError) return ['refused', String(error.code)];
  // Given up by its request, settled elsewhere, or this process stopping: no verdict on the file.
  if (signal.aborted || (error instanceof Error && error.name === 'ImportSettled'))
    return ['stopped', '0'];
  return ['error', String(ErrorCode.Internal)];
}

/**
 * Counts every answered request, and serves `GET /metrics` when `token` is set (else it is
 * a 404 like any unknown path): Prometheus sends `Authorization: Bearer <token>`.
 */
export function metricsRoutes(
  app: FastifyInstance,
  metrics: ApiMetrics,
  token: string | undefined,
  onRefused: (ip: string) => void,
): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(
      request.routeOptions.url,
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.get(METRICS_PATH, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!token) return sendError(reply, ErrorCode.NotFound, `No route for GET ${METRICS_PATH}`);
    if (!bearerMatches(request.headers.authorization, token)) {
      onRefused(request.ip);
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendError(reply, ErrorCode.TokenInvalid, 'The metrics token is missing or wrong');
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
