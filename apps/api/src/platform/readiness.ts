import { statfs } from 'node:fs/promises';
import { ErrorCode, errorMessage, routes } from '@xoss/api-contract';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from './db/db.ts';
import { ok } from '../http/envelope.ts';
import { bearerMatches } from './digest.ts';
import type { StorageHealth } from './storageHealth.ts';

/**
 * What readiness and the metrics read of a job queue (the import queue: `ImportJobs`): its
 * jobs by state, undefined when the queue does not exist, and whether its workers back off.
 */
export interface QueueProbe {
  stats(): Promise<
    Record<'queued' | 'ready' | 'deferred' | 'active' | 'failed', number> | undefined
  >;
  readonly backingOff: boolean;
}

/** Whether the database answers a query. */
const databaseAnswers = async (db: Database): Promise<void> => {
  await db.query('SELECT 1');
};

/** The checks of `/api/ready`, each reported on its own. */
export interface ReadyChecks {
  /** The database answers a query and can commit a write. */
  readonly database: { readonly ok: boolean };
  /** The file store can write (a small probe file, or a real write that failed for space). */
  readonly fileStore: { readonly ok: boolean };
  /**
   * The import queue answers; `backingOff` while its workers wait out a full disk;
   * `analysing`: rides whose analysis this process still computes in the background after
   * their import (`analysis/precompute.ts`; 0 once it is at rest).
   */
  readonly queue: {
    readonly ok: boolean;
    readonly backingOff: boolean;
    readonly analysing: number;
  };
  /**
   * Free space of the data folder's filesystem, for an unprivileged writer, against
   * `MIN_FREE_DISK_BYTES`. `monitored: false` when the server was given no data folder.
   */
  readonly disk:
    | { readonly ok: boolean; readonly freeBytes: number | null; readonly minFreeBytes: number }
    | { readonly ok: true; readonly monitored: false };
}

interface ReadyReport {
  readonly ready: boolean;
  readonly checks: ReadyChecks;
}

type CheckName = keyof ReadyChecks;

/** How each failing check is named in the 503's `errors` (the storage parts keep their names). */
const errorPaths: Record<CheckName, string> = {
  database: 'database',
  fileStore: 'files',
  queue: 'queue',
  disk: 'disk',
};

interface ReadinessOptions {
  readonly db: Database;
  readonly storage: StorageHealth;
  readonly imports: QueueProbe;
  readonly log: FastifyBaseLogger;
  /** The folder whose filesystem must keep `minFreeBytes` free (the data folder). */
  readonly diskPath?: string | undefined;
  readonly minFreeBytes: number;
  /** Told every result (the `xoss_ready_check_ok` gauge). */
  readonly onChecked?: (checks: ReadyChecks) => void;
  /** Rides whose background analysis is waiting or running in this process. */
  readonly analysing?: () => number;
}

/**
 * What `/api/ready` reports: the database, the file store, the import queue and the disk,
 * each on its own, so an operator sees which one took the process out of rotation. Each
 * check going bad is logged once (warn, with its name and why), and once when it passes
 * again (info), not at every poll. The storage probes are cached (`StorageHealth`).
 */
export class Readiness {
  readonly #options: ReadinessOptions;
  /** Whether each check passed last time (all pass before the first poll). */
  readonly #passing: Record<CheckName, boolean> = {
    database: true,
    fileStore: true,
    queue: true,
    disk: true,
  };

  constructor(options: ReadinessOptions) {
    this.#options = options;
  }

  async check(): Promise<ReadyReport & { readonly problems: Record<string, string> }> {
    const { db, storage, imports } = this.#options;
    const why = (error: unknown) => (error instanceof Error ? error.message : String(error));
    const [answers, storageBad, queue, disk] = await Promise.all([
      databaseAnswers(db).then(() => undefined, why),
      storage.check(),
      imports.stats().then((stats) => (stats ? undefined : 'the import queue does not exist'), why),
      this.#disk(),
    ]);
    const badPart = (part: 'database' | 'files') =>
      storageBad.find((bad) => bad.part === part)?.message;
    // What the reply says (no error text of ours: the endpoint is public) and what is logged.
    const problems: Partial<Record<CheckName, { said: string; logged: string }>> = {};
    if (answers !== undefined)
      problems.database = { said: 'the database does not answer', logged: answers };
    else if (badPart('database'))
      problems.database = { said: badPart('database')!, logged: 'it cannot write' };
    if (badPart('files'))
      problems.fileStore = { said: badPart('files')!, logged: 'it cannot write' };
    if (queue !== undefined)
      problems.queue = { said: 'the import queue does not answer', logged: queue };
    if (disk.problem) problems.disk = { said: 'the disk is almost full', logged: disk.problem };
    const checks: ReadyChecks = {
      database: { ok: !problems.database },
      fileStore: { ok: !problems.fileStore },
      queue: {
        ok: !problems.queue,
        backingOff: imports.backingOff,
        analysing: this.#options.analysing?.() ?? 0,
      },
      disk: disk.report,
    };
    for (const name of Object.keys(this.#passing) as CheckName[])
      this.#note(name, problems[name]?.logged);
    this.#options.onChecked?.(checks);
    const said: Record<string, string> = {};
    for (const [name, problem] of Object.entries(problems))
      said[errorPaths[name as CheckName]] = problem.said;
    return { ready: Object.keys(problems).length === 0, checks, problems: said };
  }

  async #disk(): Promise<{ report: ReadyChecks['disk']; problem?: string }> {
    const { diskPath, minFreeBytes } = this.#options;
    if (diskPath === undefined) return { report: { ok: true, monitored: false } };
    try {
      const stats = await statfs(diskPath);
      // `bavail`: the blocks an unprivileged process may still use (root keeps a reserve).
      const freeBytes = stats.bavail * stats.bsize;
      const ok = freeBytes >= minFreeBytes;
      return {
        report: { ok, freeBytes, minFreeBytes },
        ...(ok ? {} : { problem: `${freeBytes} bytes free, below ${minFreeBytes}` }),
      };
    } catch (error) {
      return {
        report: { ok: false, freeBytes: null, minFreeBytes },
        problem: error instanceof Error ? error.message : String(error),
      };
    }
  }

  /** Logs a check's change only: once when it goes bad, once when it passes again. */
  #note(name: CheckName, problem: string | undefined): void {
    const passing = problem === undefined;
    if (this.#passing[name] === passing) return;
    this.#passing[name] = passing;
    if (passing) this.#options.log.info({ check: name }, `ready check ${name} passes again`);
    else this.#options.log.warn({ check: name, reason: problem }, `ready check ${name} fails`);
  }
}

/** Loopback addresses: the process's own machine (its probes, an operator's shell). */
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * What a stranger may read of the checks: each one's `ok` (what a load balancer needs),
 * not the disk's free bytes or the queue's state.
 */
function outline(checks: ReadyChecks): Record<CheckName, { ok: boolean }> {
  return {
    database: { ok: checks.database.ok },
    fileStore: { ok: checks.fileStore.ok },
    queue: { ok: checks.queue.ok },
    disk: { ok: checks.disk.ok },
  };
}

/**
 * `GET /api/ready`: 200 with every check, or 503 (`Retry-After`) in the error envelope
 * with the failing checks in `errors` and every check in `data`: a load balancer reads
 * the status, a person reads which check failed. The checks' details (free bytes, the
 * queue's back-off and backlog) only for the operator: from this machine (a loopback socket
 * carrying no forwarding header: a proxy beside the API is loopback too) or with the
 * metrics token.
 */
export function readyRoute(
  app: FastifyInstance,
  readiness: Readiness,
  operator: { readonly token: string | undefined } = { token: undefined },
): void {
  app.get(routes.ready.path, async (request, reply) => {
    const { ready, checks: all, problems } = await readiness.check();
    // This machine itself, not a client a proxy on this machine passes on (nginx beside the
    // API connects from loopback too, and says whom it forwards).
    const local =
      LOOPBACK.test(request.socket.remoteAddress ?? '') &&
      request.headers['x-forwarded-for'] === undefined &&
      request.headers.forwarded === undefined &&
      request.headers['x-real-ip'] === undefined;
    const trusted =
      local ||
      (operator.token !== undefined &&
        bearerMatches(request.headers.authorization, operator.token));
    const checks = trusted ? all : outline(all);
    if (ready) return ok({ status: 'ready' as const, database: 'ok' as const, ready, checks });
    const errors = Object.entries(problems).map(([path, message]) => ({ path, message }));
    return reply
      .status(503)
      .header('retry-after', '5')
      .send({
        code: ErrorCode.Unavailable,
        msg: errorMessage[ErrorCode.Unavailable],
        detail: `Not ready: ${errors.map((error) => error.message).join('; ')}`,
        errors,
        data: { ready, checks },
      });
  });
}
