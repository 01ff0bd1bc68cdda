import type { Database, Queryable } from '../platform/db/db.ts';

/**
 * Sliding-window counters kept in the database (`login_attempts`), so every API process
 * counts the same attempts. Checking every key and counting an attempt on each is one
 * transaction holding an advisory lock per key (taken in a fixed order): simultaneous
 * attempts, in one process or in several, are counted one after another, so they cannot
 * all pass the check before the first is counted. `now` is injectable, so tests move time.
 */
export class SharedLimiter {
  readonly #db: Database;
  readonly #windowMs: number;
  readonly #now: () => number;
  #sinceCleanup = 0;

  constructor(db: Database, windowMs: number, now: () => number = Date.now) {
    this.#db = db;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /**
   * Seconds until every key is under its limit (nothing counted), or 0 with one attempt
   * recorded on each key: the ids, which `refund` takes back.
   */
  async attempt(
    keys: readonly { readonly key: string; readonly limit: number }[],
  ): Promise<{ waitS: number; ids: readonly number[] }> {
    const now = this.#now();
    const since = now - this.#windowMs;
    const result = await this.#db.transaction(async (tx) => {
      for (const key of [...keys.map((entry) => entry.key)].sort())
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1)::bigint)', [`login:${key}`]);
      let waitS = 0;
      for (const { key, limit } of keys) {
        await tx.query('DELETE FROM login_attempts WHERE key = $1 AND at_ms <= $2', [key, since]);
        waitS = Math.max(waitS, await this.#retryAfterS(tx, key, limit, now));
      }
      if (waitS > 0) return { waitS, ids: [] };
      const ids: number[] = [];
      for (const { key } of keys) {
        const [row] = await tx.query<{ id: number }>(
          'INSERT INTO login_attempts (key, at_ms) VALUES ($1, $2) RETURNING id',
          [key, now],
        );
        ids.push(Number(row!.id));
      }
      return { waitS: 0, ids };
    });
    // Keys never seen again (one-off addresses) are dropped now and then.
    if (++this.#sinceCleanup >= 200) {
      this.#sinceCleanup = 0;
      await this.#db.query('DELETE FROM login_attempts WHERE at_ms <= $1', [since]);
    }
    return result;
  }

  async #retryAfterS(tx: Queryable, key: string, limit: number, now: number): Promise<number> {
    // The limit-th most recent attempt in the window: once it leaves, one more may try.
    const [row] = await tx.query<{ at_ms: string | number }>(
      'SELECT at_ms FROM login_attempts WHERE key = $1 ORDER BY at_ms DESC OFFSET $2 LIMIT 1',
      [key, limit - 1],
    );
    if (!row) return 0;
    return Math.max(1, Math.ceil((Number(row.at_ms) + this.#windowMs - now) / 1000));
  }

  /** Takes back one recorded attempt (it did not count: a success, or our own failure). */
  async refund(id: number): Promise<void> {
    await this.#db.query('DELETE FROM login_attempts WHERE id = $1', [id]);
  }
}
