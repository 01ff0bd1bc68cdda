import { mkdtempSync, rmSync } from 'node:fs';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
} from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/commands/createUser.ts';
import { openDatabase, type Database } from '../src/platform/db/db.ts';
import { fitFile } from './harness.ts';
import { startPostgres } from './postgres.ts';
import { freePort, printed, runScript, type ApiProcess } from './processes.ts';

// A rolling deploy nobody notices: three API processes (IMPORT_JOBS=off) and a worker on one
// PostgreSQL, behind a proxy that does what a load balancer does (round robin over the live
// processes; a request whose connection is refused or reset, or that is answered 503 by a
// closing process, goes to the next process when it is safe to send again: reads, and uploads
// with an Idempotency-Key). Three riders import and read all along while each API process and
// then the worker is replaced: the new one starts, is ready, and the old one gets SIGTERM.
// No request fails, and every import lands exactly once.

const PASSWORD = 'rolling restarts 42';

interface Backend {
  readonly port: number;
  /** Refused a connection: a process that closed. Skipped until it is removed. */
  down: boolean;
}

/** The load balancer: round robin, with retries on another process where it is safe. */
function balancer(backends: Backend[], retried: string[]): Server {
  let next = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const forward = (
    port: number,
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    body: Buffer,
  ) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        const upstream = httpRequest(
          { host: '127.0.0.1', port, method, path, headers, agent },
          (reply) => {
            const parts: Buffer[] = [];
            reply.on('data', (part: Buffer) => parts.push(part));
            reply.on('end', () =>
              resolve({
                status: reply.statusCode!,
                headers: reply.headers,
                body: Buffer.concat(parts),
              }),
            );
            reply.on('error', reject);
          },
        );
        upstream.on('error', reject);
        upstream.end(body);
      },
    );
  return createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => void relay(Buffer.concat(parts)));
    const relay = async (body: Buffer) => {
      // Sent again only when that cannot do a thing twice.
      const safe = request.method === 'GET' || request.headers['idempotency-key'] !== undefined;
      for (let attempt = 0; attempt < 20; attempt++) {
        const live = backends.filter((backend) => !backend.down);
        const backend = live[next++ % Math.max(1, live.length)];
        if (!backend) {
          await sleep(100);
          continue;
        }
        try {
          const reply = await forward(
            backend.port,
            request.method!,
            request.url!,
            request.headers,
            body,
          );
          // A closing process answers what reaches it in the meantime with 503.
          if (reply.status === 503 && safe && attempt < 19) {
            retried.push(`${request.method} ${request.url}: 503 from ${backend.port}`);
            continue;
          }
          response.writeHead(reply.status, reply.headers).end(reply.body);
          return;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ECONNREFUSED') backend.down = true;
          retried.push(`${request.method} ${request.url}: ${code} from ${backend.port}`);
          // Refused: nothing was sent, so any request may go elsewhere; a reset mid-way only
          // when sending it again is harmless.
          if (code === 'ECONNREFUSED' || safe) continue;
          response.writeHead(502).end();
          return;
        }
      }
      response.writeHead(502).end();
    };
  });
}

describe('a rolling restart of every API process and the worker', () => {
  let stopPostgres = () => {};
  let db: Database;
  let dataDir: string;
  let env: Record<string, string | undefined>;
  const running: ApiProcess[] = [];

  const startApi = async (): Promise<{ proc: ApiProcess; backend: Backend }> => {
    const port = await freePort();
    const proc = runScript('main.ts', { ...env, PORT: String(port) });
    running.push(proc);
    await printed(proc, 'XOSS is ready at');
    return { proc, backend: { port, down: false } };
  };
  const startWorker = async (): Promise<ApiProcess> => {
    const proc = runScript('main.ts', env, ['--worker']);
    running.push(proc);
    await printed(proc, 'import worker is running');
    return proc;
  };

  beforeAll(async () => {
    const postgres = await startPostgres();
    stopPostgres = postgres.stop;
    // Migrated once here; the processes find it done.
    db = await openDatabase({ databaseUrl: postgres.url });
    dataDir = mkdtempSync(join(tmpdir(), 'xoss-rolling-'));
    env = {
      DATABASE_URL: postgres.url,
      // One files folder for all (a shared volume; production uses a bucket).
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      JWT_SECRET: undefined,
      IMPORT_JOBS: 'off',
      IMPORT_WORKERS: '1',
      JOBS_SUPERVISE_S: '1',
      REQUESTS_PER_RIDER: '1000',
      REQUESTS_PER_ADDRESS: '1000',
      PASSWORD_HASHES_PER_SECOND: '1000',
      SHUTDOWN_TIMEOUT_S: '60',
    };
  });

  afterAll(async () => {
    for (const proc of running) if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    await db?.close();
    stopPostgres();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('fails no request and lands every import once while each process is replaced', async () => {
    const apis = await Promise.all([startApi(), startApi(), startApi()]);
    let worker = await startWorker();
    const backends: Backend[] = apis.map((api) => api.backend);
    const retried: string[] = [];
    const proxy = balancer(backends, retried);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    try {
      const riders = await Promise.all(
        [1, 2, 3].map(async (n) => {
          const email = `rolling${n}@example.com`;
          await createUser(db, email, `rolling${n}`, PASSWORD);
          const reply = await fetch(`${base}/api/v1/jwt-token/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password: PASSWORD }),
          });
          expect(reply.status).toBe(200);
          return ((await reply.json()) as { data: { access: string } }).data.access;
        }),
      );

      let loading = true;
      const failures: string[] = [];
      const landed = new Map<string, number>(); // Idempotency-Key -> ride id
      let requests = 0;
      const call = async (label: string, url: string, init: RequestInit = {}) => {
        requests++;
        try {
          const reply = await fetch(`${base}${url}`, init);
          const text = await reply.text();
          if (reply.status >= 300) failures.push(`${label}: ${reply.status} ${text.slice(0, 200)}`);
          return reply.status < 300 ? (JSON.parse(text) as { data: unknown }) : undefined;
        } catch (error) {
          failures.push(`${label}: ${String(error)}`);
          return undefined;
        }
      };
      const load = riders.map(async (access, rider) => {
        const auth = { authorization: `Bearer ${access}` };
        for (let n = 0; loading; n++) {
          const key = `rolling-${rider}-${n}`;
          const form = new FormData();
          form.set(
            'file',
            new File(
              [fitFile(300, rider * 1000 + n, 1_780_000_000 + rider * 10_000_000 + n * 3600)],
              'r.fit',
            ),
          );
          const made = (await call(`upload ${key}`, '/api/v2/workouts/', {
            method: 'POST',
            headers: { ...auth, 'idempotency-key': key },
            body: form,
          })) as { data: { id: number } } | undefined;
          if (made) landed.set(key, made.data.id);
          const list = (await call(`list ${rider}`, '/api/v2/workouts/', { headers: auth })) as
            { data: { results: { id: number }[] } } | undefined;
          const first = list?.data.results[0];
          if (first)
            await call(`detail ${first.id}`, `/api/v2/workouts/${first.id}/`, { headers: auth });
        }
      });

      // Each step of the deploy comes once the riders have sent `count` more requests, so
      // traffic is in flight at every step however slow the machine (not after a time).
      const afterRequests = async (count: number) => {
        const until = requests + count;
        while (requests < until) await sleep(20);
      };
      // The rolling deploy: each API process, then the worker.
      const exits: (number | null)[] = [];
      for (const old of apis) {
        await afterRequests(12);
        const fresh = await startApi();
        backends.push(fresh.backend);
        exits.push(await old.proc.stop());
        backends.splice(backends.indexOf(old.backend), 1);
      }
      await afterRequests(12);
      const freshWorker = await startWorker();
      exits.push(await worker.stop());
      worker = freshWorker;
      await afterRequests(16);
      loading = false;
      await Promise.all(load);

      // On failure, what the processes logged says why (an unexpected error's stack).
      expect(failures, running.map((proc) => proc.output()).join('\n----\n')).toEqual([]);
      expect(exits).toEqual([0, 0, 0, 0]);
      expect(landed.size).toBeGreaterThan(6);
      expect(requests).toBeGreaterThanOrEqual(3 * landed.size);
      // Exactly once: one ride per key, the one its rider was answered with.
      const rows = await db.query<{ idempotency_key: string; id: number }>(
        'SELECT idempotency_key, id FROM workouts WHERE idempotency_key IS NOT NULL',
      );
      expect(new Map(rows.map((row) => [row.idempotency_key, row.id]))).toEqual(landed);
      expect(rows).toHaveLength(landed.size);
      const open = await db.query("SELECT id, status FROM imports WHERE status NOT IN ('done')");
      expect(open).toEqual([]);
    } finally {
      proxy.close();
      await Promise.all(running.map((proc) => proc.stop()));
    }
  });
});
