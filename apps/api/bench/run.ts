/// <reference types="node" />
// `pnpm bench`: requests/s and p50/p99 latency of the workouts list, a workout detail and a
// token refresh (autocannon, loopback, 5 s each); a load run of 200 connections for 10 s
// (LOAD_CONNECTIONS, LOAD_SECONDS) on the list, a detail and a share page with 20 FIT imports
// at once, which fails the run on any error or a lost or duplicated import (request limits
// lifted: it measures capacity); and the time to import a 10-hour FIT file. On the embedded
// database with the demo data. Other riders' latency under attack: bench/fairShare.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { simulateRide } from '@xoss/workout-stats';
import autocannon from 'autocannon';
import { createApp } from '../src/app.ts';
import { configFromEnv } from '../src/platform/config.ts';
import { DEMO_USER } from '../src/commands/seed.ts';
import { multipartBody } from '../src/testing/multipart.ts';

const dir = mkdtempSync(join(tmpdir(), 'xoss-api-bench-'));
// Capacity, not a rider: the request limits are lifted on this server (one token on 200
// connections is exactly what they refuse). The fair-share run (bench/fairShare.ts) keeps
// the defaults.
const { server } = await createApp({
  dataDir: dir,
  demo: true,
  logger: false,
  config: { ...configFromEnv(), requestsPerRider: 1e6, requestsPerAddress: 1e6 },
});
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

  // Load: 200 connections for 10 s (LOAD_SECONDS) on the list, a detail and a share page,
  // with 20 FIT imports running at once during the list run. Nothing may fail, and the
  // imports must land exactly once each.
  const loadSeconds = Number(process.env.LOAD_SECONDS ?? 10);
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
  console.log(
    `\nImport of a 10-hour 1 Hz FIT file (${fit.length.toLocaleString('en-US')} bytes, 36,000 records) over HTTP: ${importMs.toFixed(0)} ms`,
  );
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
