/// <reference types="node" />
// `pnpm bench`: requests/s and p50/p99 latency of the workouts list, a workout detail and a
// token refresh (autocannon, loopback, 5 s each); a load run of 200 connections for 30 s
// (LOAD_CONNECTIONS, LOAD_SECONDS) on the list, a detail and a share page with 20 FIT imports
// at once, which fails the run on any error or a lost or duplicated import; the time to
// import a 10-hour FIT file; and ordinary riders' page reads and imports for 15 s
// (ATTACK_SECONDS) alone, then again while an attacker uploads 1,000,000-record FIT files
// one after another and sends two bursts of 300 logins: the run fails if their p99 grows
// more than 3x. On the embedded database with the demo data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { simulateRide, type RideStreams } from '@xoss/workout-stats';
import autocannon from 'autocannon';
import { createApp } from '../src/app.ts';
import { createUser } from '../src/createUser.ts';
import type { Database } from '../src/db/db.ts';
import { DEMO_USER } from '../src/seed.ts';
import { multipartBody } from '../src/testing/multipart.ts';

/** A legal FIT file of one-second records whose power is noise (the costly kind to analyse). */
function noisyFit(seconds: number, seed: number): Uint8Array {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const streams = {
    time: Float64Array.from({ length: seconds }, (_, i) => i),
    power: Float64Array.from({ length: seconds }, () => Math.floor(random() * 100)),
    speed: Float64Array.from({ length: seconds }, () => 6 + random() * 4),
    distance: Float64Array.from({ length: seconds }, (_, i) => i * 8),
  } as unknown as RideStreams;
  return encodeFit(activityFromStreams(streams, { startTime: 1_790_000_000 + seed, sport: 2 }));
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

/**
 * Ordinary riders for ATTACK_SECONDS: one reads its list and a detail on 20 connections,
 * three import one-hour rides one after another. First alone, then while an attacker
 * uploads 1,000,000-record FIT files back to back and sends two bursts of 300 logins.
 */
async function attackRun(base: string, db: Database): Promise<{ report: string; ok: boolean }> {
  const seconds = Number(process.env.ATTACK_SECONDS ?? 15);
  const tokenOf = async (email: string, password: string) => {
    const reply = await fetch(`${base}/api/v1/jwt-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return ((await reply.json()) as { data: { access: string } }).data.access;
  };
  const password = 'an ordinary password';
  const riders: string[] = [];
  for (const name of ['ana', 'ben', 'chloe', 'mallory']) {
    await createUser(db, `${name}@bench.example`, name, password);
    riders.push(await tokenOf(`${name}@bench.example`, password));
  }
  const [reader, ...importers] = riders.slice(0, 3) as [string, ...string[]];
  const attacker = riders[3]!;
  const post = async (
    access: string,
    bytes: Uint8Array,
    filename: string,
    part = multipartBody({}, { name: 'file', filename, bytes }),
  ) => {
    const reply = await fetch(`${base}/api/v2/workouts/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access}`, 'content-type': part.contentType },
      body: part.body,
    });
    const body = (await reply.json()) as { data?: { id: number } };
    return { status: reply.status, id: body.data?.id };
  };
  // Each import is a new file (a ride already stored is refused as a duplicate): eight
  // simulated hours, each written with a start time of its own per import.
  const hours = Array.from({ length: 8 }, (_, index) =>
    simulateRide({ seconds: 3600, seed: 300 + index }),
  );
  let rideCount = 0;
  const nextRide = () => {
    rideCount += 1;
    return encodeFit(
      activityFromStreams(hours[rideCount % hours.length]!, {
        startTime: 1_790_500_000 + rideCount * 7200,
        sport: 2,
      }),
    );
  };
  const first = await post(reader, nextRide(), 'first.fit');
  const giant = noisyFit(1_000_000, 21);
  // Built once: the attacker's own work is not the server's (they share this process).
  const giantPart = multipartBody({}, { name: 'file', filename: 'giant.fit', bytes: giant });

  const phase = async (attacking: boolean) => {
    const end = performance.now() + seconds * 1000;
    const readerAuth = { authorization: `Bearer ${reader}` };
    const reads = autocannon({
      url: base,
      connections: 20,
      duration: seconds,
      requests: [
        { method: 'GET', path: '/api/v2/workouts/', headers: readerAuth },
        { method: 'GET', path: `/api/v2/workouts/${first.id}/`, headers: readerAuth },
      ],
    });
    const importTimes: number[] = [];
    let importErrors = 0;
    const importing = importers.map(async (access, rider) => {
      for (let n = 0; performance.now() < end; n++) {
        const start = performance.now();
        const result = await post(access, nextRide(), `ride-${rider}-${n}.fit`);
        importTimes.push(performance.now() - start);
        if (result.status !== 201) importErrors++;
      }
    });
    const attackStatuses: Record<string, number> = {};
    const count = (what: string, status: number) => {
      attackStatuses[`${what} ${status}`] = (attackStatuses[`${what} ${status}`] ?? 0) + 1;
    };
    const burst = () =>
      Promise.all(
        Array.from({ length: 300 }, () =>
          fetch(`${base}/api/v1/jwt-token/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'ana@bench.example', password: 'a guess' }),
          }).then((reply) => count('login', reply.status)),
        ),
      );
    const attacks = attacking
      ? [
          (async () => {
            while (performance.now() < end)
              count(
                '1,000,000-record import',
                (await post(attacker, giant, 'giant.fit', giantPart)).status,
              );
          })(),
          burst(),
          new Promise((resolve) => setTimeout(resolve, (seconds * 1000) / 2)).then(burst),
        ]
      : [];
    const [readResult] = await Promise.all([reads, ...importing, ...attacks]);
    return {
      readP50: readResult.latency.p50,
      readP99: readResult.latency.p99,
      readErrors: readResult.errors + readResult.non2xx + readResult.timeouts,
      reads: readResult.requests.total,
      importP50: percentile(importTimes, 0.5),
      importP99: percentile(importTimes, 0.99),
      imports: importTimes.length,
      importErrors,
      attackStatuses,
    };
  };
  const quiet = await phase(false);
  const attacked = await phase(true);
  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
  const readRatio = ratio(attacked.readP99, quiet.readP99);
  const importRatio = ratio(attacked.importP99, quiet.importP99);
  const ok =
    readRatio <= 3 &&
    importRatio <= 3 &&
    quiet.readErrors + attacked.readErrors + quiet.importErrors + attacked.importErrors === 0;
  const row = (name: string, p: typeof quiet) =>
    `| ${name} | ${p.reads} | ${p.readP50} | ${p.readP99} | ${p.imports} | ${p.importP50.toFixed(0)} | ${p.importP99.toFixed(0)} | ${p.readErrors + p.importErrors} |`;
  const report = [
    `\nOrdinary riders, ${seconds} s: one reads (list + detail, 20 connections), two import one-hour rides back to back; alone, then under attack\n`,
    '| phase | reads | read p50 ms | read p99 ms | imports | import p50 ms | import p99 ms | errors |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    row('alone', quiet),
    row('under attack', attacked),
    `\nAttack: ${Object.entries(attacked.attackStatuses)
      .map(([what, n]) => `${n} × ${what}`)
      .join(', ')}`,
    `p99 under attack / alone: reads ${readRatio.toFixed(2)}x, imports ${importRatio.toFixed(2)}x (limit 3x): ${ok ? 'ok' : 'FAILED'}`,
  ].join('\n');
  return { report, ok };
}

const dir = mkdtempSync(join(tmpdir(), 'xoss-api-bench-'));
const { server, db } = await createApp({ dataDir: dir, demo: true, logger: false });
try {
  await server.listen({ port: 0, host: '127.0.0.1' });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const base = `http://127.0.0.1:${address.port}`;
  const login = async () => {
    const reply = await fetch(`${base}/api/v1/jwt-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_USER.email, password: DEMO_USER.password }),
    });
    return ((await reply.json()) as { data: { access: string; refresh: string } }).data;
  };
  const { access } = await login();
  const auth = { authorization: `Bearer ${access}` };
  const list = (await (await fetch(`${base}/api/v2/workouts/`, { headers: auth })).json()) as {
    data: { results: { id: number }[] };
  };
  const workoutId = list.data.results[0]!.id;

  const rows: string[] = [];
  const run = async (name: string, options: autocannon.Options) => {
    const result = await autocannon({ duration: 5, connections: 10, ...options });
    const errors = result.errors + result.non2xx;
    rows.push(
      `| ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${errors} |`,
    );
  };
  await run('GET /api/v2/workouts/ (page of 20)', {
    url: `${base}/api/v2/workouts/`,
    headers: auth,
  });
  await run('GET /api/v2/workouts/{id}/ (summary + zones)', {
    url: `${base}/api/v2/workouts/${workoutId}/`,
    headers: auth,
  });
  // A queue of live refresh tokens: each request takes one, each reply gives the next back.
  const tokens = (await Promise.all(Array.from({ length: 10 }, () => login()))).map(
    (pair) => pair.refresh,
  );
  await run('POST /api/v1/jwt-token/refresh/ (rotation)', {
    url: `${base}/api/v1/jwt-token/refresh/`,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ refresh: tokens.shift() ?? '' }),
        }),
        onResponse: (status, body) => {
          if (status === 200)
            tokens.push((JSON.parse(body) as { data: { refresh: string } }).data.refresh);
        },
      },
    ],
  });

  const ride = simulateRide({ seconds: 36_000, seed: 7, stops: [[7200, 420]] });
  const fit = encodeFit(activityFromStreams(ride, { startTime: 1_790_000_000, sport: 2 }));
  const { body, contentType } = multipartBody(
    {},
    { name: 'file', filename: 'ten-hours.fit', bytes: fit },
  );
  const start = performance.now();
  const imported = await fetch(`${base}/api/v2/workouts/`, {
    method: 'POST',
    headers: { ...auth, 'content-type': contentType },
    body,
  });
  const importMs = performance.now() - start;
  if (imported.status !== 201) throw new Error(`import failed: ${await imported.text()}`);

  // Load: 200 connections for 30 s (LOAD_SECONDS) on the list, a detail and a share page,
  // with 20 FIT imports running at once during the list run. Nothing may fail, and the
  // imports must land exactly once each.
  const loadSeconds = Number(process.env.LOAD_SECONDS ?? 30);
  const loadConnections = Number(process.env.LOAD_CONNECTIONS ?? 200);
  const loadRows: string[] = [];
  const shared = (await (
    await fetch(`${base}/api/v2/workouts/${workoutId}/`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ shared: true }),
    })
  ).json()) as { data: { share_id: string } };
  const countWorkouts = async () =>
    (
      (await (await fetch(`${base}/api/v2/workouts/`, { headers: auth })).json()) as {
        data: { count: number };
      }
    ).data.count;
  const load = async (name: string, url: string, headers: Record<string, string>) => {
    const result = await autocannon({
      url,
      headers,
      connections: loadConnections,
      duration: loadSeconds,
    });
    // autocannon's `errors` already count its timeouts.
    const errors = result.errors + result.non2xx;
    loadRows.push(
      `| ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${errors} |`,
    );
    if (errors > 0)
      console.log(
        `${name}: ${result.errors} socket errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
        JSON.stringify(result.statusCodeStats),
      );
    return errors;
  };
  const before = await countWorkouts();
  const imports = Array.from({ length: 20 }, (_, index) => {
    const one = encodeFit(
      activityFromStreams(simulateRide({ seconds: 3600, seed: 100 + index }), {
        startTime: 1_790_100_000 + index * 7200,
        sport: 2,
      }),
    );
    const part = multipartBody({}, { name: 'file', filename: `load-${index}.fit`, bytes: one });
    return fetch(`${base}/api/v2/workouts/`, {
      method: 'POST',
      headers: { ...auth, 'content-type': part.contentType },
      body: part.body,
    }).then(async (reply) => ({
      status: reply.status,
      id: ((await reply.json()) as { data?: { id: number } }).data?.id,
    }));
  });
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  let loadErrors = await load(
    'GET /api/v2/workouts/ + 20 FIT imports',
    `${base}/api/v2/workouts/`,
    auth,
  );
  const results = await Promise.all(imports);
  loopDelay.disable();
  console.log(
    `event loop delay during the list run: p99 ${(loopDelay.percentile(99) / 1e6).toFixed(0)} ms, max ${(loopDelay.max / 1e6).toFixed(0)} ms`,
  );
  loadErrors += await load(
    'GET /api/v2/workouts/{id}/',
    `${base}/api/v2/workouts/${workoutId}/`,
    auth,
  );
  loadErrors += await load(
    'GET /api/v2/share/workouts/{share_id}/ (share page)',
    `${base}/api/v2/share/workouts/${shared.data.share_id}/`,
    {},
  );
  const after = await countWorkouts();
  const ids = new Set(results.map((result) => result.id));
  const importsOk =
    results.every((result) => result.status === 201) && ids.size === 20 && after - before === 20;

  const attack = await attackRun(base, db);

  console.log(
    '\n@xoss/api on the embedded database with the demo data (loopback, 10 connections, 5 s each)\n',
  );
  console.log('| call | requests/s | p50 ms | p99 ms | errors |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
  console.log(
    `\nLoad: ${loadConnections} connections, ${loadSeconds} s each, 20 concurrent FIT imports during the first run\n`,
  );
  console.log('| call | requests/s | p50 ms | p99 ms | errors |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const row of loadRows) console.log(row);
  console.log(
    `\nImports under load: ${results.filter((result) => result.status === 201).length}/20 created, ${ids.size} distinct ids, workouts ${before} -> ${after} (${importsOk ? 'none lost, none duplicated' : 'MISMATCH'})`,
  );
  if (loadErrors > 0 || !importsOk) process.exitCode = 1;
  console.log(attack.report);
  if (!attack.ok) process.exitCode = 1;
  console.log(
    `\nImport of a 10-hour 1 Hz FIT file (${fit.length.toLocaleString('en-US')} bytes, 36,000 records) over HTTP: ${importMs.toFixed(0)} ms`,
  );
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
