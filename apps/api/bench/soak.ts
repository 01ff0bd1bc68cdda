/// <reference types="node" />
// Soak (`node apps/api/bench/soak.ts`, SOAK_SECONDS=600 by default; not in `pnpm bench`): the
// server as `pnpm start` runs it (`src/main.ts`, its embedded database in a worker thread, with
// the V8 setting of the README's "V8 fault of the PGlite forks"), under import and analysis
// load for ten minutes: three riders each upload a new one- to three-hour ride, then read what
// the portal reads of it (analysis, power curve with heart rate and pace, streams, list),
// back to back. Fails when the server ends before it is asked to, prints a V8 fatal check, or
// answers a request with 5xx; prints the counts, the p99 and the server's memory at the end.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance as clock } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { simulateRide } from '@xoss/workout-stats';
import { multipartBody } from '../src/testing/multipart.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const RIDERS = 3;
const PASSWORD = 'soak-password-1234';
const apiDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = mkdtempSync(join(tmpdir(), 'xoss-soak-'));
const env = { ...process.env, DATA_DIR: dataDir, DEMO_DATA: '0', LOG_LEVEL: 'warn' };

const run = (script: string, args: string[], extra: Record<string, string> = {}) =>
  spawn(process.execPath, ['--conditions=@xoss/source', join(apiDir, 'src', script), ...args], {
    cwd: apiDir,
    env: { ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

for (let rider = 0; rider < RIDERS; rider += 1) {
  const created = run('commands/createUser.ts', [`soak${rider}@example.com`, `Soak ${rider}`], {
    XOSS_PASSWORD: PASSWORD,
  });
  const code = await new Promise((resolve) => created.once('exit', resolve));
  if (code !== 0) throw new Error(`create-user ended with ${String(code)}`);
}

const server = run('main.ts', [], { PORT: '0', HOST: '127.0.0.1' });
let output = '';
server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
let ended: string | undefined;
server.once('exit', (code, signal) => (ended = `code ${String(code)}, signal ${String(signal)}`));
while (!/XOSS is ready at (\S+)/.test(output)) {
  if (ended) throw new Error(`the server ended before it was ready (${ended}):\n${output}`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const base = new URL(/XOSS is ready at (\S+)/.exec(output)![1]!).origin.replace(
  'localhost',
  '127.0.0.1',
);

const statuses = new Map<number, number>();
const took: number[] = [];
const call = async (path: string, access: string, init: RequestInit = {}) => {
  const started = clock.now();
  const reply = await fetch(`${base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${access}`, ...(init.headers ?? {}) },
  });
  const body = await reply.text();
  took.push(clock.now() - started);
  statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
  return { status: reply.status, body };
};

const tokens = async (reply: Response) =>
  ((await reply.json()) as { data: { access: string; refresh: string } }).data;

async function rider(index: number, until: number) {
  const login = await fetch(`${base}/api/v1/jwt-token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `soak${index}@example.com`, password: PASSWORD }),
  });
  let { access, refresh } = await tokens(login);
  let refreshedAt = Date.now();
  for (let ride = 0; Date.now() < until; ride += 1) {
    if (Date.now() - refreshedAt > 5 * 60_000) {
      const renewed = await fetch(`${base}/api/v1/jwt-token/refresh/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh }),
      });
      ({ access, refresh } = await tokens(renewed));
      refreshedAt = Date.now();
    }
    const streams = simulateRide({
      seconds: 3600 * (1 + ((index + ride) % 3)),
      seed: index * 1000 + ride,
    });
    const bytes = encodeFit(
      activityFromStreams(streams, {
        startTime: 1_780_000_000 + index * 10_000_000 + ride * 86_400,
        sport: 2,
      }),
    );
    const part = multipartBody({}, { name: 'file', filename: `soak-${index}-${ride}.fit`, bytes });
    const stored = await call('/api/v2/workouts/', access, {
      method: 'POST',
      headers: { 'content-type': part.contentType },
      body: part.body,
    });
    const id =
      stored.status === 201
        ? (JSON.parse(stored.body) as { data: { id: number } }).data.id
        : undefined;
    if (id === undefined) continue;
    await call(`/api/v2/workouts/${id}/analysis/`, access);
    await call(`/api/v2/workouts/${id}/power-curve/?include=heart_rate,pace`, access);
    await call(`/api/v2/workouts/${id}/streams/?points=2000`, access);
    await call('/api/v2/workouts/', access);
  }
}

const began = Date.now();
await Promise.all(
  Array.from({ length: RIDERS }, (_, index) => rider(index, began + SECONDS * 1000)),
);
const rss = (() => {
  try {
    return (
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024
    );
  } catch {
    return Number.NaN;
  }
})();
const stillRunning = ended === undefined;
server.kill('SIGTERM');
const exit = await new Promise<string>((resolve) =>
  ended
    ? resolve(ended)
    : server.once('exit', (code, signal) =>
        resolve(`code ${String(code)}, signal ${String(signal)}`),
      ),
);
rmSync(dataDir, { recursive: true, force: true });

const sorted = [...took].sort((a, b) => a - b);
const p99 = sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0;
const errors = [...statuses].filter(([status]) => status >= 500);
const fatal = /Check failed|Fatal error|SIGTRAP|FATAL/.exec(output);
console.log(
  `soak ${SECONDS} s: ${took.length} requests (${[...statuses].map(([s, n]) => `${s}: ${n}`).join(', ')}), p99 ${p99.toFixed(0)} ms, server RSS ${rss.toFixed(0)} MB, ran to the end: ${stillRunning}, exit after SIGTERM: ${exit}`,
);
if (!stillRunning || errors.length > 0 || fatal || exit !== 'code 0, signal null') {
  console.error(`FAIL: ${fatal ? `the server printed "${fatal[0]}"` : ''}\n${output.slice(-4000)}`);
  process.exit(1);
}
