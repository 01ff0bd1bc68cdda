// Over 300 lines: the server's wiring (security headers, CORS, error mapping, deadlines,
// admission, routes, static apps and their pages) is the one place that orders these hooks.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { ErrorCode, openApiDocument, ownerOfPath } from '@xoss/api-contract';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { runAfterReply } from './http/afterReply.ts';
import { fairAdmission, riderOnce } from './http/admission.ts';
import { RequestLimits, requestLimits } from './http/requestLimits.ts';
import { requestDeadlines } from './http/deadline.ts';
import { usePasswordHashCost } from './auth/passwords.ts';
import { Sessions } from './auth/sessions.ts';
import { helmetOptions, staticHeaders } from './http/securityHeaders.ts';
import type { BlobStore } from './platform/blobStore.ts';
import type { ApiConfig } from './platform/config.ts';
import type { Database } from './platform/db/db.ts';
import { ApiError, refuseDeepJson, sendError } from './http/envelope.ts';
import { authRoutes } from './routes/auth.ts';
import { articleIdError, contentRoutes } from './routes/content.ts';
import { deviceRoutes } from './routes/devices.ts';
import { routebookRoutes } from './routes/routebooks.ts';
import { shareCardTags, shareRoutes } from './routes/share.ts';
import { workoutRoutes } from './routes/workouts.ts';
import { runImport } from './rides/store.ts';
import { trainingRoutes } from './routes/training.ts';
import { reanalyseOlder } from './rides/revise.ts';
import type { Services } from './services.ts';
import { analysisPending, precomputeAnalysis } from './analysis/precompute.ts';
import { KEY_RELOAD_MS, type SecretSet } from './auth/keyStore.ts';
import { AnalysisPool, defaultPoolSize } from './imports/pool.ts';
import { ImportJobs } from './imports/importJobs.ts';
import { ArchiveImports } from './imports/archives.ts';
import { archiveRoutes } from './routes/archives.ts';
import { StorageHealth, storageFullError, storageFullPart } from './platform/storageHealth.ts';
import { DatabaseThreadRestarted } from './platform/db/pgliteThread.ts';
import { ApiMetrics, metricsRoutes } from './platform/metrics.ts';
import { Readiness, readyRoute } from './platform/readiness.ts';
import { athleteDataRoutes } from './routes/athleteData.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Analyses again, in the background, the rides an older analysis made (`reanalyseOlder`). */
    readonly reanalyseOlder: (signal: AbortSignal) => Promise<number>;
  }
}

/** Where the built front ends are; any of them may be missing (then only the API answers). */
export interface StaticRoots {
  publicSite?: string;
  athletePortal?: string;
  storybook?: string;
}

export interface ServerOptions {
  readonly db: Database;
  readonly blobs: BlobStore;
  readonly config: ApiConfig;
  readonly logger?: boolean | object;
  /** The level of the one line each request is logged with (default info). */
  readonly requestLogLevel?: 'debug' | 'info';
  readonly staticRoots?: StaticRoots;
  readonly pool?: AnalysisPool;
  /** Milliseconds since the epoch; tests pass fake time. */
  readonly now?: () => number;
  /** Signing keys shared through the database: read again every 30 s (rotation). */
  readonly keySource?: () => Promise<SecretSet>;
  /** The data folder: `/api/ready` says not ready when its disk runs short of space. */
  readonly dataDir?: string;
}

/**
 * One line per request, when it is answered, at the level asked for (debug when a person
 * reads the log, see platform/logging.ts), instead of Fastify's two at info. A request that failed
 * is still an error line.
 */
class RequestLog extends LogController {
  readonly #level: 'debug' | 'info';
  constructor(level: 'debug' | 'info') {
    super();
    this.#level = level;
  }
  override incomingRequest(): void {}
  override routeNotFound(): void {}
  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const fields = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log[this.#level](fields, 'request completed');
  }
}

function existing(path: string | undefined): string | undefined {
  return path !== undefined && existsSync(join(path, 'index.html')) ? path : undefined;
}

/**
 * The prerendered file of a site path (`/product/xossnav` -> `product/xossnav/index.html`,
 * `?lang=de` -> `index.de.html`), when the build wrote one; plain segments and language tags
 * only, so no path leaves the site's folder.
 */
export function prerenderedPage(root: string, url: string): string | undefined {
  const [pathname = '', query = ''] = url.split('#')[0]!.split('?');
  const segments = pathname.split('/').filter(Boolean);
  if (!segments.every((segment) => /^[A-Za-z0-9_-]+$/.test(segment))) return undefined;
  const folder = segments.length === 0 ? '' : `${segments.join('/')}/`;
  // `?lang=de` picks the page's German copy (the hreflang alternates), when there is one.
  const language = new URLSearchParams(query).get('lang');
  if (language && /^[A-Za-z]{2}(-[A-Za-z]{2})?$/.test(language)) {
    const translated = `${folder}index.${language}.html`;
    if (existsSync(join(root, translated))) return translated;
  }
  const file = `${folder}index.html`;
  return existsSync(join(root, file)) ? file : undefined;
}

// Fastify's own client errors, mapped to the API's codes.
const fastifyErrors: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [ErrorCode.ValidationFailed, 'The body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [ErrorCode.ValidationFailed, 'The JSON body is empty'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    ErrorCode.UnsupportedFile,
    'This content type is not accepted here',
  ],
  FST_ERR_CTP_BODY_TOO_LARGE: [ErrorCode.PayloadTooLarge, 'The request body is too large'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    ErrorCode.ValidationFailed,
    'The Content-Length does not match the body',
  ],
  FST_ERR_CTP_INVALID_TYPE: [ErrorCode.ValidationFailed, 'The content type is invalid'],
  FST_ERR_HANDLER_TIMEOUT: [
    ErrorCode.Unavailable,
    'The server took too long to answer; please try again',
  ],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [
    ErrorCode.ValidationFailed,
    'The upload is not multipart/form-data',
  ],
};

/**
 * The origin of absolute links in pages (a share page's card tags): `PUBLIC_ORIGIN`, else the
 * address this server listens on (all interfaces as `localhost`; `localhost:8080`, the
 * default port, before it listens). Never the request's Host header: any client sets it, and
 * a card naming another host sends the chat app's preview, and whoever follows it, there.
 */
function publicOriginOf(app: FastifyInstance, config: ApiConfig): string {
  if (config.publicOrigin) return config.publicOrigin;
  const address = app.server.listening ? app.server.address() : null;
  if (address === null || typeof address === 'string') return 'http://localhost:8080';
  const host = ['0.0.0.0', '::'].includes(address.address)
    ? 'localhost'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return `http://${host}:${address.port}`;
}

/** Proxy-addr's trust test for `hops` proxies in front: the socket's peer and the next ones. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Builds the server: the API under /api and, when given, the built apps on the same origin. */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { config } = options;
  // Before anything listens: a cost below the floor stops the start with its reason.
  usePasswordHashCost(config.passwordHashCost);
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new RequestLog(options.requestLogLevel ?? 'info'),
    // A number of proxies: the first that many addresses from the socket inward are proxies
    // (Fastify takes a bare number as "trust none"); a list: proxy-addr checks each one.
    trustProxy:
      typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Node's own clock for slow clients: headers (slowloris) and whole requests get 408;
    // it checks every second rather than its default 30 s.
    serverFactory: (handler) =>
      createServer(
        {
          headersTimeout: config.headersTimeoutMs,
          requestTimeout: config.requestTimeoutMs,
          connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
        },
        handler,
      ),
    requestTimeout: config.requestTimeoutMs,
    return503OnClosing: true,
    genReqId: () => crypto.randomUUID(),
    // A path the router cannot read (a `%ff` that decodes to no text, a segment over its
    // length limit) is answered before any route or hook runs: our envelope, not Fastify's.
    frameworkErrors: (error, _request, reply) => {
      reply.header('cache-control', 'no-store').header('x-content-type-options', 'nosniff');
      const [code, detail] =
        error.code === 'FST_ERR_BAD_URL'
          ? [ErrorCode.ValidationFailed, 'The URL has an invalid %-escape']
          : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? [ErrorCode.ValidationFailed, 'A part of the URL is too long']
            : [ErrorCode.Internal, 'The request could not be routed'];
      void sendError(reply, code, detail);
    },
  });
  const now = options.now ?? Date.now;
  // Process metrics (event loop, heap) only when someone can read them.
  const metrics = new ApiMetrics({ db: options.db, processMetrics: !!config.metricsToken });
  const securityLog = (event: string, fields: Record<string, unknown>) => {
    metrics.securityEvent(event);
    app.log.info({ security: event, at: new Date(now()).toISOString(), ...fields }, event);
  };
  // Every part of the server reaches the file store through this: its failures are counted.
  const blobs = metrics.countingBlobs(options.blobs);
  const pool =
    options.pool ??
    new AnalysisPool({
      ...(config.importWorkers ? { size: config.importWorkers } : {}),
      jobTimeoutMs: config.importTimeoutMs,
      maxHeapMb: config.importHeapMb,
      maxWaitingPerOwner: config.importQueuePerUser,
    });
  const storage = new StorageHealth({ db: options.db, blobs, log: app.log, now });
  const imports = await ImportJobs.start({
    db: options.db,
    blobs,
    log: app.log,
    health: storage,
    now,
    // Every process can run imports (the demo seed does, see `workHere`); IMPORT_JOBS=off
    // only keeps it from fetching the queue's jobs.
    // The ride's analysis follows in the background (`analysis/precompute.ts`).
    runner: (row, signal) =>
      metrics.importJob(async () => {
        const id = await runImport(services, row, signal);
        precomputeAnalysis(services, id);
        return id;
      }, signal),
    work: config.runImports,
    concurrency: config.importWorkers ?? defaultPoolSize(),
    maxQueuedPerUser: config.importQueuePerUser,
    heartbeatS: config.importHeartbeatS,
    superviseS: config.jobsSuperviseS,
    retryLimit: config.importRetries,
    staleUploadS: config.importStaleUploadS,
    expireS: Math.ceil(config.importTimeoutMs / 1000) + 120,
    deferWork: true,
  });
  const archives = new ArchiveImports({
    db: options.db,
    blobs,
    log: app.log,
    imports,
    work: config.runImports,
    maxArchiveBytes: config.maxArchiveBytes,
    // An activity in an archive may be as large as one uploaded alone.
    limits: {
      maxEntryBytes: config.maxFitBytes,
      maxEntries: config.maxArchiveEntries,
      maxNestedZips: config.maxArchiveZips,
      maxTempBytes: config.maxArchiveTempBytes,
    },
    // Unpacked on the data folder's disk, which the readiness check watches.
    ...(options.dataDir ? { tmpDir: join(options.dataDir, 'tmp', 'archives') } : {}),
    minFreeBytes: config.minFreeDiskBytes,
  });
  // Requests and costly corrections per rider (and address), counted by every process.
  const limits = await RequestLimits.create(
    options.db,
    config,
    (key) => securityLog('request.rateLimited', { key }),
    (userId) => securityLog('workout.correctionsLimited', { userId }),
  );
  const services: Services = {
    db: options.db,
    blobs,
    config,
    now,
    log: app.log,
    pool,
    imports,
    archives,
    storage,
    sessions: new Sessions(options.db, config, securityLog, now),
    limits,
  };
  // Workers start once the services they run with exist (a restart with imports waiting
  // found them before, and failed on them).
  await imports.startWork();
  await archives.start();
  const { keySource } = options;
  if (keySource) {
    const reload = setInterval(() => {
      keySource().then(
        (keys) => services.sessions.useKeys(keys.secret, keys.previous),
        (error: unknown) => app.log.error({ err: error }, 'reading the signing keys failed'),
      );
    }, KEY_RELOAD_MS);
    reload.unref();
    app.addHook('onClose', () => clearInterval(reload));
  }
  // Before the pool: a job stopped here is retried by another process.
  app.addHook('onClose', () => imports.stop());
  // A walk stopped here resumes in another process (or at the next start) where it was.
  app.addHook('onClose', () => archives.stop());
  app.decorate('importJobs', imports);
  app.decorate('archiveImports', archives);
  app.decorate('reanalyseOlder', (signal: AbortSignal) =>
    reanalyseOlder(services, signal, (message, id, error) =>
      app.log.warn({ err: error, workoutId: id }, message),
    ),
  );
  if (!options.pool) app.addHook('onClose', () => pool.close());

  await app.register(fastifyCors, {
    // Same-origin calls carry no CORS; other origins only when configured (never `*`).
    origin: (origin, callback) =>
      callback(null, origin !== undefined && config.allowedOrigins.includes(origin)),
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Xoss-Product'],
    credentials: false,
    maxAge: 600,
  });
  await app.register(fastifyMultipart, { throwFileSizeLimit: true });
  // Pages, scripts, styles and JSON travel compressed (brotli, else gzip); files already
  // compressed (FIT, map packages, PDF, images) go as they are.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    // Replies are compressed as they go: brotli's default quality (11) costs far more time
    // than it saves on a ride's streams; 4 compresses about as well as gzip, faster.
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
    customTypes: /^(text\/|application\/(json|javascript|xml)|image\/svg\+xml)/,
  });

  // Helmet writes the pages' protections; `staticHeaders` applies them to HTML replies only.
  await app.register(fastifyHelmet, helmetOptions(config.tileOrigins));
  const pageHeaders = staticHeaders();
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    // Files sent precompressed differ by Accept-Encoding, as compressed replies do.
    if (reply.hasHeader('content-encoding')) {
      const vary = String(reply.getHeader('vary') ?? '');
      if (!/accept-encoding/i.test(vary))
        reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
    }
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    pageHeaders(request, reply);
  });

  // JSON nested too deep is refused before it is parsed, so no recursive walk (zod's, the
  // database's, ours) ever meets it; the rest is Fastify's own parser (proto poisoning).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string; // `parseAs: 'string'`
    try {
      refuseDeepJson(text);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    void parseJson(request, text, done);
  });

  // A bad article id (not a number) gets the spec's text, not a generic validation error.
  app.addHook('onRequest', (request, _reply, done) => {
    const match = /^\/api\/v2\/posts\/([^/?]+)\//.exec(request.url);
    done(match && !/^[1-9]\d{0,9}$/.test(match[1]!) ? articleIdError() : undefined);
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.code === ErrorCode.Forbidden || error.code === ErrorCode.TokenInvalid)
        securityLog('authorization.failed', {
          url: request.url.split('?')[0],
          ip: request.ip,
          code: error.code,
        });
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return sendError(reply, error.code, error.message, error.errors, error.existingId);
    }
    // The embedded database's thread crashed under this request and is starting again.
    if (error instanceof DatabaseThreadRestarted) {
      request.log.warn({ err: error }, 'the database restarted under a request');
      reply.header('retry-after', '2');
      return sendError(reply, ErrorCode.Unavailable, error.message);
    }
    // A full disk (or quota) is the server's trouble, not the rider's: try again later. The
    // database says so with SQLSTATE 53100 (disk_full).
    const full = storageFullPart(error);
    if (full) {
      request.log.error({ err: error }, 'storage full');
      storage.failed(full, error);
      const refusal = storageFullError(full);
      for (const [name, value] of Object.entries(refusal.headers)) reply.header(name, value);
      return sendError(reply, refusal.code, refusal.message);
    }
    const known = fastifyErrors[error.code];
    if (known) return sendError(reply, known[0], known[1]);
    if (error.statusCode === 413)
      return sendError(reply, ErrorCode.PayloadTooLarge, 'The request is too large');
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
      return sendError(reply, ErrorCode.ValidationFailed, 'The request is not valid');
    request.log.error({ err: error }, 'unexpected error');
    // No stack, SQL or token in the body: only the request id to quote.
    return sendError(
      reply,
      ErrorCode.Internal,
      `Something went wrong on our side (request ${request.id})`,
    );
  });

  // Handlers overrunning their deadline get 503 / 10503, with or without a body.
  requestDeadlines(app, config.handlerTimeoutMs);
  // Requests over their rider's or address's limit get 429 before they wait for a turn.
  // One signature check a request, shared by the limits' hooks and admission.
  const signedRider = riderOnce((authorization) => services.sessions.signedRider(authorization));
  requestLimits(app, limits, (token) => services.sessions.refreshFamily(token), signedRider);
  // Then a few requests start per turn of the loop, so new connections are accepted in time;
  // riders (and addresses) take turns.
  fairAdmission(
    app,
    config.requestsPerTurn,
    signedRider,
    config.anonymousInFlight,
    config.riderInFlight,
  );
  runAfterReply(app);
  metrics.watchQueue(imports);
  metricsRoutes(app, metrics, config.metricsToken, (ip) => securityLog('metrics.refused', { ip }));
  readyRoute(
    app,
    new Readiness({
      db: options.db,
      storage,
      imports,
      log: app.log,
      diskPath: options.dataDir,
      minFreeBytes: config.minFreeDiskBytes,
      onChecked: (checks) => metrics.readyChecks(checks),
      analysing: () => analysisPending(services),
    }),
    { token: config.metricsToken },
  );
  // Reset links name the public origin, never the request's Host header (`publicOriginOf`).
  authRoutes(app, services, { linkOrigin: () => publicOriginOf(app, config), securityLog });
  // Mail the server promised survives a restart or a full disk: it waits in the queue.
  await app.mailer.useQueue(imports.boss, { retryDelayS: config.mailRetryDelayS });
  athleteDataRoutes(app, services);
  archiveRoutes(app, services);
  workoutRoutes(app, services);
  trainingRoutes(app, services);
  shareRoutes(app, services);
  deviceRoutes(app, services);
  routebookRoutes(app, services);
  contentRoutes(app, services);
  const openApi = openApiDocument();
  app.get('/api/openapi.json', () => openApi);

  const site = existing(options.staticRoots?.publicSite);
  const portal = existing(options.staticRoots?.athletePortal);
  const storybook = existing(options.staticRoots?.storybook);
  const appRoots = [site, portal].filter((root): root is string => root !== undefined);
  if (appRoots.length > 0) {
    await app.register(fastifyStatic, {
      root: appRoots,
      prefix: '/',
      index: false,
      wildcard: false,
      // The apps' builds write `.br` and `.gz` beside each page, script and style
      // (scripts/precompress.ts): sent as they are, no compression work per request.
      preCompressed: true,
    });
  }
  if (storybook) {
    await app.register(fastifyStatic, {
      root: storybook,
      prefix: '/storybook/',
      decorateReply: false,
    });
  }

  // Unknown paths: API paths get the error envelope; app paths get their app's shell, whose
  // router shows the page or its own not-found screen.
  app.setNotFoundHandler(async (request, reply) => {
    const owner = ownerOfPath(request.url);
    const root = owner === 'athlete-portal' ? portal : owner === 'public-site' ? site : undefined;
    // A missing hashed file is a 404, never a page (a stale tab asks for an old chunk).
    const missingAsset = /^\/(storybook\/)?assets\//.test(request.url);
    if (owner === 'api' || root === undefined || request.method !== 'GET' || missingAsset) {
      return sendError(
        reply,
        ErrorCode.NotFound,
        `No route for ${request.method} ${request.url.split('?')[0]}`,
      );
    }
    if (root === site) {
      // The site's prerendered pages (`<path>/index.html`), else its empty shell.
      const page = prerenderedPage(site, request.url);
      if (page) return reply.type('text/html').sendFile(page, site);
      if (existsSync(join(site, 'shell.html')))
        return reply.type('text/html').sendFile('shell.html', site);
    }
    // A share link pasted in a chat: its page carries the ride's preview card.
    if (root === portal) {
      const origin = publicOriginOf(app, config);
      const tags = await shareCardTags(services, request.url, origin).catch(() => undefined);
      if (tags) {
        const shell = await readFile(join(root, 'index.html'), 'utf8');
        return reply.type('text/html').send(shell.replace('</head>', `${tags}</head>`));
      }
    }
    return reply.type('text/html').sendFile('index.html', root);
  });

  return app;
}
