// An import thread for the pool's tests (`imports/pool.test.ts`): it counts its CPU time as
// the real one does, then spends the job's first byte's kind of time: 0 idles 1.5 s (a
// thread kept from running by a loaded machine uses no CPU), 1 computes until it has had
// 3 s of a CPU (however long a loaded machine takes to give them), 2 idles 20 s, 3 starts
// its clock 1.5 s late.
import { startThreadClock, type ClockCell } from '../imports/threadClock.ts';

export function analyse(job: { bytes: Uint8Array; clock?: ClockCell }): unknown {
  const kind = job.bytes[0];
  // 3: a thread that starts the job 1.5 s late (a loaded machine), then finishes at once.
  if (kind === 3) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_500);
  startThreadClock(job.clock);
  if (kind === 3) return { ok: true, value: { started: 'late' } };
  if (kind === 1) {
    const start = process.threadCpuUsage();
    let spin = 0;
    for (;;) {
      const used = process.threadCpuUsage(start);
      if (used.user + used.system >= 3_000_000) break;
      spin++;
    }
    return { ok: true, value: { spin } };
  }
  const ms = kind === 2 ? 20_000 : 1_500;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  return { ok: true, value: { idled: ms } };
}
