import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Who a waiting request belongs to: a signed-in rider, or an address without a token. */
export interface QueueKey {
  readonly kind: 'rider' | 'address';
  readonly id: string;
}

/**
 * The rider a request's `Authorization` header is vouched for by: the server passes one that
 * checks the token's signature (`Sessions.signedRider`), never one that trusts its claims,
 * or a flood of forged tokens naming a rider would take that rider's places.
 */
export type RiderOf = (authorization: string | undefined) => string | undefined;

/** The rider a request is vouched for by, as admission and the limits ask for it (`riderOnce`). */
export type RequestRider = (request: FastifyRequest) => string | undefined;

/**
 * `riderOf` asked once a request: admission and each limits hook (arrival, body, a 401) ask
 * the same request again, and its answer is kept with the request. One signature check a
 * request, and hooks that agree even if the token expires while the request runs.
 */
export function riderOnce(riderOf: RiderOf): RequestRider {
  const known = new WeakMap<FastifyRequest, { readonly rider: string | undefined }>();
  return (request) => {
    let found = known.get(request);
    if (!found) {
      found = { rider: riderOf(request.headers.authorization) };
      known.set(request, found);
    }
    return found.rider;
  };
}

/**
 * The key a request waits under: the rider its signed bearer token names (the route still
 * checks the token whole: expiry, session, version), else its address (`request.ip`, which
 * honours `TRUST_PROXY`): a forged or foreign token waits with its address.
 */
const queueKeyOf =
  (riderOf: RequestRider) =>
  (request: FastifyRequest): QueueKey => {
    const rider = riderOf(request);
    return rider ? { kind: 'rider', id: rider } : { kind: 'address', id: request.ip };
  };

/**
 * Waiting work, taken fairly: riders and addresses take turns (round robin between the two
 * kinds, then between the keys of a kind), and each key's own work in arrival order. So one
 * rider's 200 waiting requests delay another rider's one request by one slot, not 200, and
 * a burst from many addresses (one login each) gets half of the starts at most while
 * signed-in riders wait.
 */
export class FairQueue<T> {
  // A Map keeps insertion order: the first key is the one whose turn it is; a key served
  // and still waiting goes to the back.
  readonly #keys = {
    rider: new Map<string, T[]>(),
    address: new Map<string, T[]>(),
  };
  #nextKind: QueueKey['kind'] = 'rider';
  /** Waiting items of each kind, kept as they come and go (read every turn of the loop). */
  readonly #count = { rider: 0, address: 0 };

  get size(): number {
    return this.#count.rider + this.#count.address;
  }

  push(key: QueueKey, item: T): void {
    const waiting = this.#keys[key.kind];
    const own = waiting.get(key.id);
    if (own) own.push(item);
    else waiting.set(key.id, [item]);
    this.#count[key.kind] += 1;
  }

  /** Waiting items of a kind. */
  waiting(kind: QueueKey['kind']): number {
    return this.#count[kind];
  }

  /**
   * The next item in turn whose key `allowed` lets start (all by default): the kinds
   * alternate, and within a kind the first key allowed (a key held back keeps its place).
   */
  shift(allowed: (key: QueueKey) => boolean = () => true): T | undefined {
    if (this.size === 0) return undefined;
    const other = this.#nextKind === 'rider' ? 'address' : 'rider';
    for (const kind of [this.#nextKind, other] as const) {
      const waiting = this.#keys[kind];
      for (const [id, own] of waiting) {
        if (!allowed({ kind, id })) continue;
        this.#nextKind = kind === 'rider' ? 'address' : 'rider';
        const item = own.shift()!;
        waiting.delete(id);
        if (own.length > 0) waiting.set(id, own);
        this.#count[kind] -= 1;
        return item;
      }
    }
    return undefined;
  }

  /** Whether an item waits whose key `allowed` lets start. */
  hasReady(allowed: (key: QueueKey) => boolean): boolean {
    for (const kind of ['rider', 'address'] as const)
      for (const id of this.#keys[kind].keys()) if (allowed({ kind, id })) return true;
    return false;
  }
}

/**
 * Fair admission: at most `perTurn` requests start their work in one turn of the event loop,
 * the others wait their turn in a `FairQueue` (by the rider `riderOf` vouches for, else address).
 *
 * Why: libuv accepts one new connection per turn of the loop (since libuv 1.45 it no longer
 * accepts in a loop). A request on the embedded database runs whole inside the turn that
 * read it, so under load one turn served every ready connection (200 connections x 2 ms =
 * 400 ms) and a new connection waited 200 turns, over a minute, to be accepted: the load
 * run's 200 connections got 10 s timeouts while the requests the server did see took under
 * 0.6 s. With a few starts per turn, turns stay short, every connection is accepted within
 * seconds (bench: 0 timeouts at 200 connections). Taking turns by key, rather than in
 * arrival order, keeps one flooding rider from pushing everyone else's requests back by the
 * length of its own queue (bench: the other riders' p99 under a one-token flood).
 */
export function fairAdmission(
  app: FastifyInstance,
  perTurn: number,
  riderOf: RequestRider,
  /** Requests without a token in progress at once, all addresses together (`ANONYMOUS_IN_FLIGHT`). */
  anonymousInFlight = Infinity,
  /** One rider's requests in progress at once (`RIDER_IN_FLIGHT`). */
  riderInFlight = Infinity,
): void {
  const keyOf = queueKeyOf(riderOf);
  const waiting = new FairQueue<() => void>();
  let scheduled = false;
  let anonymous = 0;
  /** Requests in progress by rider (a rider with none is not kept). */
  const riders = new Map<string, number>();
  const allowed = ({ kind, id }: QueueKey) =>
    kind === 'rider' ? (riders.get(id) ?? 0) < riderInFlight : anonymous < anonymousInFlight;
  const admitSome = () => {
    scheduled = false;
    for (let started = 0; started < perTurn; started++) {
      const start = waiting.shift(allowed);
      if (!start) break;
      start();
    }
    // An immediate queued while immediates run waits for the next turn: the loop polls
    // (accepts, reads) in between. Requests held by a cap wait for one of their own (or of
    // all anonymous ones) to finish instead, which schedules again.
    if (waiting.size > 0 && waiting.hasReady(allowed)) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(admitSome);
  };
  app.addHook('onRequest', (request, reply, done) => {
    const key = keyOf(request);
    waiting.push(key, () => {
      // Answered meanwhile (its deadline's 503) or abandoned by the client: no work to start.
      if (reply.sent || request.raw.destroyed) return;
      if (key.kind === 'address') anonymous += 1;
      else riders.set(key.id, (riders.get(key.id) ?? 0) + 1);
      // However it ends (sent, failed, connection gone), its place is given back once.
      reply.raw.once('close', () => {
        if (key.kind === 'address') anonymous -= 1;
        else {
          const left = riders.get(key.id)! - 1;
          if (left > 0) riders.set(key.id, left);
          else riders.delete(key.id);
        }
        schedule();
      });
      done();
    });
    schedule();
  });
}
