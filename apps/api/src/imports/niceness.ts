import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the CPU priority of the calling thread (a worker thread's own, not the process's)
 * to `WORKER_NICENESS` (else `fallback`; 0 leaves it). Import analysis and long rides' figures
 * are the server's heaviest work: one rider's largest files in a loop kept a core busy, and
 * on two cores the event loop and the embedded database's thread, which every other rider's
 * request needs, got less of the CPU than they needed (bench: others' p99 5x). With a
 * lower priority these threads take what the CPU has spare and give way at once to the
 * threads that answer requests; on an idle server they run as fast as before.
 *
 * Linux keeps a nice value per thread, and `setpriority` given a thread id changes that
 * thread only; the id is the last part of `/proc/thread-self`. Elsewhere (no such file) the
 * thread keeps its priority.
 */
export function lowerThreadPriority(
  fallback = 10,
  env: NodeJS.ProcessEnv = process.env,
): number | undefined {
  const niceness = Math.min(19, Math.max(0, Number(env.WORKER_NICENESS ?? fallback) || 0));
  if (niceness === 0) return undefined;
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(thread) || thread <= 0) return undefined;
    setPriority(thread, niceness);
    return thread;
  } catch {
    return undefined;
  }
}
