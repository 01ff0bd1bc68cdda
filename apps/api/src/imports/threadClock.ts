// How much CPU a job's worker thread has spent on it, read from outside the thread while the
// job runs (Linux's per-thread `schedstat`). A file's cost is its CPU time: wall time also
// counts every other rider's work on a busy machine (and the import threads run at a lower
// priority, so they are the first to wait), and an import cut by wall time on a loaded
// machine was once refused as if the file were at fault (issue #53, item 5).
import { readFileSync, readlinkSync } from 'node:fs';

/** The cell a job's thread writes itself into: [thread id, its CPU ns at the job's start]. */
export type ClockCell = SharedArrayBuffer;

/** Nanoseconds this thread (`task`: its Linux thread id) has run on a CPU; undefined off Linux. */
function cpuNs(task: number | 'thread-self'): number | undefined {
  try {
    const path =
      task === 'thread-self' ? '/proc/thread-self/schedstat' : `/proc/self/task/${task}/schedstat`;
    const ns = Number(readFileSync(path, 'latin1').split(' ')[0]);
    return Number.isFinite(ns) ? ns : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether this system has a clock per thread (Linux). Where it has, a job whose thread has
 * not written its cell yet has not started: no CPU spent, whatever the wall clock says (a
 * thread a loaded machine took over a second to start was once refused as too costly).
 */
export const hasThreadClock = cpuNs('thread-self') !== undefined;

/** In the worker, as a job starts: writes the thread's id and CPU time into the job's cell. */
export function startThreadClock(cell: ClockCell | undefined): void {
  if (!cell) return;
  const slots = new BigInt64Array(cell);
  try {
    const task = Number(readlinkSync('/proc/thread-self').split('/').pop());
    const start = cpuNs('thread-self');
    if (!Number.isInteger(task) || task <= 0 || start === undefined) return;
    // The start first: the pool reads the thread id, then the start it was written with.
    Atomics.store(slots, 1, BigInt(start));
    Atomics.store(slots, 0, BigInt(task));
  } catch {
    // Not Linux: the pool judges by wall time alone.
  }
}

/** In the pool: the cell to send with a job, and the CPU time its thread has spent on it. */
export class ThreadClock {
  readonly cell: ClockCell = new SharedArrayBuffer(16);
  readonly #slots = new BigInt64Array(this.cell);

  /** Milliseconds of CPU the job has had so far; undefined before it starts or off Linux. */
  cpuMs(): number | undefined {
    const task = Number(Atomics.load(this.#slots, 0));
    if (!task) return undefined;
    const now = cpuNs(task);
    return now === undefined ? undefined : (now - Number(Atomics.load(this.#slots, 1))) / 1e6;
  }
}
