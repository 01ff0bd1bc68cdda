import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.ts';
import { logFormatFromEnv, loggerFromEnv, requestLogLevel } from './platform/logging.ts';
import { s3OptionsFromEnv } from './platform/s3BlobStore.ts';
import { DEMO_USER } from './commands/seed.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
// `--worker` (`pnpm --filter @xoss/api worker`): a process that only runs queued imports,
// beside API processes started with IMPORT_JOBS=off (or not: they run imports too).
const worker = process.argv.includes('--worker');
if (worker) process.env.IMPORT_JOBS = 'on';
const demo = !worker && process.env.DEMO_DATA !== '0';

const s3 = s3OptionsFromEnv();
const { server } = await createApp({
  dataDir: resolve(process.env.DATA_DIR ?? join(repoRoot, 'data')),
  ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  logger: loggerFromEnv(),
  requestLogLevel: requestLogLevel(logFormatFromEnv()),
  demo,
  ...(s3 ? { s3 } : {}),
  staticRoots: {
    publicSite: join(repoRoot, 'apps', 'public-site', 'dist'),
    athletePortal: join(repoRoot, 'apps', 'athlete-portal', 'dist'),
    storybook: join(repoRoot, 'storybook-static'),
  },
});

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    server.log.info(`${signal}: finishing requests in flight, then stopping`);
    // A request that would outlast the deploy's patience (an upload waiting on a long import)
    // is cut at SHUTDOWN_TIMEOUT_S: the rider's retry with its Idempotency-Key finds the
    // import, which the queue hands to another process. Process managers kill at their own
    // limit (systemd 90 s, Kubernetes 30 s): keep this below theirs.
    const limitS = Number(process.env.SHUTDOWN_TIMEOUT_S ?? 25);
    setTimeout(
      () => {
        server.log.warn(`requests still running after ${limitS} s: stopping anyway`);
        process.exit(1);
      },
      (Number.isFinite(limitS) && limitS > 0 ? limitS : 25) * 1000,
    ).unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

if (worker) {
  console.log('XOSS import worker is running (imports queued in the database)');
} else {
  // The one line that matters once it is up: where to go and how to sign in. It names the
  // address really bound (PORT=0 picks a free port, as the end-to-end tests do).
  const signIn = demo ? `; sign in as ${DEMO_USER.email} / ${DEMO_USER.password}` : '';
  const readyLine = (address: string) => {
    const url = new URL(address);
    if (url.hostname === '127.0.0.1') url.hostname = 'localhost';
    return `XOSS is ready at ${url.href}${signIn}`;
  };
  await server.listen({ port, host, listenTextResolver: readyLine });
  // When the log leaves info lines out (LOG_LEVEL warn, error, fatal or silent), the line
  // still goes out: people and process managers wait for it.
  if (['warn', 'error', 'fatal', 'silent'].includes(process.env.LOG_LEVEL ?? ''))
    console.log(readyLine(server.listeningOrigin));
}
