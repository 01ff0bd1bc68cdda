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
  /** Places taken by `reserve` and not yet run or released. */
  #reserved = 0;
  readonly #perSecond: number;
  readonly #now: () => number;
  /** Hashes that may still start now (a bucket refilled at `perSecond`, one second deep). */
  #tokens: number;
  #filledAt: number;

  /**
   * `perSecond` caps the hashes started per second, whatever the concurrency: each takes a
   * core for about 150 ms, and logins from many addresses at once (each address within its
   * own limit) would otherwise keep a core hashing for as long as they come.
   */
  constructor(
    concurrency: number,
    queue: number,
    perSecond = Infinity,
    now = () => performance.now(),
  ) {
    this.#concurrency = Math.max(1, concurrency);
    this.#queue = Math.max(0, queue);
    this.#perSecond = perSecond > 0 ? perSecond : Infinity;
    this.#now = now;
    this.#tokens = Number.isFinite(this.#perSecond) ? Math.max(1, this.#perSecond) : Infinity;
    this.#filledAt = now();
  }

  #refill(): void {
    if (!Number.isFinite(this.#perSecond)) return;
    const now = this.#now();
    this.#tokens = Math.min(
      Math.max(1, this.#perSecond),
      this.#tokens + ((now - this.#filledAt) / 1000) * this.#perSecond,
    );
    this.#filledAt = now;
  }

  /**
   * Whether a reservation now would be refused: the second's hashes spent, or every slot
   * and place in the queue taken (by runs, waiting runs or reservations not yet run).
   */
  get full(): boolean {
    this.#refill();
    return (
      this.#tokens < 1 ||
      this.#running + this.#waiting.length + this.#reserved >= this.#concurrency + this.#queue
    );
  }

  /**
   * Takes a place for one hash now, synchronously, or throws `HashingBusy`. A login reserves
   * before its attempt is counted (a database transaction) and runs the hash after: had it
   * only asked `full`, a burst of hundreds arriving together would all have found the gate
   * open, all been counted, and only then been refused. `release` gives back a place never
   * run (the login was refused by its limit).
   */
  reserve(): Reservation {
    if (this.full) throw new HashingBusy();
    this.#tokens -= 1;
    this.#reserved += 1;
    let state: 'reserved' | 'used' = 'reserved';
    return {
      run: <T>(work: () => Promise<T>) => {
        if (state !== 'reserved') return Promise.reject(new Error('Reservation already used'));
        state = 'used';
        this.#reserved -= 1;
        return this.#run(work);
      },
      release: () => {
        if (state !== 'reserved') return;
        state = 'used';
        this.#reserved -= 1;
      },
    };
  }

  /** Reserves and runs at once; a refusal is the promise's (`HashingBusy`). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    return this.reserve().run(work);
  }

  async #run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running < this.#concurrency) this.#running++;
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

/** A place in the gate for one hash (`HashingGate.reserve`). */
export interface Reservation {
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Gives the place back if it was not run; does nothing after `run`. */
  release(): void;
}
