import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { crashEmbeddedThread, openDatabase } from './db.ts';
import { DatabaseThreadRestarted, PgliteThread } from './pgliteThread.ts';

/**
 * What V8 says of its WebAssembly code GC (`--trace-wasm-code-gc`) in a process of its own
 * that opens, uses and closes the embedded database twice, with `flags`.
 */
async function codeGcTrace(flags: string[]): Promise<{ output: string; crashed: boolean }> {
  const db = pathToFileURL(fileURLToPath(new URL('./db.ts', import.meta.url))).href;
  const dir = mkdtempSync(join(tmpdir(), 'xoss-wasm-gc-'));
  const script = join(dir, 'churn.mjs');
  writeFileSync(
    script,
    `const { openDatabase } = await import(${JSON.stringify(db)});
for (let i = 0; i < 2; i++) { const db = await openDatabase({ migrations: 1 }); await db.query('SELECT 1'); await db.close(); }`,
  );
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--trace-wasm-code-gc', ...flags, script],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    return { output: stdout + stderr, crashed: false };
  } catch (error) {
    // V8's fatal check ends the process (SIGTRAP or exit 133): what the fault looks like.
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { output: stdout + stderr, crashed: true };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the embedded database on its own thread', () => {
  it('runs a large statement while the event loop keeps turning, and returns the same bytes', async () => {
    const db = await openDatabase();
    try {
      await db.query('CREATE TABLE blobs (id int PRIMARY KEY, data bytea NOT NULL)');
      const bytes = randomBytes(24 * 1024 * 1024);
      let turns = 0;
      let running = true;
      const turn = () => {
        turns++;
        if (running) setImmediate(turn);
      };
      setImmediate(turn);
      await db.query('INSERT INTO blobs (id, data) VALUES (1, $1)', [bytes]);
      running = false;
      // On the server's thread the statement ran in one piece: a turn or two at most.
      expect(turns).toBeGreaterThan(10);
      const [row] = await db.query<{ data: Uint8Array }>('SELECT data FROM blobs WHERE id = 1');
      expect(Buffer.compare(Buffer.from(row!.data), bytes)).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('keeps transactions whole, with PostgreSQL error fields', async () => {
    const db = await openDatabase();
    try {
      await db.query('CREATE TABLE t (id int PRIMARY KEY)');
      const failed = await db
        .transaction(async (tx) => {
          await tx.query('INSERT INTO t (id) VALUES (1)');
          await tx.query('INSERT INTO t (id) VALUES (1)');
        })
        .catch((error: unknown) => error as { code?: string; constraint?: string });
      expect(failed).toMatchObject({ code: '23505', constraint: 't_pkey' });
      // Rolled back: neither row is there, and the next statements run.
      expect(await db.query('SELECT id FROM t')).toEqual([]);
      // Statements outside a transaction wait for it rather than join it.
      let outside: Promise<unknown> | undefined;
      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (2)');
        outside = db.query('SELECT count(*)::int AS n FROM t');
        await tx.query('INSERT INTO t (id) VALUES (3)');
      });
      expect(await outside).toEqual([{ n: 2 }]);
    } finally {
      await db.close();
    }
    // Closed: a statement fails plainly instead of hanging.
    await expect(db.query('SELECT 1')).rejects.toThrow(/closed/);
  });

  it('keeps V8 from collecting WebAssembly code in any process that embeds it (the Node 24 fault)', async () => {
    // The two processes side by side.
    const [byDefault, ours] = await Promise.all([codeGcTrace(['--wasm-code-gc']), codeGcTrace([])]);
    // By default V8 collects the code of closed databases: what the fault races with. Now and
    // then the fault itself ends that process (a CI run saw `Check failed: jit_page.has_value()`
    // there): a V8 fatal check in its own words is the same evidence, and nothing else is.
    if (byDefault.crashed) expect(byDefault.output).toMatch(/Fatal error[\s\S]*Check failed/);
    else expect(byDefault.output).toContain('[wasm-gc] Starting GC');
    // Our setting (pgliteThread.ts): never, so no wrapper is ever freed while in use, and the
    // process ends cleanly.
    expect(ours.crashed).toBe(false);
    expect(ours.output).not.toContain('[wasm-gc]');
  });

  it('starts a crashed thread again on its folder: the data kept, the call under way refused to retry, LISTEN back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xoss-db-crash-'));
    const told: [string, boolean][] = [];
    let threadGone!: () => void;
    const gone = new Promise<void>((resolve) => (threadGone = resolve));
    const thread = await PgliteThread.start({
      dataDir: dir,
      // Told the moment the thread is known dead, before its successor has started: the held
      // transaction goes on right then, in the window where its next statement could reach
      // the new thread.
      onRestart: (error, restarted) => {
        told.push([error.message, restarted]);
        threadGone();
      },
    });
    try {
      await thread.query('CREATE TABLE kept (id int PRIMARY KEY)');
      await thread.query('INSERT INTO kept VALUES (1)');
      const heard: string[] = [];
      await thread.listen('news', (payload) => heard.push(payload));
      // Forced: a transaction is open on the thread when it dies.
      let crashed!: () => void;
      const crash = new Promise<void>((resolve) => (crashed = resolve));
      const cut = thread.transaction(async (query) => {
        await query('INSERT INTO kept VALUES (2)');
        crashed();
        // The transaction's next statement comes only once its thread has died.
        await gone;
        await query('INSERT INTO kept VALUES (3)');
      });
      await crash;
      await thread.crashThread();
      await expect(cut).rejects.toBeInstanceOf(DatabaseThreadRestarted);
      // The next call waits for the new thread and sees what was committed, and only that.
      expect((await thread.query('SELECT id FROM kept ORDER BY id')).rows).toEqual([{ id: 1 }]);
      await thread.query("SELECT pg_notify('news', 'after the crash')");
      await vi.waitFor(() => expect(heard).toEqual(['after the crash']));
      expect(told).toEqual([['The database thread stopped (1)', true]]);
    } finally {
      await thread.close();
      rmSync(dir, { recursive: true, force: true });
    }
    // Closed on purpose: not a crash, nothing told.
    expect(told).toHaveLength(1);
  });

  it('starts again a successor that dies while listening again: calls go on, not held for ever', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xoss-db-relisten-'));
    const told: string[] = [];
    const thread = await PgliteThread.start({
      dataDir: dir,
      onRestart: (error) => told.push(error.message),
    });
    // Forced: the first successor ends the moment it is asked to listen again (the old code
    // left that request pending, so the restart, and every call after it, waited for ever).
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its worker below
    const post = Worker.prototype.postMessage;
    let cutOnce = false;
    const posts = vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (
      this: Worker,
      ...args: Parameters<typeof post>
    ) {
      const message = args[0] as { op?: string };
      if (told.length === 1 && message.op === 'listen' && !cutOnce) {
        cutOnce = true;
        void this.terminate();
        return;
      }
      post.apply(this, args);
    });
    try {
      await thread.query('CREATE TABLE kept (id int PRIMARY KEY)');
      await thread.query('INSERT INTO kept VALUES (1)');
      const heard: string[] = [];
      await thread.listen('news', (payload) => heard.push(payload));
      await thread.crashThread();
      // Started twice: after the crash, and after the successor died listening (the old code
      // never noticed the second death: this wait fails by its guard, naming it).
      await vi.waitFor(() =>
        expect(told).toEqual([
          'The database thread stopped (1)',
          'The database thread stopped (1)',
        ]),
      );
      expect(cutOnce).toBe(true);
      expect((await thread.query('SELECT id FROM kept')).rows).toEqual([{ id: 1 }]);
      await thread.query("SELECT pg_notify('news', 'heard by the third thread')");
      await vi.waitFor(() => expect(heard).toEqual(['heard by the third thread']));
    } finally {
      posts.mockRestore();
      await thread.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives up on a thread in memory: there is no folder to open again', async () => {
    const told: boolean[] = [];
    const db = await openDatabase({
      migrations: 1,
      onThreadRestart: (_, restarted) => told.push(restarted),
    });
    await crashEmbeddedThread(db);
    await expect(db.query('SELECT 1')).rejects.toThrow('The database thread stopped (1)');
    expect(told).toEqual([false]);
    await db.close();
  });
});
