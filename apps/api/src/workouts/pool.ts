import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AnalysisResult } from './analyse.ts';

/** What an analysis needs besides the file. */
export interface AnalysisOptions {
  readonly distanceUnit?: number;
  /** Largest file once unpacked (a .gz upload). */
  readonly maxBytes?: number;
}

interface Pending {
  resolve: (result: AnalysisResult) => void;
  reject: (error: Error) => void;
}

/**
 * A small pool of worker threads for imports. Jobs queue when all workers are busy; a
 * crashed worker fails its job with an error (a 500 for that upload) and is replaced.
 */
export class AnalysisPool {
  readonly #size: number;
  readonly #idle: Worker[] = [];
  readonly #all = new Set<Worker>();
  readonly #queue: {
    job: { id: number; bytes: Uint8Array; options: AnalysisOptions };
    pending: Pending;
  }[] = [];
  readonly #running = new Map<Worker, { id: number; pending: Pending }>();
  #nextId = 1;
  #closed = false;

  constructor(size = Math.max(1, Math.min(4, availableParallelism() - 1))) {
    this.#size = size;
  }

  private spawn(): Worker {
    // Workers load the TypeScript sources of the workspace packages, as the server does.
    const worker = new Worker(new URL('./worker.ts', import.meta.url), {
      execArgv: [
        ...process.execArgv.filter((arg) => !arg.startsWith('--conditions')),
        '--conditions=@xoss/source',
      ],
    });
    worker.unref();
    this.#all.add(worker);
    worker.on('message', (message: { id: number; result?: AnalysisResult; crash?: string }) => {
      const running = this.#running.get(worker);
      this.#running.delete(worker);
      if (running) {
        if (message.result) running.pending.resolve(message.result);
        else
          running.pending.reject(new Error(`Import worker failed: ${message.crash ?? 'unknown'}`));
      }
      this.release(worker);
    });
    worker.on('error', (error: Error) => {
      const running = this.#running.get(worker);
      this.#running.delete(worker);
      this.#all.delete(worker);
      running?.pending.reject(error);
      this.pump();
    });
    return worker;
  }

  private release(worker: Worker): void {
    this.#idle.push(worker);
    this.pump();
  }

  private pump(): void {
    while (this.#queue.length > 0 && !this.#closed) {
      let worker = this.#idle.pop();
      if (!worker && this.#all.size < this.#size) worker = this.spawn();
      if (!worker) return;
      const { job, pending } = this.#queue.shift()!;
      this.#running.set(worker, { id: job.id, pending });
      worker.postMessage(job);
    }
  }

  /** Decodes and analyses one activity file in a worker. */
  analyse(bytes: Uint8Array, options: AnalysisOptions): Promise<AnalysisResult> {
    if (this.#closed) return Promise.reject(new Error('The import pool is closed'));
    return new Promise((resolve, reject) => {
      this.#queue.push({
        job: { id: this.#nextId++, bytes, options },
        pending: { resolve, reject },
      });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const { pending } of this.#queue) pending.reject(new Error('The import pool is closed'));
    this.#queue.length = 0;
    await Promise.all([...this.#all].map((worker) => worker.terminate()));
    this.#all.clear();
  }
}
