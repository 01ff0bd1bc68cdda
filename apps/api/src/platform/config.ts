import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';

/** Everything the API reads from its environment, with the defaults of a local run. */
export interface ApiConfig {
  /**
   * HS256 secret that signs the tokens (`JWT_SECRET`). Unset: random per process here, and
   * `createApp` replaces it with a key kept in the data folder.
   */
  readonly jwtSecret: string;
  /** Earlier secrets (`JWT_PREVIOUS_SECRETS`, comma-separated): still verify, never sign. */
  readonly jwtPreviousSecrets: readonly string[];
  readonly accessTtlS: number;
  readonly refreshTtlS: number;
  /** Absolute session cap: no refresh beyond this many seconds after the login. */
  readonly sessionCapS: number;
  /** A refresh token presented again within this window is a race, not a theft. */
  readonly refreshGraceS: number;
  /** Origins other than the API's own that may call it from a browser (CORS). */
  readonly allowedOrigins: readonly string[];
  /**
   * Which `X-Forwarded-For` entries to believe (`TRUST_PROXY`, `trustProxySetting`): false,
   * none (the socket's address is the client's); a number, that many proxies in front of the
   * API (the client is the entry the farthest of them wrote: the right-most one for one
   * nginx); a list of the proxies' addresses or ranges, skipped from the right. Never "all":
   * the left-most entry is whatever the client wrote.
   */
  readonly trustProxy: false | number | string;
  readonly loginFailuresPerAccount: number;
  readonly loginAttemptsPerIp: number;
  readonly loginWindowS: number;
  /** Password hashes (argon2) running at once; they share libuv's pool with file I/O. */
  readonly passwordHashConcurrency: number;
  /** Logins waiting for a hashing slot; beyond this they get 503 + `Retry-After`. */
  readonly passwordHashQueue: number;
  /** Password hashes started per second at most (`PASSWORD_HASHES_PER_SECOND`); beyond, 503. */
  readonly passwordHashesPerSecond: number;
  /**
   * argon2id's cost for new hashes (`PASSWORD_HASH_MEMORY_KIB`, `PASSWORD_HASH_ITERATIONS`):
   * 64 MiB and 3 passes by default; never below OWASP's floor (19 MiB, 2), checked at start.
   */
  readonly passwordHashCost: { readonly memoryKiB: number; readonly iterations: number };
  readonly maxFitBytes: number;
  /** The largest export archive `POST /api/v2/imports/archives/` takes (4 GiB). */
  readonly maxArchiveBytes: number;
  /** Entries of an archive and its nested zips together (`ARCHIVE_MAX_ENTRIES`, 100,000). */
  readonly maxArchiveEntries: number;
  /** Zips inside an archive (`ARCHIVE_MAX_ZIPS`, 1,000). */
  readonly maxArchiveZips: number;
  /** Temporary bytes one archive's walk may write (`ARCHIVE_TEMP_BYTES`; 2 x the archive limit). */
  readonly maxArchiveTempBytes: number;

  readonly maxGpxBytes: number;
  /** Import worker threads (`IMPORT_WORKERS`); default: cores less one, 2 to 4. */
  readonly importWorkers: number | undefined;
  /** An import's analysis running longer than this is stopped and the file refused. */
  readonly importTimeoutMs: number;
  /** A worker's JS heap limit in MB; an import above it is refused. */
  readonly importHeapMb: number;
  /** Most samples (records) one ride may have. */
  readonly importMaxSamples: number;
  /** Longest span one ride may cover, in seconds. */
  readonly importMaxDurationS: number;
  /** Imports one rider may have waiting behind the running one. */
  readonly importQueuePerUser: number;
  /** Whether this process runs queued imports (`IMPORT_JOBS=off`: it only queues them). */
  readonly runImports: boolean;
  /** A job whose worker is silent this long is retried by another process (>= 10 s). */
  readonly importHeartbeatS: number;
  /** How often each process looks for jobs of dead workers, in seconds. */
  readonly jobsSuperviseS: number;
  /**
   * Attempts of an import after the first, for failures of ours (a process or worker that
   * died under it, the database away): the waits double from 1 s to a minute between them.
   */
  readonly importRetries: number;
  /** An upload whose process died before queueing it is cleaned up after this many seconds. */
  readonly importStaleUploadS: number;
  /** Time a request may take from routing to reply before the client gets 503 (10503). */
  readonly handlerTimeoutMs: number;
  /** Requests started per turn of the event loop; the rest wait, riders taking turns. */
  readonly requestsPerTurn: number;
  /** Requests without a token (share links, logins, pages) in progress at once; the rest wait. */
  readonly anonymousInFlight: number;
  /** One signed-in rider's requests in progress at once; the rider's others wait. */
  readonly riderInFlight: number;
  /** Requests per second one signed-in rider may make, averaged over the window below. */
  readonly requestsPerRider: number;
  /** Requests per second from one address without a valid token, averaged the same way. */
  readonly requestsPerAddress: number;
  /** The window those are counted over: a burst may spend the whole window's allowance. */
  readonly requestLimitWindowS: number;
  /**
   * Corrections that analyse a ride again (crop, keep_removed, exclude_from_bests, start_time,
   * ftp_choice, sport_type) one rider may make per `correctionLimitWindowS`; beyond, 429.
   */
  readonly correctionsPerRider: number;
  /** The window corrections are counted over, in seconds (`CORRECTION_LIMIT_WINDOW_S`). */
  readonly correctionLimitWindowS: number;
  /** The same for uploads, which include receiving the file. */
  readonly uploadTimeoutMs: number;
  /** Time a client has to send its request headers (else 408, slowloris). */
  readonly headersTimeoutMs: number;
  /** Time a client has to send its whole request (else 408). */
  readonly requestTimeoutMs: number;
  /** Map tile origins the pages may load images from (CSP `img-src`). */
  readonly tileOrigins: readonly string[];
  /**
   * The origin visitors reach the site at (`PUBLIC_ORIGIN`, e.g. `https://xoss.example`), for
   * absolute links such as a share page's card tags. Never taken from the request's Host
   * header, which any client sets. Unset: the address the server listens on.
   */
  readonly publicOrigin: string | undefined;
  /**
   * Where mail goes (`SMTP_URL`, e.g. `smtps://user:pass@mail.example:465`). Unset: each mail
   * is written to `mailOutboxDir` as an .eml file instead, and the log names the file.
   */
  readonly smtpUrl: string | undefined;
  /** The sender of the mails (`MAIL_FROM`); default no-reply at the public origin's host. */
  readonly mailFrom: string;
  /** First wait before a failed mail is tried again, in seconds (`MAIL_RETRY_DELAY_S`, 10; it doubles). */
  readonly mailRetryDelayS: number;
  /** The folder of unsent mails without `SMTP_URL`: `DATA_DIR/outbox`, set by `createApp`. */
  readonly mailOutboxDir: string | undefined;
  /** Password-reset mails one e-mail address may be sent per `loginWindowS`. */
  readonly passwordResetsPerEmail: number;
  /** Password-reset requests one client address may make per `loginWindowS`. */
  readonly passwordResetsPerIp: number;
  /**
   * The bearer token Prometheus sends to `GET /metrics` (`METRICS_TOKEN`, 16 characters or
   * more). Unset: `/metrics` is a 404, so nothing about the server is told to anyone.
   */
  readonly metricsToken: string | undefined;
  /** Free bytes the data folder's disk must keep, else `/api/ready` says not ready. */
  readonly minFreeDiskBytes: number;
}

/** `METRICS_TOKEN`, or a start-up error when it is too short to resist guessing. */
function metricsToken(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const token = value.trim();
  if (token.length < 16 || /\s/.test(token))
    throw new Error(
      'METRICS_TOKEN must be at least 16 characters without spaces (e.g. `openssl rand -hex 32`)',
    );
  return token;
}

/** `SMTP_URL` checked at start-up: an smtp: or smtps: URL, or a start-up error saying why not. */
function smtpUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  // The message names the scheme only: the URL may hold the mail account's password.
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '')
    throw new Error(
      `SMTP_URL must be an smtp: or smtps: URL with a host, like smtps://user:pass@mail.example:465 (got scheme ${url?.protocol ?? 'none'})`,
    );
  return value.trim();
}

/** `PUBLIC_ORIGIN` as an origin (scheme, host, port), or a start-up error saying why not. */
function publicOrigin(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== ''
  )
    throw new Error(
      `PUBLIC_ORIGIN must be an http(s) origin without a path, like https://xoss.example (got ${value})`,
    );
  return url.origin;
}

/** Names of address ranges a proxy list may use (as Fastify's `trustProxy` takes them). */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `TRUST_PROXY` as Fastify's `trustProxy`, or a start-up error saying why not: unset, `0` or
 * `false`, none; a whole number, the proxies in front of the API (`1` behind one nginx that
 * appends `$proxy_add_x_forwarded_for`; `2` behind a CDN and nginx); else a comma-separated
 * list of the proxies' addresses, CIDR ranges or `loopback`, `linklocal`, `uniquelocal`.
 * `true` is refused: it believes the left-most entry, which any client writes.
 */
export function trustProxySetting(value: string | undefined): false | number | string {
  const text = value?.trim() ?? '';
  if (text === '' || text === '0' || text === 'false') return false;
  if (/^[1-9]\d?$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  const valid = entries.every(
    (entry) =>
      RANGE_NAMES.has(entry) ||
      (/^[\d.:a-fA-F]+(\/\d{1,3})?$/.test(entry) && isIP(entry.split('/')[0]!) !== 0),
  );
  if (text === 'true' || !valid)
    throw new Error(
      `TRUST_PROXY must be the number of proxies in front of the API (1 behind one nginx) or a ` +
        `list of their addresses or ranges, like 10.0.0.0/8,loopback (got ${value}); "true" ` +
        `would believe the X-Forwarded-For entry a client writes`,
    );
  return entries.join(',');
}

const number = (value: string | undefined, fallback: number) => {
  const parsed = Number(value);
  return value !== undefined && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
};

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  return {
    jwtSecret: env.JWT_SECRET ?? randomBytes(32).toString('hex'),
    jwtPreviousSecrets: (env.JWT_PREVIOUS_SECRETS ?? '')
      .split(',')
      .map((secret) => secret.trim())
      .filter(Boolean),
    accessTtlS: number(env.ACCESS_TOKEN_TTL_S, 10 * 60),
    refreshTtlS: number(env.REFRESH_TOKEN_TTL_S, 7 * 24 * 3600),
    sessionCapS: number(env.SESSION_CAP_S, 30 * 24 * 3600),
    refreshGraceS: number(env.REFRESH_GRACE_S, 30),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    trustProxy: trustProxySetting(env.TRUST_PROXY),
    loginFailuresPerAccount: number(env.LOGIN_FAILURES_PER_ACCOUNT, 20),
    loginAttemptsPerIp: number(env.LOGIN_ATTEMPTS_PER_IP, 100),
    loginWindowS: number(env.LOGIN_WINDOW_S, 15 * 60),
    // One core is left to the event loop: on two cores, two hashes at once slowed every
    // other request (bench: ordinary riders' p99 under a login burst).
    passwordHashConcurrency: number(
      env.PASSWORD_HASH_CONCURRENCY,
      Math.min(2, Math.max(1, availableParallelism() - 1)),
    ),
    passwordHashQueue: number(env.PASSWORD_HASH_QUEUE, 16),
    // About half a core of argon2 (156 ms each): a burst of logins from many addresses may
    // not take more of a small server than that. 4 a second is 14,400 sign-ins an hour.
    passwordHashesPerSecond: number(env.PASSWORD_HASHES_PER_SECOND, 4),
    passwordHashCost: {
      memoryKiB: number(env.PASSWORD_HASH_MEMORY_KIB, 65_536),
      iterations: number(env.PASSWORD_HASH_ITERATIONS, 3),
    },
    maxFitBytes: number(env.MAX_FIT_BYTES, 32 * 1024 * 1024),
    maxArchiveBytes: number(env.MAX_ARCHIVE_BYTES, 4 * 1024 * 1024 * 1024),
    maxArchiveEntries: number(env.ARCHIVE_MAX_ENTRIES, 100_000),
    maxArchiveZips: number(env.ARCHIVE_MAX_ZIPS, 1_000),
    maxArchiveTempBytes: number(
      env.ARCHIVE_TEMP_BYTES,
      2 * number(env.MAX_ARCHIVE_BYTES, 4 * 1024 * 1024 * 1024) + 64 * 1024 * 1024,
    ),
    maxGpxBytes: number(env.MAX_GPX_BYTES, 16 * 1024 * 1024),
    importWorkers: env.IMPORT_WORKERS ? number(env.IMPORT_WORKERS, 2) : undefined,
    importTimeoutMs: number(env.IMPORT_TIMEOUT_MS, 60_000),
    importHeapMb: number(env.IMPORT_HEAP_MB, 512),
    importMaxSamples: number(env.IMPORT_MAX_SAMPLES, 400_000),
    importMaxDurationS: number(env.IMPORT_MAX_DAYS, 14) * 86_400,
    importQueuePerUser: number(env.IMPORT_QUEUE_PER_USER, 32),
    runImports: env.IMPORT_JOBS !== 'off' && env.IMPORT_JOBS !== '0',
    importHeartbeatS: Math.max(10, Math.round(number(env.IMPORT_HEARTBEAT_S, 10))),
    jobsSuperviseS: Math.max(1, Math.round(number(env.JOBS_SUPERVISE_S, 10))),
    importRetries: Math.round(number(env.IMPORT_RETRIES, 10)),
    importStaleUploadS: number(env.IMPORT_STALE_UPLOAD_S, 300),
    handlerTimeoutMs: number(env.HANDLER_TIMEOUT_MS, 30_000),
    requestsPerTurn: number(env.REQUESTS_PER_TURN, 8),
    // Anyone may open share links from as many addresses as they have, each within its
    // limit: together they could keep the database and the CPU busy with work signed-in
    // riders wait behind. Riders are not capped; anonymous work gets this many at a time.
    anonymousInFlight: number(env.ANONYMOUS_IN_FLIGHT, 8),
    // One rider's flood of a costly read (the 20-year fitness chart, 30 ms of CPU each) had
    // every one of its 200 connections in progress: the others' requests queued behind them
    // in the database and the loop (bench/fairShare.ts: their p99 18x quiet). A portal page
    // asks about 10 at once; the few beyond the cap start as the first ones end.
    riderInFlight: number(env.RIDER_IN_FLIGHT, 6),
    // 200 and 100 requests per 10 s: a portal page is about 10 requests, a sync 32 uploads.
    requestsPerRider: number(env.REQUESTS_PER_RIDER, 20),
    requestsPerAddress: number(env.REQUESTS_PER_ADDRESS, 10),
    requestLimitWindowS: Math.max(1, Math.round(number(env.REQUEST_LIMIT_WINDOW_S, 10))),
    // Each correction analyses the ride again from its file (up to IMPORT_TIMEOUT_MS of a
    // worker): 30 in 10 minutes, a correction every 20 s, is more than a person trying a
    // ride's crop, cleaning, date and FTP (each a click and a look) ever makes.
    correctionsPerRider: Math.max(1, Math.round(number(env.CORRECTIONS_PER_RIDER, 30))),
    correctionLimitWindowS: Math.max(1, Math.round(number(env.CORRECTION_LIMIT_WINDOW_S, 600))),
    uploadTimeoutMs: number(env.UPLOAD_TIMEOUT_MS, 300_000),
    headersTimeoutMs: number(env.HEADERS_TIMEOUT_MS, 20_000),
    requestTimeoutMs: number(env.REQUEST_TIMEOUT_MS, 300_000),
    tileOrigins: (env.TILE_ORIGINS ?? 'https://tile.openstreetmap.org')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    publicOrigin: publicOrigin(env.PUBLIC_ORIGIN),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom:
      env.MAIL_FROM?.trim() ||
      `XOSS <no-reply@${new URL(publicOrigin(env.PUBLIC_ORIGIN) ?? 'http://localhost').hostname}>`,
    mailOutboxDir: env.MAIL_OUTBOX_DIR?.trim() || undefined,
    // A rider who lost a mail asks again, perhaps twice; more is someone filling an inbox.
    passwordResetsPerEmail: number(env.PASSWORD_RESETS_PER_EMAIL, 3),
    passwordResetsPerIp: number(env.PASSWORD_RESETS_PER_IP, 20),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    mailRetryDelayS: number(env.MAIL_RETRY_DELAY_S, 10),
    // Room for a few hundred uploads and the database's own growth while an operator reacts.
    minFreeDiskBytes: number(env.MIN_FREE_DISK_BYTES, 512 * 1024 * 1024),
  };
}
