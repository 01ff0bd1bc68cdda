import pg from 'pg';
import { fromPglite, type ConstructorOptions } from 'pg-boss';
import { migrations } from './migrations.ts';
import { PgliteThread } from './pgliteThread.ts';

/** Runs SQL with `$1`-style parameters; the same text runs on PGlite and on PostgreSQL. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** The one query layer of the API: plain SQL of the PostgreSQL dialect, with transactions. */
export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: everything it wrote appears together or not at all. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** How the job queue (pg-boss) reaches the same database. */
  queueConnection(): ConstructorOptions;
  /** How busy its connections are, for `/metrics` (optional: test doubles have none). */
  usage?(): DatabaseUsage;
}

/**
 * PostgreSQL: the pool's connections and the queries waiting for one. Embedded: its single
 * connection, idle when no statement is under way, and the statements queued behind it.
 */
interface DatabaseUsage {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
}

class PgliteDatabase implements Database {
  readonly kind = 'pglite';
  readonly #db: PgliteThread;
  constructor(db: PgliteThread) {
    this.#db = db;
  }
  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.#db.query<Row>(sql, params)).rows;
  }
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.#db.transaction((query) =>
      work({
        query: async <Row>(sql: string, params: readonly unknown[] = []) =>
          (await query<Row>(sql, params)).rows,
      }),
    );
  }
  close(): Promise<void> {
    return this.#db.close();
  }
  queueConnection(): ConstructorOptions {
    // The same single connection: pg-boss's statements queue behind ours. The thread answers
    // the part of PGlite's interface the adapter uses.
    return { db: fromPglite(this.#db), backend: 'pglite' };
  }
  dump(): Promise<Blob> {
    return this.#db.dump();
  }
  crashThread(): Promise<void> {
    return this.#db.crashThread();
  }
  usage(): DatabaseUsage {
    const pending = this.#db.pending;
    return { total: 1, idle: pending === 0 ? 1 : 0, waiting: Math.max(0, pending - 1) };
  }
}

class PostgresDatabase implements Database {
  readonly kind = 'postgres';
  readonly #pool: pg.Pool;
  readonly #url: string;
  constructor(pool: pg.Pool, url: string) {
    this.#pool = pool;
    this.#url = url;
  }
  queueConnection(): ConstructorOptions {
    // A small pool of its own (workers fetch, heartbeat and LISTEN for new jobs).
    return { connectionString: this.#url, max: 4 };
  }
  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.#pool.query(sql, params as unknown[])).rows as Row[];
  }
  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work({
        query: async <Row>(sql: string, params: readonly unknown[] = []) =>
          (await client.query(sql, params as unknown[])).rows as Row[],
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  close(): Promise<void> {
    return this.#pool.end();
  }
  usage(): DatabaseUsage {
    const pool = this.#pool;
    return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
  }
}

// bigint counts (count(*)) come back as numbers; they stay far below 2^53 here.
pg.types.setTypeParser(20, (value) => Number(value));

export interface OpenOptions {
  /** `postgres://...`: a real server. Otherwise the embedded database. */
  readonly databaseUrl?: string;
  /** Folder of the embedded database; in memory when absent. */
  readonly dataDir?: string;
  /** A dump (`dumpDataDir`) to start the embedded database from, for fast tests. */
  readonly loadDataDir?: Blob;
  /**
   * The schema to bring it to (tests of upgrades): the first `migrations` of the list only,
   * or another list (a migration that fails part way). All of `migrations.ts` by default.
   */
  readonly migrations?: number | readonly string[];
  /**
   * Told when the embedded database's thread crashed: started again on its folder
   * (`restarted`), or given up on (`pgliteThread.ts`).
   */
  readonly onThreadRestart?: (error: Error, restarted: boolean) => void;
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: OpenOptions = {}): Promise<Database> {
  let db: Database;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // A dropped idle connection must not crash the process.
    pool.on('error', () => undefined);
    db = new PostgresDatabase(pool, options.databaseUrl);
  } else {
    // On its own thread: a large statement must not stop the server (pgliteWorker.ts).
    db = new PgliteDatabase(
      await PgliteThread.start({
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
        ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
        ...(options.onThreadRestart ? { onRestart: options.onThreadRestart } : {}),
      }),
    );
  }
  const list =
    typeof options.migrations === 'number'
      ? migrations.slice(0, options.migrations)
      : (options.migrations ?? migrations);
  try {
    await migrate(db, list);
  } catch (error) {
    // A migration that failed was rolled back whole: close, so no connection lingers.
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}

/**
 * Brings an open database's schema to the first `count` migrations (all by default), as
 * `openDatabase` does: the upgrade tests migrate one embedded instance in place rather than
 * dump it and open the dump again.
 */
export function migrateDatabase(db: Database, count = migrations.length): Promise<void> {
  return migrate(db, migrations.slice(0, count));
}

/** Ends an embedded database's thread as a crash would (tests, the soak bench). */
export function crashEmbeddedThread(db: Database): Promise<void> {
  if (!(db instanceof PgliteDatabase)) throw new Error('Only the embedded database has a thread');
  return db.crashThread();
}

/** Dumps an embedded database (tests clone a migrated template from it). */
export function dumpEmbedded(db: Database): Promise<Blob> {
  if (!(db instanceof PgliteDatabase)) throw new Error('Only the embedded database can be dumped');
  return db.dump();
}

/**
 * Applies the migrations not applied yet, in order, each in its own transaction: a statement
 * that fails rolls its whole migration back (PostgreSQL's DDL is transactional), version row
 * included, so the schema stays at the last migration that succeeded.
 */
async function migrate(db: Database, list: readonly string[]): Promise<void> {
  await db.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const done = new Set(
    (await db.query<{ version: number }>('SELECT version FROM schema_migrations')).map(
      (row) => row.version,
    ),
  );
  for (const [index, sql] of list.entries()) {
    const version = index + 1;
    if (done.has(version)) continue;
    await db.transaction(async (tx) => {
      // Concurrent starters on one PostgreSQL: the second waits, then finds it applied.
      if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(4242)');
      const again = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version]);
      if (again.length > 0) return;
      for (const statement of sql.split(/;\s*\n/).filter((part) => part.trim() !== ''))
        await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
    });
  }
}
