import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
// The main thread's side of the embedded database's own thread (`pgliteWorker.ts`): SQL goes
// there as a message and rows come back, so no statement, however large, runs on the thread
// that serves requests. It looks like the part of PGlite we use (`query`, `exec`, `listen`,
// transactions), so pg-boss's PGlite adapter drives it unchanged.
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';

// V8's WebAssembly code GC off in every process that embeds the database (the API, its
// commands, the tests and benches). Node 24's V8 (13.6) frees a wasm-to-JS import wrapper
// twice when a thread tiers a call up to a compiled wrapper (`Runtime_TierUpWasmToJSWrapper`)
// while the code GC, after another PGlite instance died, is freeing that same wrapper, which
// V8 shares between all threads of the process: the process dies on a V8 check
// ("jit_page_->allocations_.erase(addr) == 1" in `ThreadIsolation::UnregisterWasmAllocation`).
// V8 fixed it upstream ("[wasm] Fix lookup of wrappers marked is_dying", 9b8ca54d5a); no Node
// 24 carries the fix as we write. Without the code GC no code is ever marked dying, so there
// is nothing to race with; all it keeps is code no instance uses any more (import wrappers,
// a few per signature, and code tier-up replaced), bounded by what PGlite compiles.
// `--trace-wasm-code-gc` shows it: PGlite opened and closed three times in one process
// triggers the code GC (72 dead objects) by default, never with this (`pgliteThread.test.ts`).
// Passed explicitly, `--wasm-code-gc` leaves V8's default (`bench/wasmChurn.ts` compares).
// The README's test section says how it was found and why it holds.
if (!process.execArgv.includes('--wasm-code-gc')) setFlagsFromString('--no-wasm-code-gc');

export type Request =
  | { id: number; op: 'query'; sql: string; params: unknown[]; tx?: number }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen' | 'unlisten'; channel: string }
  | { id: number; op: 'dump' | 'close' };

/** An error as it crosses threads: PostgreSQL's fields (`code`, `constraint`, ...) kept. */
export interface WireError {
  message: string;
  name: string;
  fields: Record<string, string | number | boolean>;
}

export type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: WireError }
  | { notify: string; payload: string };

type RequestBody<R = Request> = R extends Request ? Omit<R, 'id'> : never;

const fromWire = (wire: WireError) =>
  Object.assign(new Error(wire.message), { name: wire.name }, wire.fields);

/** The embedded database on its own thread. */
/**
 * PGlite's WebAssembly compiled once a process and its file bundle read once: every database
 * thread of the process instantiates the same module (V8 shares its code between threads)
 * rather than compile and tier up 9 MB of WebAssembly again in each.
 */
let compiled: Promise<{ module: WebAssembly.Module; bundle: Blob }> | undefined;
function compiledPglite() {
  compiled ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasm, data] = await Promise.all([
      readFile(join(dist, 'pglite.wasm')),
      readFile(join(dist, 'pglite.data')),
    ]);
    // The global's value (the API's TypeScript libraries declare only its types).
    const wasmApi = (
      globalThis as unknown as {
        WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
      }
    ).WebAssembly;
    return { module: await wasmApi.compile(wasm), bundle: new Blob([data]) };
  })();
  return compiled;
}

/**
 * A call the embedded database's thread was running or was about to run when the thread
 * stopped (a crash), while it is started again on the same data folder: a statement or
 * transaction cut short is rolled back by the database's recovery (only a commit the thread
 * had finished but not yet answered stays), and the same call a moment later works. The API
 * answers it with 503 and Retry-After.
 */
export class DatabaseThreadRestarted extends Error {
  override readonly name = 'DatabaseThreadRestarted';
}

/** At most this many restarts of a crashed database thread in `RESTART_WINDOW_MS`. */
const RESTARTS_MAX = 5;
const RESTART_WINDOW_MS = 10 * 60_000;

export interface PgliteThreadOptions {
  /** The data folder (none: in memory, and a thread that stops is not started again). */
  readonly dataDir?: string;
  /** A dump to start from (tests). */
  readonly loadDataDir?: Blob;
  /** Told each time a crashed thread is started again, or given up on. */
  readonly onRestart?: (error: Error, restarted: boolean) => void;
}

export class PgliteThread {
  #worker: Worker | undefined;
  readonly #options: PgliteThreadOptions;
  readonly #pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  /** Threads that stopped: their late 'error' or 'exit' events are not news. */
  readonly #gone = new WeakSet<Worker>();
  #next = 1;
  #closed: Error | undefined;
  #closing = false;
  /** A crashed thread's successor starting: calls wait for it. */
  #starting: Promise<void> | undefined;
  /** Which thread a transaction began on: one begun on a crashed thread cannot go on. */
  #generation = 0;
  readonly #restarts: number[] = [];

  private constructor(options: PgliteThreadOptions) {
    this.#options = options;
  }

  static async start(options: PgliteThreadOptions): Promise<PgliteThread> {
    const thread = new PgliteThread(options);
    await thread.#spawn(options.loadDataDir);
    return thread;
  }

  async #spawn(load?: Blob): Promise<void> {
    const loadDataDir = load ? await load.arrayBuffer() : undefined;
    const { module, bundle } = await compiledPglite();
    const worker = new Worker(new URL('./pgliteWorker.ts', import.meta.url), {
      workerData: {
        ...(this.#options.dataDir ? { dataDir: this.#options.dataDir } : {}),
        ...(loadDataDir ? { loadDataDir } : {}),
        module,
        bundle,
      },
      transferList: loadDataDir ? [loadDataDir] : [],
    });
    this.#worker = worker;
    this.#generation += 1;
    await new Promise<void>((resolve, reject) => {
      this.#pending.set(0, { resolve: () => resolve(), reject });
      worker.on('message', (reply: Reply) => this.#receive(reply));
      worker.on('error', (error: Error) => this.#stopped(worker, error));
      worker.on('exit', (code) =>
        this.#stopped(worker, new Error(`The database thread stopped (${code})`)),
      );
    });
  }

  /**
   * A thread ended. Closed on purpose, in memory, or crashing again and again: everything
   * waiting fails, later calls too. Otherwise (a crash, with a data folder) what it was
   * running fails as `DatabaseThreadRestarted` and a new thread opens the same folder
   * (PostgreSQL's recovery replays its log, as after a power cut); calls meanwhile wait.
   */
  #stopped(worker: Worker, error: Error): void {
    if (this.#gone.has(worker)) return;
    this.#gone.add(worker);
    if (worker !== this.#worker) return;
    if (this.#starting) {
      // A successor that died while starting (opening its folder, or listening again): what
      // it was sent fails, and `#restart` decides. Other calls wait for `#starting`, so all
      // that is pending here is the restart's own; one left pending held every call for ever.
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
      return;
    }
    // Closed on purpose: its end is no news.
    if (this.#closing || this.#closed) {
      this.#fail(error);
      return;
    }
    const restart = this.#options.dataDir !== undefined && this.#mayRestart();
    // Restarting, its transactions end here, not when a successor starts: a statement of one
    // sent in between would reach the new thread outside any transaction. (Without a restart
    // the closed thread's own error ends them, not "starting again".)
    if (restart) this.#generation += 1;
    this.#options.onRestart?.(error, restart);
    if (!restart) {
      this.#fail(error);
      return;
    }
    const lost = new DatabaseThreadRestarted(
      'The database stopped and is starting again; please try again',
      { cause: error },
    );
    for (const pending of this.#pending.values()) pending.reject(lost);
    this.#pending.clear();
    this.#starting = this.#restart()
      .catch((failure: unknown) => this.#fail(failure instanceof Error ? failure : lost))
      .finally(() => (this.#starting = undefined));
  }

  /** Whether another restart is allowed now (at most `RESTARTS_MAX` in the window); counts it. */
  #mayRestart(): boolean {
    const now = Date.now();
    while (this.#restarts.length > 0 && this.#restarts[0]! < now - RESTART_WINDOW_MS)
      this.#restarts.shift();
    if (this.#restarts.length >= RESTARTS_MAX) return false;
    this.#restarts.push(now);
    return true;
  }

  async #restart(): Promise<void> {
    for (;;) {
      try {
        await this.#spawn();
        // What was listened to is listened to again, as part of the start: a successor that
        // dies here is started again like one that died opening its folder.
        for (const channel of this.#listeners.keys()) await this.#send({ op: 'listen', channel });
        break;
      } catch (error) {
        // One thread per folder: a successor still alive (its LISTEN refused) ends first.
        const worker = this.#worker;
        if (worker && !this.#gone.has(worker)) {
          this.#gone.add(worker);
          await worker.terminate();
        }
        if (this.#closing || !this.#mayRestart()) throw error;
        this.#options.onRestart?.(error instanceof Error ? error : new Error(String(error)), true);
      }
    }
  }

  /**
   * Ends the thread at once, as a crash would (`Worker.terminate`): for the tests and the
   * soak bench, which show that the server goes on.
   */
  async crashThread(): Promise<void> {
    await this.#worker?.terminate();
  }

  /** Calls sent to the thread and not answered yet (the running one included), for `/metrics`. */
  get pending(): number {
    return this.#pending.size;
  }

  #receive(reply: Reply): void {
    if ('notify' in reply) {
      for (const listener of this.#listeners.get(reply.notify) ?? []) listener(reply.payload);
      return;
    }
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(fromWire(reply.error));
  }

  /** The thread is gone for good (closed, or not started again): every call fails. */
  #fail(error: Error): void {
    this.#closed ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  #call<T>(request: RequestBody): Promise<T> {
    if (this.#closed) return Promise.reject(this.#closed);
    if (this.#starting) return this.#starting.then(() => this.#call<T>(request));
    return this.#send<T>(request);
  }

  #send<T>(request: RequestBody): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker!.postMessage({ ...request, id });
    });
  }

  async query<Row>(
    sql: string,
    params: readonly unknown[] = [],
    tx?: number,
  ): Promise<{ rows: Row[] }> {
    const rows = await this.#call<Row[]>({
      op: 'query',
      sql,
      params: [...params],
      ...(tx === undefined ? {} : { tx }),
    });
    return { rows };
  }

  exec(sql: string): Promise<{ rows: unknown[] }[]> {
    return this.#call({ op: 'exec', sql });
  }

  /** Runs `work` in one transaction; other statements wait until it ends. */
  async transaction<T>(work: (query: PgliteThread['query']) => Promise<T>): Promise<T> {
    const tx = await this.#call<number>({ op: 'begin' });
    const generation = this.#generation;
    // A transaction of a thread that crashed is gone with it: none of it was committed.
    const same = () => {
      if (this.#generation !== generation)
        throw new DatabaseThreadRestarted(
          'The database stopped and is starting again; please try again',
        );
    };
    let result: T;
    try {
      result = await work(async (sql, params) => {
        same();
        return this.query(sql, params, tx);
      });
      same();
    } catch (error) {
      if (this.#generation === generation)
        await this.#call({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.#call({ op: 'end', tx, commit: true });
    return result;
  }

  /** PGlite's LISTEN: `listener` gets each NOTIFY's payload; the result unsubscribes. */
  async listen(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>> {
    let listeners = this.#listeners.get(channel);
    if (!listeners) {
      this.#listeners.set(channel, (listeners = new Set()));
      await this.#call({ op: 'listen', channel });
    }
    listeners.add(listener);
    return async () => {
      listeners.delete(listener);
      if (listeners.size > 0 || this.#listeners.get(channel) !== listeners) return;
      this.#listeners.delete(channel);
      await this.#call({ op: 'unlisten', channel }).catch(() => undefined);
    };
  }

  async dump(): Promise<Blob> {
    return new Blob([await this.#call<ArrayBuffer>({ op: 'dump' })]);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closing = true;
    await this.#starting;
    if (this.#closed) return;
    const worker = this.#worker!;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    await this.#call({ op: 'close' });
    this.#fail(new Error('The database is closed'));
    // The thread ends by itself once its database is closed and its port too. Cut short
    // only if it does not: terminating a thread whose WebAssembly code V8 may still be
    // compiling or freeing in the background once crashed the whole process (a V8 check on
    // its JIT pages, SIGTRAP) in a test run that opened and closed many databases.
    const cut = setTimeout(() => void worker.terminate(), 5_000);
    await exited;
    clearTimeout(cut);
  }
}
