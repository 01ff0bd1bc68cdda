import { afterEach, describe, expect, it } from 'vitest';
import { AnalysisFailed, AnalysisPool } from './pool.ts';

// A job's budget is its thread's CPU time: a file that costs more is the file's fault (415);
// a job the machine's load stretches on the clock is not.
const pools: AnalysisPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

const pool = (wallFactor?: number) => {
  const made = new AnalysisPool({
    size: 1,
    jobTimeoutMs: 1_000,
    ...(wallFactor ? { wallFactor } : {}),
    workerFile: new URL('../testing/clockedWorker.ts', import.meta.url),
  });
  pools.push(made);
  return made;
};
const job = (kind: number) => new Uint8Array([kind]);

describe("the import threads' budget", () => {
  it('lets a job that waited longer than its budget without the CPU finish', async () => {
    // 1.5 s on the clock, next to no CPU: what a starved thread on a busy machine looks like.
    expect(await pool().analyse(job(0), {})).toEqual({ ok: true, value: { idled: 1500 } });
  });

  it('lets a job whose thread started it late finish: no CPU was spent before it started', async () => {
    // Forced: the thread writes its clock 1.5 s after the job was handed to it, as a worker a
    // loaded machine starts late does. The wall clock of that wait is not the file's cost.
    expect(await pool().analyse(job(3), {})).toEqual({ ok: true, value: { started: 'late' } });
  });

  it("stops a job that spent its CPU budget: the file's cost", async () => {
    // Whatever else the machine runs, the CPU budget runs out first (a wall budget of 10 min).
    const failed = await pool(600)
      .analyse(job(1), {})
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(AnalysisFailed);
    expect(failed).toMatchObject({ reason: 'timeout' });
    expect((failed as Error).message).toMatch(/s of a processor/);
  });

  it('puts off, as busy, a job the clock stretched far past its budget with little CPU', async () => {
    const failed = await pool()
      .analyse(job(2), {})
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ reason: 'busy' });
    // The pool goes on: the next job runs.
    const again = pool();
    expect(await again.analyse(job(0), {})).toEqual({ ok: true, value: { idled: 1500 } });
  });
});
