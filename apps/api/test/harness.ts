import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, rename, writeFile as writeFileNow, type writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { simulateRide } from '@xoss/workout-stats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { LocalBlobStore, type BlobStore } from '../src/platform/blobStore.ts';
import { PASSWORD_HASH_FLOOR } from '../src/auth/passwords.ts';
import { configFromEnv, type ApiConfig } from '../src/platform/config.ts';
import { createUser } from '../src/commands/createUser.ts';
import { dumpEmbedded, openDatabase, type Database } from '../src/platform/db/db.ts';
import { migrations } from '../src/platform/db/migrations.ts';
import { buildServer } from '../src/server.ts';
import { multipartBody } from '../src/testing/multipart.ts';
import { AnalysisPool } from '../src/imports/pool.ts';

/** Makes empty, migrated databases of one kind. */
export interface DatabaseFactory {
  readonly kind: 'pglite' | 'postgres';
  create(): Promise<Database>;
  close(): Promise<void>;
}

/**
 * The migrated, empty embedded database as a dump, made once for the whole test run: the
 * first file to need it builds it (initdb and every migration, about 10 s of CPU) and leaves
 * it in the temporary folder under a name of the schema and PGlite's version; the others read it.
 */
async function templateDump(): Promise<Blob> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pglite = JSON.parse(await readFile(join(entry, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const key = createHash('sha256')
    .update(JSON.stringify([pglite.version, migrations]))
    .digest('hex')
    .slice(0, 16);
  const file = join(tmpdir(), `xoss-pglite-template-${key}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    const template = await openDatabase();
    const dump = await dumpEmbedded(template);
    await template.close();
    // Whole or not at all: another worker may read it the moment it appears.
    const partial = `${file}.${process.pid}.${Date.now()}`;
    await writeFileNow(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  }
}

/**
 * The schema as a digest: columns, indexes, constraints, triggers and functions of the API's
 * tables, and the session's search path. A test that dropped a table (a fault it injects) or
 * changed a setting leaves another digest, and its database is not used again.
 */
async function schemaDigest(db: Database): Promise<string> {
  const [row] = await db.query<{ digest: string }>(
    `SELECT md5(current_setting('search_path') || coalesce((SELECT string_agg(part, E'\\n' ORDER BY part) FROM (
       SELECT 'c ' || table_name || '.' || column_name || ' ' || data_type || ' ' || coalesce(column_default, '') || is_nullable AS part
         FROM information_schema.columns WHERE table_schema = 'public'
       UNION ALL SELECT 'i ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
       UNION ALL SELECT 'k ' || conrelid::regclass || ' ' || pg_get_constraintdef(oid)
         FROM pg_constraint WHERE connamespace = 'public'::regnamespace
       UNION ALL SELECT 't ' || tgname FROM pg_trigger WHERE NOT tgisinternal
       UNION ALL SELECT 'f ' || proname || ' ' || md5(prosrc) FROM pg_proc
         WHERE pronamespace = 'public'::regnamespace) parts), '')) AS digest`,
  );
  return row!.digest;
}

/** Every table of the API's schema and the job queue's jobs, emptied as a new database has them. */
async function emptied(db: Database): Promise<void> {
  const tables = await db.query<{ name: string }>(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables
      WHERE (schemaname = 'public' AND tablename <> 'schema_migrations')
         OR (schemaname = 'pgboss' AND tablename NOT IN ('version', 'queue'))`,
  );
  if (tables.length > 0)
    await db.query(
      `TRUNCATE ${tables.map((table) => table.name).join(', ')} RESTART IDENTITY CASCADE`,
    );
}

/**
 * Embedded databases from the run's template. A harness's database goes back to the file's
 * pool when the harness closes, emptied (a fresh instance costs about 3 s of CPU: the dump
 * unpacked and PostgreSQL started); one that cannot be emptied is closed instead.
 */
export async function pgliteFactory(): Promise<DatabaseFactory> {
  const dump = await templateDump();
  const idle: Database[] = [];
  let template: string | undefined;
  // The database itself (`instanceof` holds, its methods run on it), but `close` hands it back.
  const reusable = (db: Database): Database => {
    const close = async () => {
      try {
        await db.query('RESET ALL');
        if ((await schemaDigest(db)) !== template) throw new Error('schema changed');
        await emptied(db);
        idle.push(db);
      } catch {
        await db.close().catch(() => undefined);
      }
    };
    return new Proxy(db, {
      get(target, key) {
        if (key === 'close') return close;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
  };
  return {
    kind: 'pglite',
    create: async () => {
      const db = idle.pop() ?? (await openDatabase({ loadDataDir: dump }));
      template ??= await schemaDigest(db);
      return reusable(db);
    },
    close: async () => {
      await Promise.all(idle.splice(0).map((db) => db.close()));
    },
  };
}

export function postgresFactory(url: string): DatabaseFactory {
  let next = 0;
  return {
    kind: 'postgres',
    async create() {
      const name = `test_${process.pid}_${next++}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      return openDatabase({ databaseUrl: url.replace(/\/[^/]*$/, `/${name}`) });
    },
    close: () => Promise.resolve(),
  };
}

export const PASSWORD = 'correct horse battery staple';

export interface Harness {
  readonly server: FastifyInstance;
  readonly db: Database;
  readonly blobs: BlobStore;
  readonly config: ApiConfig;
  /** Fake time in ms; tests move it. */
  clock: number;
  readonly logs: string[];
  user(email?: string): Promise<{ id: number; email: string; access: string; refresh: string }>;
  /**
   * Another API process on the same database, files, settings and clock (with its own
   * analysis threads), as a second replica behind the load balancer; the caller closes it.
   */
  anotherProcess(): Promise<FastifyInstance>;
  close(): Promise<void>;
}

let sharedPool: AnalysisPool | undefined;
/** One worker pool for all harnesses of a test file. */
function pool(): AnalysisPool {
  sharedPool ??= new AnalysisPool(2);
  return sharedPool;
}
export async function closePool(): Promise<void> {
  await sharedPool?.close();
  sharedPool = undefined;
}

export async function harness(
  factory: DatabaseFactory,
  overrides: Partial<ApiConfig> = {},
  faults: {
    write?: typeof writeFile;
    blobs?: BlobStore;
    pool?: AnalysisPool;
    /** The data folder whose free space `/api/ready` checks (none by default). */
    dataDir?: string;
  } = {},
): Promise<Harness> {
  const db = await factory.create();
  const dir = mkdtempSync(join(tmpdir(), 'xoss-api-test-'));
  const blobs =
    faults.blobs ??
    new LocalBlobStore(join(dir, 'files'), faults.write ? { write: faults.write } : {});
  const config: ApiConfig = {
    ...configFromEnv({}),
    jwtSecret: 'test-secret-0123456789abcdef',
    // Tests sign riders in far faster than people do; the cap is tested on its own.
    passwordHashesPerSecond: 1000,
    // argon2 at OWASP's floor, not the default's 5x (README: where CI's time goes).
    passwordHashCost: PASSWORD_HASH_FLOOR,
    ...overrides,
  };
  const logs: string[] = [];
  // A plain destination, not a Writable: each line is in `logs` when the log call returns.
  // A Writable buffers a line written while it is still handling the one before and hands
  // it over a tick later, so a test that read the log right after what it waited for could
  // miss the line (an archive's failure, on a loaded machine).
  const stream = { write: (line: string) => void logs.push(line) };
  const state = { clock: Date.UTC(2026, 10, 1) };
  const server = await buildServer({
    db,
    blobs,
    config,
    pool: faults.pool ?? pool(),
    ...(faults.dataDir ? { dataDir: faults.dataDir } : {}),
    logger: { level: 'info', stream },
    now: () => state.clock,
  });
  let users = 0;
  const h: Harness = {
    server,
    db,
    blobs,
    config,
    logs,
    get clock() {
      return state.clock;
    },
    set clock(value: number) {
      state.clock = value;
    },
    async user(email = `rider${++users}@example.com`) {
      const id = await createUser(db, email, email.split('@')[0]!, PASSWORD);
      const reply = await server.inject({
        method: 'POST',
        url: '/api/v1/jwt-token/',
        payload: { email, password: PASSWORD },
      });
      const data = reply.json<{ data: { access: string; refresh: string } }>().data;
      return { id, email, ...data };
    },
    anotherProcess: () => buildServer({ db, blobs, config, now: () => state.clock }),
    async close() {
      await server.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}

/** A real FIT file of a simulated ride; `fileFtp` is the FTP its device was set to. */
export function fitFile(
  seconds = 900,
  seed = 1,
  startTime = 1_790_000_000,
  indoor = false,
  fileFtp?: number,
): Uint8Array {
  const ride = simulateRide({ seconds, seed, indoor });
  return encodeFit(
    activityFromStreams(ride, {
      startTime,
      sport: 2,
      ...(fileFtp ? { settings: { ftpWatts: fileFtp } } : {}),
    }),
  );
}

export function upload(
  h: Harness,
  url: string,
  access: string,
  file: { filename: string; bytes: Uint8Array } | undefined,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const { body, contentType } = multipartBody(fields, file ? { name: 'file', ...file } : undefined);
  return h.server.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${access}`, 'content-type': contentType, ...headers },
    payload: body,
  });
}

export const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

/**
 * A suite's harnesses on one database factory: `make()` starts a server (closed after each
 * test); the factory opens before the suite and closes after it. Call inside `describe`.
 */
export function suiteHarnesses(makeFactory: () => Promise<DatabaseFactory>) {
  let factory: DatabaseFactory | undefined;
  const open: Harness[] = [];
  beforeAll(async () => {
    factory = await makeFactory();
  });
  // Closing waits for what the test left running (an archive's walk, an import) to stop: on
  // a loaded machine that outlasts the default 10 s, which is no budget of the product's.
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
  });
  // Stopping the pool and a PostgreSQL server under load (this 2-core machine shared) has
  // taken more than the default 10 s.
  afterAll(async () => {
    await closePool();
    await factory?.close();
  });
  return async (
    overrides?: Parameters<typeof harness>[1],
    faults?: Parameters<typeof harness>[2],
  ): Promise<Harness> => {
    const h = await harness(factory!, overrides, faults);
    open.push(h);
    return h;
  };
}
