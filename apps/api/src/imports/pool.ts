import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { DistanceUnitSetting } from '@xoss/data-fields';
import type { AnalysisResult } from '../analysis/analyse.ts';
import type * as figureTasks from '../analysis/figuresWorker.ts';
import { hasThreadClock, ThreadClock } from './threadClock.ts';

/** What an analysis needs besides the file. */
export interface AnalysisOptions {
  readonly distanceUnit?: DistanceUnitSetting;
  /** Largest file once unpacked (a .gz upload). */
  readonly maxBytes?: number;
  /** Most samples (records) a ride may have; beyond, the file is refused. */
  readonly maxSamples?: number;
  /** Longest span a ride may cover, first to last sample, in seconds. */
  readonly maxDurationS?: number;
  /** Which leg of a multisport file to analyse (the first unless asked). */
  readonly leg?: number;
  /** A rider's corrections of a ride (`rides/revise.ts`). */
  readonly keepRemoved?: boolean;
  readonly crop?: { readonly startS: number; readonly endS: number };
  readonly timeShiftS?: number;
}

/** Who the job is for and when to give up on it. */
export interface JobOptions {
  /** The rider: jobs of one rider run one at a time, riders take turns. */
  readonly owner?: string | number;
  /** Aborted when the request is given up (its deadline passed): the job stops. */
  readonly signal?: AbortSignal | undefined;
}

export interface PoolOptions {
  /** Worker threads. Default: the cores less one, at least 2, at most 4. */
  readonly size?: number;
  /**
   * A job whose thread has spent this much CPU on it is stopped (its worker terminated): the
   * file costs more than an import may. One that takes `WALL_FACTOR` times this on the wall
   * clock with less CPU is put off as busy (a loaded machine), never blamed on the file.
   */
  readonly jobTimeoutMs?: number;
  /**
   * How many times `jobTimeoutMs` a job may take on the wall clock before it is put off as
   * busy (`WALL_FACTOR`, 5). Tests that must see the CPU budget run out, whatever else the
   * machine runs, give a large one.
   */
  readonly wallFactor?: number;
  /** A worker's JS heap limit; a job above it ends its worker. */
  readonly maxHeapMb?: number;
  /** Jobs one rider may have waiting (besides the running one); more are refused. */
  readonly maxWaitingPerOwner?: number;
  /** Jobs that may wait in all; more are refused. */
  readonly maxWaiting?: number;
  /** The module the import threads run (`./worker.ts`); tests give one of their own. */
  readonly workerFile?: URL;
}

/** Why a job did not give a result. `limit`: the file costs more than an import may. */
export class AnalysisFailed extends Error {
  readonly reason: 'timeout' | 'memory' | 'busy' | 'crash' | 'closed';
  constructor(reason: AnalysisFailed['reason'], message: string) {
    super(message);
    this.name = 'AnalysisFailed';
    this.reason = reason;
  }
}

interface Job {
  readonly owner: string;
  readonly bytes: Uint8Array;
  readonly options: AnalysisOptions;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (result: AnalysisResult) => void;
  readonly reject: (error: unknown) => void;
  readonly onAbort: () => void;
}

/** Which budget a job ran out of: its CPU time (the file's cost) or the wall clock (load). */
type Spent = 'cpu' | 'wall';

/**
 * How many times a job's CPU budget it may take on the wall clock: what a loaded machine
 * (and the import threads' lower priority) may stretch it to before it is put off (busy,
 * tried again), not refused.
 */
const WALL_FACTOR = 5;

/**
 * A job's budget: `ms` of its thread's CPU (what the file costs), checked four times a
 * second while it runs, and `WALL_FACTOR` times that on the clock. Without a per-thread
 * clock (not Linux), the wall clock alone, as the CPU's. `spent` says which ran out.
 */
function cpuBudget(ms: number, wallFactor = WALL_FACTOR) {
  const clock = new ThreadClock();
  const control = new AbortController();
  const started = performance.now();
  let spent: Spent | undefined;
  const check = setInterval(
    () => {
      const cpu = clock.cpuMs();
      const wall = performance.now() - started;
      // Before the job's thread starts it (`cpu` undefined), only the wall budget runs.
      if (cpu !== undefined ? cpu >= ms : !hasThreadClock && wall >= ms) spent = 'cpu';
      else if (wall >= ms * wallFactor) spent = 'wall';
      if (spent) control.abort(new Error(`the job's ${spent} budget ran out`));
    },
    Math.min(250, Math.max(10, ms / 4)),
  );
  check.unref();
  return {
    cell: clock.cell,
    signal: control.signal,
    spent: () => spent,
    stop: () => clearInterval(check),
  };
}

/** Why a request gave up (its deadline's 503 error), as an Error. */
const reasonOf = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error('The import was given up');

export const defaultPoolSize = () => Math.max(2, Math.min(4, availableParallelism() - 1));

/**
 * The import workers: a Piscina pool (resource limits, a replaced worker after a crash or
 * an out-of-memory end, abort by terminating the worker) with a fair queue of our own in
 * front of it. Each rider has a queue; at most one job per rider runs, and riders with
 * waiting jobs take turns (round robin), so one rider's giant files never hold up another
 * rider's upload. A job that runs past its deadline, or whose request is given up, is
 * stopped by terminating its worker.
 */
export class AnalysisPool {
  readonly #pool: Piscina;
  readonly #size: number;
  readonly #jobTimeoutMs: number;
  readonly #wallFactor: number;
  readonly #maxWaitingPerOwner: number;
  readonly #maxWaiting: number;
  /** Waiting jobs by rider; the map's order is the turn order. */
  readonly #waiting = new Map<string, Job[]>();
  readonly #running = new Set<string>();
  #waitingCount = 0;
  #closed = false;
  /** The figures worker, started on the first long ride's request. */
  #figures: Piscina | undefined;
  readonly #figuresOptions: { maxHeapMb: number };

  constructor(options: PoolOptions | number = {}) {
    const settings = typeof options === 'number' ? { size: options } : options;
    this.#size = Math.max(1, Math.floor(settings.size ?? defaultPoolSize()));
    this.#jobTimeoutMs = settings.jobTimeoutMs ?? 60_000;
    this.#wallFactor = settings.wallFactor ?? WALL_FACTOR;
    this.#maxWaitingPerOwner = settings.maxWaitingPerOwner ?? 32;
    this.#maxWaiting = settings.maxWaiting ?? 256;
    const maxHeapMb = settings.maxHeapMb ?? 512;
    this.#figuresOptions = { maxHeapMb };
    this.#pool = new Piscina({
      filename: (settings.workerFile ?? new URL('./worker.ts', import.meta.url)).href,
      name: 'analyse',
      minThreads: 0,
      maxThreads: this.#size,
      idleTimeout: 60_000,
      // Our queue is in front: Piscina never holds more than it has threads for.
      maxQueue: this.#size,
      // Workers load the TypeScript sources of the workspace packages, as the server does.
      execArgv: [
        ...process.execArgv.filter((arg) => !arg.startsWith('--conditions')),
        '--conditions=@xoss/source',
      ],
      resourceLimits: {
        maxOldGenerationSizeMb: maxHeapMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(maxHeapMb / 8))),
        stackSizeMb: 4,
      },
    });
  }

  /** Decodes and analyses one activity file in a worker, in the rider's turn. */
  analyse(
    bytes: Uint8Array,
    options: AnalysisOptions,
    job: JobOptions = {},
  ): Promise<AnalysisResult> {
    if (this.#closed)
      return Promise.reject(new AnalysisFailed('closed', 'The import pool is closed'));
    const { signal } = job;
    if (signal?.aborted) return Promise.reject(reasonOf(signal));
    const owner = String(job.owner ?? '');
    const queue = this.#waiting.get(owner) ?? [];
    if (queue.length >= this.#maxWaitingPerOwner || this.#waitingCount >= this.#maxWaiting)
      return Promise.reject(
        new AnalysisFailed(
          'busy',
          queue.length >= this.#maxWaitingPerOwner
            ? `You already have ${queue.length + 1} imports under way; send more once they are done`
            : 'Too many imports are under way; please try again in a minute',
        ),
      );
    return new Promise<AnalysisResult>((resolve, reject) => {
      const entry: Job = {
        owner,
        bytes,
        options,
        signal,
        resolve,
        reject,
        // Given up while waiting: it leaves the queue and never runs.
        onAbort: () => {
          const waiting = this.#waiting.get(owner);
          const index = waiting?.indexOf(entry) ?? -1;
          if (index < 0) return;
          waiting!.splice(index, 1);
          this.#waitingCount--;
          if (waiting!.length === 0) this.#waiting.delete(owner);
          reject(reasonOf(signal!));
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      queue.push(entry);
      this.#waitingCount++;
      this.#waiting.set(owner, queue);
      this.#pump();
    });
  }

  /** Starts waiting jobs while threads are free: the first rider in turn without a running job. */
  #pump(): void {
    while (!this.#closed && this.#running.size < this.#size) {
      let owner: string | undefined;
      for (const candidate of this.#waiting.keys())
        if (!this.#running.has(candidate)) {
          owner = candidate;
          break;
        }
      if (owner === undefined) return;
      const queue = this.#waiting.get(owner)!;
      const job = queue.shift()!;
      this.#waitingCount--;
      // The rider goes to the back of the turn order.
      this.#waiting.delete(owner);
      if (queue.length > 0) this.#waiting.set(owner, queue);
      this.#start(job);
    }
  }

  #start(job: Job): void {
    job.signal?.removeEventListener('abort', job.onAbort);
    this.#running.add(job.owner);
    const budget = cpuBudget(this.#jobTimeoutMs, this.#wallFactor);
    const signal = job.signal ? AbortSignal.any([job.signal, budget.signal]) : budget.signal;
    this.#pool
      .run({ bytes: job.bytes, options: job.options, clock: budget.cell }, { signal })
      .then(
        (result: AnalysisResult) => job.resolve(result),
        (error: unknown) => job.reject(this.#failure(error, job, budget.spent())),
      )
      .finally(() => {
        budget.stop();
        this.#running.delete(job.owner);
        this.#pump();
      });
  }

  #failure(error: unknown, job: Job, spent: Spent | undefined): unknown {
    if (job.signal?.aborted) return reasonOf(job.signal);
    if (spent === 'cpu')
      return new AnalysisFailed(
        'timeout',
        `Reading this file takes more than an import may (${Math.round(this.#jobTimeoutMs / 1000)} s of a processor)`,
      );
    if (spent === 'wall')
      return new AnalysisFailed(
        'busy',
        'The server is too busy to read this file now; please try again in a minute',
      );
    if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
      return new AnalysisFailed(
        'memory',
        'Reading this file needs more memory than an import may use',
      );
    if (this.#closed) return new AnalysisFailed('closed', 'The import pool is closed');
    return new AnalysisFailed(
      'crash',
      `The import worker failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  /**
   * Computes a long ride's figures (`figures.ts`) in the figures worker: one thread beside
   * the import threads. Riders take turns (one task of a rider in the worker at a time,
   * round robin among riders waiting), so one rider's many slow asks never keep another's
   * ride page waiting. Its streams go as views of shared memory when `unpackStreams` made
   * them so, else as a copy.
   */
  async figures<K extends keyof typeof figureTasks>(
    name: K,
    task: Parameters<(typeof figureTasks)[K]>[0],
    owner: string | number = '',
  ): Promise<ReturnType<(typeof figureTasks)[K]>> {
    if (this.#closed) throw new AnalysisFailed('closed', 'The import pool is closed');
    this.#figures ??= new Piscina({
      filename: new URL('../analysis/figuresWorker.ts', import.meta.url).href,
      name: 'figures',
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: 60_000,
      maxQueue: 256,
      execArgv: [
        ...process.execArgv.filter((arg) => !arg.startsWith('--conditions')),
        '--conditions=@xoss/source',
      ],
      resourceLimits: { maxOldGenerationSizeMb: this.#figuresOptions.maxHeapMb },
    });
    const figures = this.#figures;
    const release = await this.#figureTurn(String(owner));
    const budget = cpuBudget(this.#jobTimeoutMs, this.#wallFactor);
    try {
      return (await figures.run(
        { ...task, clock: budget.cell },
        { name, signal: budget.signal },
      )) as ReturnType<(typeof figureTasks)[K]>;
    } catch (error) {
      // Cut by load, not by its cost: tried again later, not taken for the ride's fault.
      if (budget.spent() === 'wall')
        throw new AnalysisFailed('busy', 'The server is too busy to compute this now');
      throw error;
    } finally {
      budget.stop();
      release();
    }
  }

  /** Riders waiting for the figures worker, each with their asks in order (the map: turns). */
  readonly #figureWaiting = new Map<string, (() => void)[]>();
  #figureBusy = false;
  /** Whose ask ran last: another rider waiting goes before its next one. */
  #figureLast = '';

  /** Waits for `owner`'s turn in the figures worker; the returned function ends it. */
  #figureTurn(owner: string): Promise<() => void> {
    return new Promise((resolve) => {
      const start = () => {
        this.#figureBusy = true;
        resolve(() => {
          this.#figureBusy = false;
          this.#nextFigure();
        });
      };
      const queue = this.#figureWaiting.get(owner) ?? [];
      queue.push(start);
      this.#figureWaiting.set(owner, queue);
      if (!this.#figureBusy) this.#nextFigure();
    });
  }

  #nextFigure(): void {
    if (this.#figureBusy) return;
    // The first rider in turn order, passing over the one that just ran while others wait.
    let chosen: string | undefined;
    for (const owner of this.#figureWaiting.keys())
      if (owner !== this.#figureLast) {
        chosen = owner;
        break;
      }
    chosen ??= this.#figureWaiting.has(this.#figureLast) ? this.#figureLast : undefined;
    if (chosen === undefined) return;
    const queue = this.#figureWaiting.get(chosen)!;
    const start = queue.shift()!;
    // The rider goes to the back of the turn order with what it still has waiting.
    this.#figureWaiting.delete(chosen);
    if (queue.length > 0) this.#figureWaiting.set(chosen, queue);
    this.#figureLast = chosen;
    start();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#figures?.destroy();
    for (const queue of this.#waiting.values())
      for (const job of queue) {
        job.signal?.removeEventListener('abort', job.onAbort);
        job.reject(new AnalysisFailed('closed', 'The import pool is closed'));
      }
    this.#waiting.clear();
    this.#waitingCount = 0;
    await this.#pool.destroy();
  }
}
