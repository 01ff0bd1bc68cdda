/// <reference types="node" />
// `pnpm bench`: requests/s and p50/p99 latency of the workouts list, a workout detail and a
// token refresh (autocannon, loopback, 5 s each), and the time to import a 10-hour FIT file,
// on the embedded database with the demo data. Figures, never assertions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { simulateRide } from '@xoss/workout-stats';
import autocannon from 'autocannon';
import { createApp } from '../src/app.ts';
import { DEMO_USER } from '../src/seed.ts';
import { multipartBody } from '../src/testing/multipart.ts';

const dir = mkdtempSync(join(tmpdir(), 'xoss-api-bench-'));
const { server } = await createApp({ dataDir: dir, demo: true, logger: false });
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

  console.log(
    '\n@xoss/api on the embedded database with the demo data (loopback, 10 connections, 5 s each)\n',
  );
  console.log('| call | requests/s | p50 ms | p99 ms | errors |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
  console.log(
    `\nImport of a 10-hour 1 Hz FIT file (${fit.length.toLocaleString('en-US')} bytes, 36,000 records) over HTTP: ${importMs.toFixed(0)} ms`,
  );
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
