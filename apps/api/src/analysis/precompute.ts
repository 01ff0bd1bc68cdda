// A ride's analysis, W' balance and heart-rate and pace curves, computed in the background
// right after its import (in the figures worker, in a turn of their own beside the riders'),
// so the ride page's first calls read kept rows instead of computing (issue #45: every
// analysis endpoint under 20 ms, the first call included). A ride imported later than rides
// it precedes changes their analyses (its efforts join the 42 days before them): those are
// computed again too. Imports come in bursts (an archive, the demo seed): the work waits
// until a burst pauses, so each ride is analysed once per burst, not once per import.
import type { Services } from '../services.ts';
import type { WorkoutRow } from '../rides/rows.ts';
import { extraCurves, warmWbal, workoutAnalysisReply } from './analysisStore.ts';
import { warmPowerModels } from './powerModels.ts';

/** Quiet time after the last import before the work starts. */
const QUIET_MS = 1_000;
/** The longest a ride waits while imports keep coming. */
const MAX_WAIT_MS = 10_000;
/** Rides analysed again per burst because an import landed in their 42 days, per rider. */
const LATER_RIDES_MAX = 100;
/** Rides whose W' balance is computed again when their analysis changes. */
const BALANCED_MAX = 1_000;
const DAY_MS = 86_400_000;

class Precompute {
  readonly #services: Services;
  readonly #waiting = new Set<number>();
  #timer: NodeJS.Timeout | undefined;
  #firstWaiting = 0;
  #running: Promise<void> | undefined;
  #stopped = false;
  /** Rides whose W' balance this process computed in the background, the latest last. */
  readonly #balanced = new Set<number>();

  constructor(services: Services) {
    this.#services = services;
  }

  add(workoutId: number): void {
    if (this.#stopped) return;
    if (this.#waiting.size === 0) this.#firstWaiting = Date.now();
    this.#waiting.add(workoutId);
    clearTimeout(this.#timer);
    const wait = Math.max(0, Math.min(QUIET_MS, this.#firstWaiting + MAX_WAIT_MS - Date.now()));
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#start();
    }, wait);
    this.#timer.unref();
  }

  #start(): void {
    if (this.#running) {
      // Started again when the current pass ends.
      void this.#running.then(() => this.#start());
      return;
    }
    const ids = [...this.#waiting];
    this.#waiting.clear();
    if (ids.length === 0) return;
    // A pass cut by the database closing (the process stopping) ends quietly: unhandled,
    // its rejection ended the process with code 1 on every stop under load.
    this.#running = this.#pass(ids)
      .catch((error: unknown) => this.#failed(error))
      .finally(() => (this.#running = undefined));
  }

  /** The imported rides, then every ride whose 42 days they joined, latest first. */
  async #pass(ids: number[]): Promise<void> {
    const { db } = this.#services;
    const imported = await db.query<WorkoutRow>(
      'SELECT * FROM workouts WHERE id = ANY($1::int[]) ORDER BY start_time DESC',
      [ids],
    );
    const done = new Set<number>();
    const riders = new Set<number>();
    for (const row of imported) {
      riders.add(row.user_id);
      await this.#ride(row, done, true);
    }
    for (const userId of riders) {
      const mine = imported.filter((row) => row.user_id === userId);
      const earliest = Math.min(...mine.map((row) => new Date(row.start_time).getTime()));
      const latest = Math.max(...mine.map((row) => new Date(row.start_time).getTime()));
      const later = await db.query<WorkoutRow>(
        `SELECT * FROM workouts WHERE user_id = $1 AND start_time > $2 AND start_time <= $3
          ORDER BY start_time DESC LIMIT ${LATER_RIDES_MAX}`,
        [userId, new Date(earliest), new Date(latest + 42 * DAY_MS)],
      );
      // Their analyses (their curves do not depend on other rides), and the W' balance of
      // those whose balance was computed here before (else it waits for its first call).
      for (const row of later) await this.#ride(row, done, false);
      if (this.#stopped) return;
      await warmPowerModels(this.#services, userId).catch((error: unknown) => this.#failed(error));
    }
  }

  async #ride(row: WorkoutRow, done: Set<number>, imported: boolean): Promise<void> {
    if (this.#stopped || done.has(row.id)) return;
    done.add(row.id);
    try {
      await workoutAnalysisReply(this.#services, row, { background: true });
      if (imported || this.#balanced.has(row.id)) {
        await warmWbal(this.#services, row);
        this.#balanced.delete(row.id);
        this.#balanced.add(row.id);
        if (this.#balanced.size > BALANCED_MAX)
          this.#balanced.delete(this.#balanced.values().next().value!);
      }
      if (imported)
        await extraCurves(this.#services, row, ['heart_rate', 'pace'], { background: true });
    } catch (error) {
      this.#failed(error, row.id);
    }
  }

  #failed(error: unknown, workoutId?: number): void {
    // The first call computes it then; a closing process says nothing.
    if (!this.#stopped)
      this.#services.log.warn({ err: error, workoutId }, 'background analysis failed');
  }

  /** Rides waiting, and whether a pass runs (counted as one more). */
  get pending(): number {
    return this.#waiting.size + (this.#running ? 1 : 0);
  }

  /** Resolves once nothing is waiting or running (what waits starts now). */
  async idle(): Promise<void> {
    for (;;) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      if (!this.#running && this.#waiting.size > 0) this.#start();
      if (!this.#running) return;
      await this.#running;
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waiting.clear();
    await this.#running;
  }
}

const queues = new WeakMap<Services, Precompute>();
const all = new Set<Precompute>();

/** Starts the background analysis of a server's services; stopped with the returned function. */
export function startPrecompute(services: Services): () => Promise<void> {
  const queue = new Precompute(services);
  queues.set(services, queue);
  all.add(queue);
  return async () => {
    all.delete(queue);
    queues.delete(services);
    await queue.stop();
  };
}

/** How much background analysis a server's process has left (0 at rest), for `/api/ready`. */
export function analysisPending(services: Services): number {
  return queues.get(services)?.pending ?? 0;
}

/** Queues a ride just imported (or corrected) for its analysis in the background. */
export function precomputeAnalysis(services: Services, workoutId: number): void {
  queues.get(services)?.add(workoutId);
}

/** Resolves once every server's background analysis is done (benches, tests). */
export async function analysisIdle(): Promise<void> {
  await Promise.all([...all].map((queue) => queue.idle()));
}
