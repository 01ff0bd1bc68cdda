import { ErrorCode, FITNESS_MAX_DAYS, routes } from '@xoss/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { ApiConfig } from '../platform/config.ts';
import type { Database } from '../platform/db/db.ts';
import type { RequestRider } from './admission.ts';
import { ApiError } from './envelope.ts';
import { fastifyPath, verifiedRiders } from './route.ts';

/** Routes that run only for a signed-in rider (their onRequest hook verified the token). */
const signedInRoutes = new Set(
  Object.values(routes)
    .filter((route) => route.access !== 'public')
    .map((route) => `${route.method} ${fastifyPath(route.path)}`),
);
/**
 * Routes whose caller proves a session with the refresh token in its body, not a bearer
 * token: counted against that session once the token's signature is checked (`preHandler`
 * below), never against the address strangers may share with the rider.
 */
const sessionRoutes = new Set([
  `${routes.refresh.method} ${fastifyPath(routes.refresh.path)}`,
  `${routes.logout.method} ${fastifyPath(routes.logout.path)}`,
]);
/** Probes of the load balancer: a 429 there would take a healthy process out of rotation. */
const exempt = new Set([`GET ${routes.health.path}`, `GET ${routes.ready.path}`]);
const routeOf = (request: FastifyRequest) => `${request.method} ${request.routeOptions.url ?? ''}`;

/** Days a year of the fitness chart counts for: one request's worth of the limit a year. */
const DAYS_A_POINT = 366;
const fitnessRoute = `${routes.trainingFitness.method} ${routes.trainingFitness.path}`;
const dayNumber = (day: unknown) =>
  typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(day) / 86_400_000 : NaN;

/**
 * What a request counts against its rider's limit: 1, but a year of the fitness chart
 * counts 1 (its reply is a row a day: 20 years are 7,300 rows, 460 kB and about 30 ms of
 * CPU, where a ride's page is a few ms). A chart without `from` (all time) counts as the
 * longest. So one rider's flood of the longest chart gets about one a second, not 20.
 */
function requestCost(request: FastifyRequest): number {
  if (routeOf(request) !== fitnessRoute) return 1;
  const query = request.query as { from?: unknown; to?: unknown } | undefined;
  const days =
    query?.from === undefined
      ? FITNESS_MAX_DAYS
      : dayNumber(query.to ?? new Date().toISOString().slice(0, 10)) - dayNumber(query.from);
  // A range the route refuses (400) costs what any request costs.
  if (!(days > 0 && days <= FITNESS_MAX_DAYS)) return 1;
  return Math.max(1, Math.ceil(days / DAYS_A_POINT));
}

const tooMany = (ms: number) => {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new ApiError(
    ErrorCode.TooManyAttempts,
    `Too many requests. Try again in ${seconds} second(s).`,
    { headers: { 'retry-after': String(seconds) } },
  );
};

/**
 * Requests per rider and per address, counted over a fixed window by rate-limiter-flexible:
 * in memory on the embedded database (one process), in the database's `request_limits`
 * table on PostgreSQL, so every process counts the same requests. A key over its limit is
 * also remembered here, in this process, until its window ends: its further requests are
 * refused before any database round trip, authentication or queueing. The same store counts
 * a rider's corrections that analyse a ride again (`correction`), under its own key prefix.
 */
export class RequestLimits {
  readonly #rider: RateLimiterAbstract;
  readonly #address: RateLimiterAbstract;
  readonly #corrections: RateLimiterAbstract;
  readonly #blocked = new Map<string, number>();
  readonly #onBlocked: (key: string) => void;
  readonly #onCorrectionsLimited: (userId: number) => void;
  readonly #stop: () => void;

  private constructor(
    limiters: {
      rider: RateLimiterAbstract;
      address: RateLimiterAbstract;
      corrections: RateLimiterAbstract;
    },
    callbacks: {
      onBlocked: (key: string) => void;
      onCorrectionsLimited: (userId: number) => void;
    },
    stop: () => void,
  ) {
    this.#rider = limiters.rider;
    this.#address = limiters.address;
    this.#corrections = limiters.corrections;
    this.#onBlocked = callbacks.onBlocked;
    this.#onCorrectionsLimited = callbacks.onCorrectionsLimited;
    this.#stop = stop;
  }

  static async create(
    db: Database,
    config: Pick<
      ApiConfig,
      | 'requestsPerRider'
      | 'requestsPerAddress'
      | 'requestLimitWindowS'
      | 'correctionsPerRider'
      | 'correctionLimitWindowS'
    >,
    onBlocked: (key: string) => void = () => {},
    onCorrectionsLimited: (userId: number) => void = () => {},
  ): Promise<RequestLimits> {
    const callbacks = { onBlocked, onCorrectionsLimited };
    const windowS = config.requestLimitWindowS;
    const options = (points: number, duration: number, keyPrefix: string) => ({
      points,
      duration,
      keyPrefix,
      // The library blocks a key in this process's memory once it is over (until its
      // window ends), so a flood costs no database round trip per request.
      inMemoryBlockOnConsumed: points + 1,
    });
    const perWindow = (perSecond: number) => Math.max(1, Math.round(perSecond * windowS));
    const kinds = {
      rider: options(perWindow(config.requestsPerRider), windowS, 'rider'),
      address: options(perWindow(config.requestsPerAddress), windowS, 'address'),
      corrections: options(
        config.correctionsPerRider,
        config.correctionLimitWindowS,
        'corrections',
      ),
    };
    if (db.kind !== 'postgres') {
      return new RequestLimits(
        {
          rider: new RateLimiterMemory(kinds.rider),
          address: new RateLimiterMemory(kinds.address),
          corrections: new RateLimiterMemory(kinds.corrections),
        },
        callbacks,
        () => {},
      );
    }
    // The library speaks to a `pg` pool; this gives it our database's pool through `query`.
    const storeClient = {
      query: async (query: { text: string; values?: unknown[] }) => {
        const rows = await db.query<Record<string, unknown>>(query.text, query.values ?? []);
        return { rows, rowCount: rows.length };
      },
    };
    const shared = (kind: ReturnType<typeof options>) =>
      new Promise<RateLimiterPostgres>((resolve, reject) => {
        const limiter: RateLimiterPostgres = new RateLimiterPostgres(
          {
            ...kind,
            storeClient,
            storeType: 'pool',
            tableName: 'request_limits',
            // Our own sweep below, which stops with the server.
            clearExpiredByTimeout: false,
            // The database unreachable for a moment: count in memory meanwhile rather than
            // refuse every request.
            insuranceLimiter: new RateLimiterMemory(kind),
          },
          (error?: Error) => (error ? reject(error) : resolve(limiter)),
        );
      });
    // One after the other: each creates the same table.
    const rider = await shared(kinds.rider);
    const address = await shared(kinds.address);
    const corrections = await shared(kinds.corrections);
    const sweep = setInterval(() => {
      db.query('DELETE FROM request_limits WHERE expire < $1', [Date.now() - 60_000]).catch(
        () => undefined,
      );
    }, 300_000);
    sweep.unref();
    return new RequestLimits({ rider, address, corrections }, callbacks, () =>
      clearInterval(sweep),
    );
  }

  /** Milliseconds until a key known here to be over its limit may try again, else 0. */
  blockedMs(key: string): number {
    const until = this.#blocked.get(key);
    if (until === undefined) return 0;
    const left = until - Date.now();
    if (left > 0) return left;
    this.#blocked.delete(key);
    return 0;
  }

  /**
   * Counts a request of `rider:<id>`, `session:<family>` (a refresh or log-out, at a
   * rider's rate) or `address:<ip>`, as `points` requests (`requestCost`); over the limit,
   * a 429 (10302).
   */
  async consume(key: string, points = 1): Promise<void> {
    const [kind, id] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
    const limiter = kind === 'address' ? this.#address : this.#rider;
    try {
      await limiter.consume(kind === 'session' ? key : id, points);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      if (this.blockedMs(key) === 0) {
        // Addresses of a many-address burst come and go: forget those whose wait is over.
        if (this.#blocked.size > 10_000)
          for (const [blocked, until] of this.#blocked)
            if (until <= Date.now()) this.#blocked.delete(blocked);
        this.#blocked.set(key, Date.now() + error.msBeforeNext);
        this.#onBlocked(key);
      }
      throw tooMany(error.msBeforeNext);
    }
  }

  /**
   * Counts one correction of `userId`'s that analyses a ride again (`rides/revise.ts`); over
   * the rider's limit, a 429 (10302) with `Retry-After`, before anything is analysed or
   * written. A rider's other requests are not refused for it.
   */
  async correction(userId: number): Promise<void> {
    try {
      await this.#corrections.consume(String(userId));
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      this.#onCorrectionsLimited(userId);
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new ApiError(
        ErrorCode.TooManyAttempts,
        `Too many corrections of rides: each one analyses the ride again. Try again in ${Math.ceil(seconds / 60)} minute(s).`,
        { headers: { 'retry-after': String(seconds) } },
      );
    }
  }

  close(): void {
    this.#stop();
  }
}

/**
 * Registers the limits: every request counts once, against its rider when a route verified
 * its token (and only the rider's limit refuses it: strangers flooding the same address do
 * not), else against its address (`request.ip`, from `X-Forwarded-For` when
 * `TRUST_PROXY` is set). So a household or an office behind one address is not limited by
 * its signed-in riders' use, and a request with a bad token still counts (its 401, against
 * the address). Register before admission: a refused request never waits for its turn.
 */
export function requestLimits(
  app: FastifyInstance,
  limits: RequestLimits,
  refreshFamily: (token: unknown) => Promise<string | undefined>,
  /**
   * The rider a bearer token's signature vouches for (`Sessions.signedRider`): a request
   * with such a token answers for its rider; one with a forged token for its address.
   */
  riderOf: RequestRider,
): void {
  /** Refuses a request of `key` known to be over its limit (its 429 held up to a second). */
  const refuseBlocked = async (key: string) => {
    const waitMs = limits.blockedMs(key);
    if (waitMs <= 0) return;
    // Its 429 waits up to a second: a flood on N connections then costs N refusals a
    // second, not thousands (bench: 4,200 refusals a second took the loop from others).
    const held = Math.min(1000, waitMs);
    await new Promise((resolve) => setTimeout(resolve, held));
    throw tooMany(waitMs - held);
  };
  app.addHook('onRequest', async (request) => {
    // The API's requests: the apps' files and pages are static, served from disk.
    if (!request.url.startsWith('/api/') || exempt.has(routeOf(request))) return;
    // Counted once its body's refresh token is read (preHandler below).
    if (sessionRoutes.has(routeOf(request))) return;
    const address = `address:${request.ip}`;
    const rider = riderOf(request);
    // A request with a token of ours answers for its rider, not for strangers flooding its
    // address (an office, a carrier's NAT); the route checks the rest of the token (expiry,
    // session), and one it refuses (401) then counts against the address. A forged token
    // answers for its address from the start.
    await refuseBlocked(rider ? `rider:${rider}` : address);
    // With a token, the count waits until the route has checked it (preParsing below).
    if (!rider) await limits.consume(address);
  });
  // A refresh or log-out counts against the session its token names once the token's
  // signature is checked: a rider refreshes while strangers flood their address; a token
  // that is not ours counts against the address.
  app.addHook('preHandler', async (request) => {
    if (!request.url.startsWith('/api/') || !sessionRoutes.has(routeOf(request))) return;
    const family = await refreshFamily((request.body as { refresh?: unknown } | null)?.refresh);
    const key = family ? `session:${family}` : `address:${request.ip}`;
    await refuseBlocked(key);
    await limits.consume(key);
  });
  // After the route's own onRequest hook (authentication) and before the body is read.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const rider = riderOf(request);
    if (!rider || !request.url.startsWith('/api/') || exempt.has(routeOf(request)))
      return done(null, payload);
    // Reaching here on a signed-in route means the token was verified: its `sub` is the
    // rider. A public route checked it too when it could: a token it refused counts against
    // the address.
    const verified =
      signedInRoutes.has(routeOf(request)) || verifiedRiders.get(request) !== undefined;
    const key = verified ? `rider:${rider}` : `address:${request.ip}`;
    limits.consume(key, requestCost(request)).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
  app.addHook('onSend', async (request, reply, payload) => {
    // A token of ours refused (401: expired, ended) was never counted against a rider: it
    // counts for its address, before the client has its answer (so its next request sees
    // the count). A forged one was counted on arrival.
    if (reply.statusCode === 401 && request.url.startsWith('/api/') && riderOf(request))
      await limits.consume(`address:${request.ip}`).catch(() => undefined);
    return payload;
  });
  app.addHook('onClose', (_instance, done) => {
    limits.close();
    done();
  });
}
