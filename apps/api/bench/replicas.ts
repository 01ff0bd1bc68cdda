/// <reference types="node" />
// `pnpm bench` (last script): throughput and p99 of the workouts list, a workout detail and
// imports with 1 and with 3 API processes on this machine, all on one PostgreSQL (Debian's
// binaries, as the tests start it) and one files folder, behind the same small round-robin
// proxy (so both runs pay the same hop), and the ratio. Each process runs imports too
// (IMPORT_WORKERS=1 each). BENCH_SECONDS (default 8) per read run, BENCH_IMPORTS (default 30).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { simulateRide } from '@xoss/workout-stats';
import autocannon from 'autocannon';
import { createUser } from '../src/commands/createUser.ts';
import { openDatabase } from '../src/platform/db/db.ts';
import { multipartBody } from '../src/testing/multipart.ts';
import { startPostgres } from '../test/postgres.ts';

const apiDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const importCount = Number(process.env.BENCH_IMPORTS ?? 30);

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
};

function roundRobin(ports: number[]): Server {
  let next = 0;
  const agent = undefined;
  return createServer((request, response) => {
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: ports[next++ % ports.length]!,
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent,
      },
      (reply) => {
        response.writeHead(reply.statusCode!, reply.headers);
        reply.pipe(response);
      },
    );
    upstream.on('error', () =>
      response.headersSent ? response.destroy() : response.writeHead(502).end(),
    );
    request.pipe(upstream);
  });
}

async function startApi(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--conditions=@xoss/source', join(apiDir, 'src', 'main.ts')],
    { cwd: apiDir, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waited = 0; !output.includes('XOSS is ready at'); waited += 100) {
    if (waited > 90_000 || child.exitCode !== null) throw new Error(`API did not start: ${output}`);
    await sleep(100);
  }
  return { child, port };
}

const ride = (seed: number) =>
  encodeFit(
    activityFromStreams(simulateRide({ seconds: 1800, seed }), {
      startTime: 1_790_500_000 + seed * 7200,
      sport: 2,
    }),
  );

interface Figures {
  list: { rps: number; p99: number; errors: number };
  detail: { rps: number; p99: number; errors: number };
  imports: { perS: number; p99: number; errors: number };
}

async function measure(processes: number, round: number): Promise<Figures> {
  const postgres = await startPostgres();
  const dataDir = mkdtempSync(join(tmpdir(), 'xoss-bench-replicas-'));
  const children: ChildProcess[] = [];
  let proxy: Server | undefined;
  try {
    const db = await openDatabase({ databaseUrl: postgres.url });
    const password = 'bench replicas 42';
    const riders = ['ana', 'ben', 'chloe', 'dan'].map((name) => `${name}${round}@bench.example`);
    for (const email of riders) await createUser(db, email, email.split('@')[0]!, password);
    await db.close();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: postgres.url,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      DEMO_DATA: '0',
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'bench-replicas-0123456789abcdef',
      IMPORT_WORKERS: '1',
      PASSWORD_HASH_CONCURRENCY: '1',
    };
    const apis = [];
    for (let i = 0; i < processes; i++) apis.push(await startApi(env));
    children.push(...apis.map((api) => api.child));
    proxy = roundRobin(apis.map((api) => api.port));
    await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    const tokens: string[] = [];
    for (const email of riders) {
      const reply = await fetch(`${base}/api/v1/jwt-token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      tokens.push(((await reply.json()) as { data: { access: string } }).data.access);
    }
    const upload = async (token: string, bytes: Uint8Array) => {
      const part = multipartBody({}, { name: 'file', filename: 'ride.fit', bytes });
      const begin = performance.now();
      const reply = await fetch(`${base}/api/v2/workouts/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': part.contentType },
        body: part.body,
      });
      const body = (await reply.json()) as { data?: { id: number } };
      return { status: reply.status, id: body.data?.id, ms: performance.now() - begin };
    };
    // Imports: four riders, their rides sent at once (the queue runs one per rider at a time).
    const files = Array.from({ length: importCount }, (_, i) => ride(round * 1000 + i));
    const begin = performance.now();
    const results = await Promise.all(
      files.map((bytes, i) => upload(tokens[i % tokens.length]!, bytes)),
    );
    const importSeconds = (performance.now() - begin) / 1000;
    const detailId = results.find((result) => result.status === 201)?.id;
    const read = async (path: string) => {
      const result = await autocannon({
        url: `${base}${path}`,
        connections: 20,
        duration: seconds,
        headers: { authorization: `Bearer ${tokens[0]}` },
      });
      return {
        rps: Math.round(result.requests.average),
        p99: result.latency.p99,
        errors: result.errors + result.timeouts + result.non2xx,
      };
    };
    return {
      list: await read('/api/v2/workouts/'),
      detail: await read(`/api/v2/workouts/${detailId}/`),
      imports: {
        perS: Math.round((importCount / importSeconds) * 10) / 10,
        p99: Math.round(
          percentile(
            results.map((result) => result.ms),
            0.99,
          ),
        ),
        errors: results.filter((result) => result.status !== 201).length,
      },
    };
  } finally {
    proxy?.close();
    for (const child of children) child.kill('SIGTERM');
    await sleep(500);
    postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const one = await measure(1, 1);
const three = await measure(3, 3);
const ratio = (a: number, b: number) => (a === 0 ? '-' : `${(b / a).toFixed(2)}x`);
console.log(
  `\nAPI processes on one machine (${seconds} s per read run, 20 connections; ${importCount} imports of 30-minute rides at once)\n`,
);
console.log(
  '| call   | 1 process: per s | p99 ms | 3 processes: per s | p99 ms | throughput 3/1 | errors |',
);
console.log(
  '| ------ | ---------------: | -----: | -----------------: | -----: | -------------: | -----: |',
);
for (const [name, a, b] of [
  ['list', one.list.rps, three.list.rps],
  ['detail', one.detail.rps, three.detail.rps],
  ['import', one.imports.perS, three.imports.perS],
] as const) {
  const key = name === 'import' ? 'imports' : name;
  console.log(
    `| ${name.padEnd(6)} | ${String(a).padStart(16)} | ${String(one[key].p99).padStart(6)} | ${String(b).padStart(18)} | ${String(three[key].p99).padStart(6)} | ${ratio(a, b).padStart(14)} | ${String(one[key].errors + three[key].errors).padStart(6)} |`,
  );
}
if (one.imports.errors + three.imports.errors > 0) process.exitCode = 1;
