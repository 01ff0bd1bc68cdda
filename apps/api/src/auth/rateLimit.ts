/**
 * A sliding-window counter per key, in memory (one replica; docs/deploy.md says what moves
 * to a shared store with more). `now` is injectable so tests can use fake time.
 */
export class SlidingWindowLimiter {
  readonly #hits = new Map<string, number[]>();
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  private recent(key: string): number[] {
    const since = this.#now() - this.#windowMs;
    const hits = (this.#hits.get(key) ?? []).filter((at) => at > since);
    if (hits.length === 0) this.#hits.delete(key);
    else this.#hits.set(key, hits);
    return hits;
  }

  /** Seconds until `key` may try again, or 0 when it may now. */
  retryAfterS(key: string): number {
    const hits = this.recent(key);
    if (hits.length < this.#limit) return 0;
    return Math.max(
      1,
      Math.ceil((hits[hits.length - this.#limit]! + this.#windowMs - this.#now()) / 1000),
    );
  }

  /** Records one attempt; returns its time stamp, which `refund` takes back. */
  hit(key: string): number {
    const hits = this.recent(key);
    const at = this.#now();
    hits.push(at);
    this.#hits.set(key, hits);
    if (this.#hits.size > 100_000) this.#hits.delete(this.#hits.keys().next().value!);
    return at;
  }

  /** Takes back one attempt recorded by `hit` (it did not count: success, or never ran). */
  refund(key: string, at: number): void {
    const hits = this.#hits.get(key);
    const index = hits?.indexOf(at) ?? -1;
    if (index >= 0) hits!.splice(index, 1);
  }

  reset(key: string): void {
    this.#hits.delete(key);
  }
}
