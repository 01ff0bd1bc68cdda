import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '../src/commands/createUser.ts';
import { openDatabase, type Database } from '../src/platform/db/db.ts';
import { S3BlobStore } from '../src/platform/s3BlobStore.ts';
import { startPostgres } from './postgres.ts';
import { lineFrom } from './processes.ts';

// Several identical API processes and a worker process on one PostgreSQL (Debian's binaries)
// and one S3-compatible server (s3rver), behind a small round-robin proxy: 100 real FIT files
// of the corpus imported at once while one API process and then the worker are killed with
// SIGKILL. Afterwards every accepted import is there exactly once with its file, streams and
// curves, nothing is orphaned, and a rider's login limit held across the processes.

const apiDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = join(apiDir, '..', '..', 'packages', 'activity-files', 'test', 'corpus');
const PASSWORD = 'several processes 42';
const BUCKET = 'xoss-multi';

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

interface Proc {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number | undefined;
  output: string;
}

/** The corpus's FIT activities (and the two damaged ones, read up to the damage). */
function fitFiles(): { name: string; bytes: Uint8Array }[] {
  const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8')) as {
    file: string;
    kind: string;
  }[];
  return manifest
    .filter((entry) => entry.file.endsWith('.fit') && ['activity', 'damaged'].includes(entry.kind))
    .map((entry) => ({
      name: entry.file.split('/').pop()!,
      bytes: new Uint8Array(readFileSync(join(corpus, entry.file))),
    }));
}

/** A round-robin proxy over the live API processes (nginx's upstream, in a few lines). */
function roundRobin(upstreams: number[]): Server {
  let next = 0;
  return createServer((request, response) => {
    const port = upstreams[next++ % upstreams.length]!;
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (reply) => {
        response.writeHead(reply.statusCode!, reply.headers);
        reply.pipe(response);
        reply.on('error', () => response.destroy());
      },
    );
    upstream.on('error', () => {
      if (response.headersSent) response.destroy();
      else response.writeHead(502).end();
    });
    request.pipe(upstream);
  });
}

describe('several API processes and a worker on one PostgreSQL and one bucket', () => {
  let stopPostgres = () => {};
  let s3: S3rver;
  let s3Dir: string;
  let db: Database;
  let store: S3BlobStore;
  let proxy: Server;
  let base: string;
  const upstreams: number[] = [];
  const processes: Proc[] = [];
  let env: Record<string, string>;

  const start = async (name: string, worker: boolean): Promise<Proc> => {
    const port = worker ? undefined : await freePort();
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...env,
      ...(port ? { PORT: String(port) } : {}),
    };
    // No JWT_SECRET: the processes share the signing key kept in the database.
    delete childEnv.JWT_SECRET;
    const child = spawn(
      process.execPath,
      [
        '--conditions=@xoss/source',
        join(apiDir, 'src', 'main.ts'),
        ...(worker ? ['--worker'] : []),
      ],
      {
        cwd: apiDir,
        env: childEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const proc: Proc = { name, child, port, output: '' };
    child.stdout.on('data', (chunk: Buffer) => (proc.output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (proc.output += chunk.toString()));
    const ready = worker ? 'import worker is running' : 'XOSS is ready at';
    await lineFrom(child, () => proc.output, ready, 100);
    processes.push(proc);
    if (port) upstreams.push(port);
    return proc;
  };

  const kill = async (proc: Proc) => {
    const exited = new Promise((resolve) => proc.child.once('exit', resolve));
    proc.child.kill('SIGKILL');
    await exited;
    // The load balancer notices the dead upstream (its requests in flight were cut).
    const index = proc.port === undefined ? -1 : upstreams.indexOf(proc.port);
    if (index >= 0) upstreams.splice(index, 1);
  };

  const login = (email: string, password: string) =>
    fetch(`${base}/api/v1/jwt-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });

  beforeAll(async () => {
    const postgres = await startPostgres();
    stopPostgres = postgres.stop;
    s3Dir = mkdtempSync(join(tmpdir(), 'xoss-multi-s3-'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port: s3Port } = await s3.run();
    const s3Options = {
      endpoint: `http://127.0.0.1:${s3Port}`,
      region: 'us-east-1',
      bucket: BUCKET,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    };
    store = new S3BlobStore(s3Options);
    // Migrated once here; the processes find it done.
    db = await openDatabase({ databaseUrl: postgres.url });
    env = {
      DATABASE_URL: postgres.url,
      BLOB_STORE: 's3',
      S3_ENDPOINT: s3Options.endpoint,
      S3_REGION: s3Options.region,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'xoss-multi-data-')),
      HOST: '127.0.0.1',
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      IMPORT_WORKERS: '1',
      IMPORT_QUEUE_PER_USER: '200',
      JOBS_SUPERVISE_S: '1',
      IMPORT_STALE_UPLOAD_S: '5',
      LOGIN_FAILURES_PER_ACCOUNT: '5',
      PASSWORD_HASH_CONCURRENCY: '1',
    };
    await Promise.all([
      start('api-1', false),
      start('api-2', false),
      start('api-3', false),
      start('worker', true),
    ]);
    proxy = roundRobin(upstreams);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    for (const proc of processes) if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    proxy?.close();
    await db?.close();
    await s3?.close();
    stopPostgres();
    rmSync(s3Dir, { recursive: true, force: true });
  });

  it('holds a rider login limit across processes, with one signing key for all', async () => {
    await createUser(db, 'limits@example.com', 'limits', PASSWORD);
    // Round robin: the three processes take turns; the limit (5 failures) is theirs together.
    const wrong = [];
    for (let i = 0; i < 8; i++)
      wrong.push((await login('limits@example.com', 'wrong password!')).status);
    expect(wrong).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect((await login('limits@example.com', PASSWORD)).status).toBe(429);
  });

  it('imports 100 FIT files at once while an API process and the worker are killed: each accepted import exactly once, nothing orphaned', async () => {
    const files = fitFiles();
    expect(files.length).toBeGreaterThanOrEqual(34);
    const riders = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const email = `multi${n}@example.com`;
        const id = await createUser(db, email, `multi${n}`, PASSWORD);
        const reply = await login(email, PASSWORD);
        expect(reply.status).toBe(200);
        const { access } = ((await reply.json()) as { data: { access: string } }).data;
        return { id, access };
      }),
    );
    // 100 uploads: 34, 33 and 33 distinct files for the three riders.
    const uploads = Array.from({ length: 100 }, (_, i) => {
      const rider = i < 34 ? 0 : i < 67 ? 1 : 2;
      const offset = [0, 34, 67][rider]!;
      const file = files[(i - offset + rider * 11) % files.length]!;
      return { rider, file, key: `multi-${rider}-${i}` };
    });
    const accepted = new Map<string, number>(); // idempotency key -> workout id
    const refused: string[] = [];
    const log: string[] = [];
    const send = async (job: (typeof uploads)[number]) => {
      for (let attempt = 0; attempt < 60; attempt++) {
        let status: number | string;
        let body: { data?: { id: number }; code?: number; existing_id?: number } = {};
        try {
          const form = new FormData();
          form.set('file', new File([job.file.bytes], job.file.name));
          const reply = await fetch(`${base}/api/v2/workouts/`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${riders[job.rider]!.access}`,
              'idempotency-key': job.key,
            },
            body: form,
          });
          status = reply.status;
          const text = await reply.text();
          try {
            body = JSON.parse(text) as typeof body;
          } catch {
            // The process died between its status line and the end of its body: the rider
            // has no answer and sends the file again with the same key.
            status = `${status} with a cut body (${text.length} bytes)`;
          }
        } catch {
          status = 'connection lost';
        }
        if ((status === 201 || status === 200) && body.data?.id !== undefined) {
          accepted.set(job.key, body.data.id);
          return;
        }
        if (status === 415) {
          refused.push(job.file.name);
          return;
        }
        log.push(`${job.key}: ${status} ${body.code ?? ''}`);
        // 502 (the process died), 503 (busy, shutting down), a cut connection: send it again.
        await sleep(250 + attempt * 50);
      }
      throw new Error(`${job.key} never went through: ${log.slice(-5).join(', ')}`);
    };
    const all = Promise.all(uploads.map(send));
    // Kill one API process once a quarter of the imports landed, then the worker.
    // Waited for, however long a loaded machine takes (the wait guard ends a hang).
    const landed = (count: number) =>
      vi.waitFor(() => expect(accepted.size).toBeGreaterThanOrEqual(count), { interval: 50 });
    await landed(25);
    await kill(processes.find((proc) => proc.name === 'api-1')!);
    await landed(50);
    await kill(processes.find((proc) => proc.name === 'worker')!);
    await all;

    expect(accepted.size + refused.length).toBe(100);
    expect(accepted.size).toBeGreaterThanOrEqual(90);
    // Each accepted upload is one workout of its rider, with its file, streams and curves.
    const workouts = await db.query<{
      id: number;
      user_id: number;
      file_key: string;
      file_bytes: number;
      file_sha256: string;
      idempotency_key: string;
      streams: number;
      curves: number;
    }>(
      `SELECT w.id, w.user_id, w.file_key, w.file_bytes, w.file_sha256, w.idempotency_key,
              (SELECT count(*) FROM workout_streams s WHERE s.workout_id = w.id)::int AS streams,
              (SELECT count(*) FROM workout_curves c WHERE c.workout_id = w.id)::int AS curves
         FROM workouts w WHERE w.user_id = ANY($1::int[])`,
      [riders.map((rider) => rider.id)],
    );
    // A multisport file's other legs are activities of their own (known by the file's
    // SHA-256 and their leg), beside the one each upload answered with.
    const answered = workouts.filter((row) => !/:leg\d+$/.test(row.file_sha256));
    const legs = workouts.filter((row) => /:leg\d+$/.test(row.file_sha256));
    expect(answered).toHaveLength(accepted.size);
    for (const leg of legs)
      expect(answered.map((row) => row.file_sha256)).toContain(leg.file_sha256.split(':')[0]);
    const byKey = new Map(answered.map((row) => [row.idempotency_key, row]));
    for (const job of uploads) {
      const id = accepted.get(job.key);
      if (id === undefined) continue;
      const row = byKey.get(job.key)!;
      expect(row.id).toBe(id);
      expect(row.user_id).toBe(riders[job.rider]!.id);
      expect(row.file_sha256).toBe(createHash('sha256').update(job.file.bytes).digest('hex'));
      expect(row.streams).toBe(1);
      expect(row.curves).toBe(1);
      expect(new Uint8Array(await store.get(row.file_key))).toEqual(job.file.bytes);
    }

    // Nothing orphaned: once the queue has settled (leftovers of the killed processes are
    // cleaned by the live ones), every file in the bucket belongs to a workout.
    const owned = new Set(workouts.map((row) => row.file_key));
    await vi.waitFor(
      async () => {
        const [open] = await db.query<{ count: number }>(
          "SELECT count(*)::int AS count FROM imports WHERE status IN ('uploading', 'queued')",
        );
        // A multisport file's later legs may still be landing: their rows own their files.
        const landed = await db.query<{ file_key: string }>(
          'SELECT file_key FROM workouts WHERE user_id = ANY($1::int[])',
          [riders.map((rider) => rider.id)],
        );
        for (const row of landed) owned.add(row.file_key);
        expect(open!.count).toBe(0);
        expect((await store.list('workouts')).filter((key) => !owned.has(key))).toEqual([]);
      },
      { interval: 500 },
    );
    expect(
      await db.query("SELECT id FROM imports WHERE status IN ('uploading', 'queued')"),
    ).toEqual([]);
    // Every import that ended without a workout has had its file deleted.
    expect(
      await db.query(
        "SELECT id FROM imports WHERE status IN ('failed', 'given_up') AND NOT file_gone",
      ),
    ).toEqual([]);
    // The riders' lists, through any process, show each ride once.
    for (const [index, rider] of riders.entries()) {
      const reply = await fetch(`${base}/api/v2/workouts/?page_size=100`, {
        headers: { authorization: `Bearer ${rider.access}` },
      });
      const list = ((await reply.json()) as { data: { count: number } }).data;
      // Each accepted upload once, and a multisport file's other legs once each.
      const [legs] = await db.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM workouts WHERE user_id = $1 AND file_sha256 LIKE '%:leg%'",
        [rider.id],
      );
      expect(list.count).toBe(
        uploads.filter((job) => job.rider === index && accepted.has(job.key)).length + legs!.count,
      );
    }
  });
});
