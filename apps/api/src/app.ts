import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DeletionHold, serveBackups } from './platform/backup.ts';
import { LocalBlobStore, type BlobStore } from './platform/blobStore.ts';
import { S3BlobStore, type S3Options } from './platform/s3BlobStore.ts';
import { configFromEnv, type ApiConfig } from './platform/config.ts';
import { dumpEmbedded, openDatabase, type Database } from './platform/db/db.ts';
import { seedDemo } from './commands/seed.ts';
import { sharedSecrets } from './auth/keyStore.ts';
import { buildServer, type StaticRoots } from './server.ts';
import { sweepArchiveFolders, sweepOrphanFiles } from './platform/sweep.ts';
import { backfillBests } from './training/days.ts';

export interface AppOptions {
  /** Folder for the embedded database and the local blob store. */
  readonly dataDir: string;
  readonly databaseUrl?: string;
  readonly config?: ApiConfig;
  readonly logger?: boolean | object;
  /** The level each request is logged at (default info). */
  readonly requestLogLevel?: 'debug' | 'info';
  readonly staticRoots?: StaticRoots;
  /** S3-compatible storage for files; the local folder under `dataDir` when absent. */
  readonly s3?: S3Options;
  /** Seed the demo data into an empty database. */
  readonly demo?: boolean;
}

/**
 * The token secret of a run without `JWT_SECRET`: generated once and kept in the data folder
 * (owner-only, 0600), so a restart does not sign everyone out. Production sets JWT_SECRET.
 */
async function keptSecret(dataDir: string): Promise<{ secret: string; file: string }> {
  const file = join(dataDir, 'jwt-secret');
  await mkdir(dataDir, { recursive: true });
  try {
    // `wx`: never overwrite a key another start has just written.
    await writeFile(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = (await readFile(file, 'utf8')).trim();
  if (secret.length < 32) throw new Error(`${file} holds no usable key: delete it to make one`);
  return { secret, file };
}

/** The whole API: database (embedded or `databaseUrl`), blob store, demo data, server. */
export async function createApp(
  options: AppOptions,
): Promise<{ server: FastifyInstance; db: Database }> {
  if (!options.databaseUrl) await mkdir(join(options.dataDir, 'db'), { recursive: true });
  const local = options.s3 ? undefined : new LocalBlobStore(join(options.dataDir, 'files'));
  // The embedded setup is backed up through its running server (platform/backup.ts): a snapshot of the
  // database, then the files copied while deletes wait. Listening first also keeps a second
  // server off a data folder in use (two processes on one embedded database corrupt it).
  const held = options.databaseUrl || !local ? undefined : new DeletionHold(local);
  const blobs: BlobStore = held ?? local ?? new S3BlobStore(options.s3!);
  // Filled in below: the socket listens before the database opens.
  const late: { db?: Database; log?: FastifyInstance['log'] } = {};
  const backups = options.databaseUrl
    ? undefined
    : await serveBackups({
        dataDir: options.dataDir,
        dump: () =>
          late.db
            ? dumpEmbedded(late.db)
            : Promise.reject(new Error('The database is not open yet')),
        hold: () => (held ? held.hold() : () => Promise.resolve()),
        log: {
          error: (object, message) => late.log?.error(object, message),
          warn: (object, message) =>
            late.log ? late.log.warn(object, message) : console.warn(message),
        },
      });
  const db = await openDatabase(
    options.databaseUrl
      ? { databaseUrl: options.databaseUrl }
      : {
          dataDir: join(options.dataDir, 'db'),
          // A crashed database thread is started again on its folder; the log says so.
          onThreadRestart: (error, restarted) => {
            const message = restarted
              ? 'the database thread stopped: started again on its folder'
              : 'the database thread stopped';
            if (late.log) late.log.error({ err: error }, message);
            else console.error(message, error);
          },
        },
  ).catch(async (error: unknown) => {
    await backups?.close();
    throw error;
  });
  late.db = db;
  // What a crash left: temporary files, and files whose rows never committed. Alone on the
  // embedded database nothing else writes; beside other replicas, recent files are spared.
  // (An S3 PUT leaves no temporary object: it lands whole or not at all.)
  const graceMs = options.databaseUrl ? 3_600_000 : 0;
  await local?.sweepTemporary({ graceMs });
  await sweepOrphanFiles(db, blobs, { graceMs });
  await sweepArchiveFolders(join(options.dataDir, 'tmp', 'archives'), { graceMs });
  let config = options.config ?? configFromEnv();
  // Without SMTP_URL, mail is written to the data folder's outbox (apps/api/README.md).
  if (!config.mailOutboxDir) config = { ...config, mailOutboxDir: join(options.dataDir, 'outbox') };
  const ownKeys = !options.config && !process.env.JWT_SECRET;
  // Several processes on one PostgreSQL share keys kept in the database; alone, the key is
  // kept in the data folder.
  const shared = ownKeys && options.databaseUrl ? await sharedSecrets(db) : undefined;
  if (shared) config = { ...config, jwtSecret: shared.secret, jwtPreviousSecrets: shared.previous };
  const kept = ownKeys && !shared ? await keptSecret(options.dataDir) : undefined;
  if (kept) config = { ...config, jwtSecret: kept.secret };
  const server = await buildServer({
    db,
    blobs,
    config,
    dataDir: options.dataDir,
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
    ...(options.requestLogLevel ? { requestLogLevel: options.requestLogLevel } : {}),
    ...(options.staticRoots ? { staticRoots: options.staticRoots } : {}),
    ...(shared ? { keySource: () => sharedSecrets(db) } : {}),
  });
  late.log = server.log;
  // Closing: the best-efforts backfill (below) and the import queue stop, then the database
  // closes. One hook, in this order: Fastify runs onClose hooks last-registered first, so a
  // separate hook here would close the database before the server's own hooks stop the queue.
  const stopped = new AbortController();
  server.addHook('onClose', async () => {
    stopped.abort();
    await server.mailer.stop();
    await server.importJobs.stop();
    // Mail jobs read the database (a reset link is stored before it is sent).
    await server.mailer.idle();
    await backups?.close();
    await db.close();
  });
  if (shared)
    server.log.info('JWT_SECRET is not set: tokens are signed with the keys kept in the database');
  if (kept)
    server.log.warn(
      `JWT_SECRET is not set: tokens are signed with the key kept in ${kept.file} (made on the first start, readable by this user only), so sessions survive restarts; set JWT_SECRET in production`,
    );
  await server.ready();
  if (options.demo) await seedDemo(server, db, blobs);
  // Rides stored before best efforts were kept get theirs in the background.
  void backfillBests({ db, blobs }, { signal: stopped.signal })
    .then((count) => {
      if (count > 0) server.log.info(`best efforts computed for ${count} earlier rides`);
    })
    .catch((error: unknown) => {
      // Closing mid-batch: the rest is done on the next start.
      if (!stopped.signal.aborted) server.log.error({ err: error }, 'best efforts backfill failed');
    });
  // Rides an older analysis made (before the cleaning, the human limits, the legs) are
  // analysed again from their files, in the background, in their riders' turns.
  void server
    .reanalyseOlder(stopped.signal)
    .then((count) => {
      if (count > 0) server.log.info(`${count} earlier rides analysed again`);
    })
    .catch((error: unknown) => {
      if (!stopped.signal.aborted) server.log.error({ err: error }, 'analysing again failed');
    });
  return { server, db };
}
