import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { LocalBlobStore } from '../src/platform/blobStore.ts';
import { configFromEnv } from '../src/platform/config.ts';
import { createUser } from '../src/commands/createUser.ts';
import { openDatabase } from '../src/platform/db/db.ts';
import { DEMO_USER, seedDemo } from '../src/commands/seed.ts';
import { buildServer } from '../src/server.ts';
import { AnalysisPool } from '../src/imports/pool.ts';
import { fitFile } from './harness.ts';
import { lineFrom } from './processes.ts';

// The demo seed of a process that only queues imports (IMPORT_JOBS=off), on a fresh
// database with no worker yet; and a stop by SIGTERM that says nothing went wrong when
// nothing did (the queue stops before the database closes).

const apiDir = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('the demo seed with IMPORT_JOBS=off', () => {
  it('imports its rides in this process when no worker runs, and ends with the whole demo', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xoss-seed-off-'));
    const db = await openDatabase();
    const pool = new AnalysisPool(1);
    const blobs = new LocalBlobStore(join(dir, 'files'));
    const config = configFromEnv({ IMPORT_JOBS: 'off' });
    expect(config.runImports).toBe(false);
    const server = await buildServer({ db, blobs, config, pool });
    try {
      await seedDemo(server, db, blobs, { workouts: 2 });
      const [rider] = await db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [
        DEMO_USER.email,
      ]);
      expect(rider).toBeDefined();
      const [rides] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM workouts WHERE user_id = $1',
        [rider!.id],
      );
      expect(rides!.n).toBe(2);
      // Seeded, the process goes back to only queueing: an upload now waits for a worker.
      const [running] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM imports WHERE status IN ('uploading', 'queued')",
      );
      expect(running!.n).toBe(0);
    } finally {
      await server.close();
      await db.close();
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a restart with imports waiting', () => {
  it('runs them once the services they need exist (no ReferenceError at start)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xoss-restart-queued-'));
    const db = await openDatabase();
    const pool = new AnalysisPool(1);
    const blobs = new LocalBlobStore(join(dir, 'files'));
    const logs: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString());
        done();
      },
    });
    try {
      // A process that only queues: two rides wait when it stops.
      const queueing = await buildServer({
        db,
        blobs,
        config: configFromEnv({ IMPORT_JOBS: 'off' }),
        pool,
      });
      const userId = await createUser(db, 'queued@example.com', 'Queued', 'queued rider secret');
      for (const at of [1_775_000_000, 1_775_100_000])
        await queueing.importJobs.enqueue(userId, fitFile(600, 70, at), { name: `Ride ${at}` });
      await queueing.close();
      // The next start finds them waiting and runs them at once.
      const restarted = await buildServer({
        db,
        blobs,
        config: configFromEnv({}),
        pool,
        logger: { level: 'info', stream },
      });
      try {
        await vi.waitFor(
          async () => {
            const [rides] = await db.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM workouts WHERE user_id = $1',
              [userId],
            );
            expect(rides!.n).toBe(2);
          },
          { interval: 200 },
        );
      } finally {
        await restarted.close();
      }
      expect(logs.join('')).not.toMatch(/before initialization|ReferenceError/);
    } finally {
      await db.close();
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

function run(script: string, env: Record<string, string>, args: string[] = []): ChildProcess {
  return spawn(
    process.execPath,
    ['--conditions=@xoss/source', join(apiDir, 'src', script), ...args],
    { cwd: apiDir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

describe('stopping the server', () => {
  it('logs no error on SIGTERM, with imports under way', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xoss-stop-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const password = 'stop test password 42';
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: '0',
      // Debug: the queue says when a job starts.
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      JWT_SECRET: 'shutdown-secret-0123456789abcdef',
      // The sweep of dead jobs runs every second: it is running when the database closes.
      JOBS_SUPERVISE_S: '1',
      XOSS_PASSWORD: password,
    };
    const created = run('commands/createUser.ts', env, ['stop@example.com', 'Stop']);
    expect(await new Promise((resolve) => created.once('exit', resolve))).toBe(0);
    const server = run('main.ts', env);
    let output = '';
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    try {
      await lineFrom(server, () => output, 'XOSS is ready at', 100);
      const login = await fetch(`${base}/api/v1/jwt-token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'stop@example.com', password }),
      });
      const { access } = ((await login.json()) as { data: { access: string } }).data;
      const send = (seed: number) => {
        const form = new FormData();
        form.set('file', new File([fitFile(3600, seed)], 'ride.fit'));
        return fetch(`${base}/api/v2/workouts/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${access}` },
          body: form,
        });
      };
      expect((await send(41)).status).toBe(201);
      // A ten-hour ride whose rider gave up waiting: its job runs on in the queue, with no
      // request the stop would wait for. The stop must end the queue before the database
      // closes, or the job's next statement meets a closed database (an error in the log).
      const abandoned = new AbortController();
      const long = new FormData();
      long.set('file', new File([fitFile(36_000, 44)], 'long.fit'));
      const givenUp = fetch(`${base}/api/v2/workouts/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access}` },
        body: long,
        signal: abandoned.signal,
      }).catch(() => undefined);
      await lineFrom(server, () => output, 'import job started', 20);
      abandoned.abort();
      await givenUp;
      // Stopped while two more imports are on their way and the long one runs.
      const inFlight = [send(42), send(43)].map((reply) => reply.catch(() => undefined));
      await sleep(50);
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
      await Promise.all(inFlight);
      const errors = output
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line) || /\bERROR\b/.test(line));
      expect(errors).toEqual([]);
      expect(output).toContain('SIGTERM: finishing requests in flight');
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
