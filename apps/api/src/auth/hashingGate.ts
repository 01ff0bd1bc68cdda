/** Thrown when the gate is full: the caller answers 503 with `Retry-After`. */
export class HashingBusy extends Error {
  constructor() {
    super('Too many password checks at once');
  }
}

/**
 * A cap on simultaneous password hashing. argon2 (and pbkdf2) run on libuv's thread pool,
 * the same four threads that serve every file read and write: a burst of logins there made
 * FIT downloads wait tens of seconds. At most `concurrency` hashes run at once (fewer than
 * the pool's threads, so file I/O keeps some), `queue` more wait their turn, and anything
 * beyond is refused at once rather than queued without bound.
 */
export class HashingGate {
  readonly #concurrency: number;
  readonly #queue: number;
  readonly #waiting: (() => void)[] = [];
  #running = 0;

  constructor(concurrency: number, queue: number) {
    this.#concurrency = Math.max(1, concurrency);
    this.#queue = Math.max(0, queue);
  }

  /** Whether a run now would be refused (every slot busy, the queue full). */
  get full(): boolean {
    return this.#running >= this.#concurrency && this.#waiting.length >= this.#queue;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running < this.#concurrency) this.#running++;
    else if (this.#waiting.length >= this.#queue) throw new HashingBusy();
    // The slot is handed over by the finishing run, so `#running` stays counted.
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}
