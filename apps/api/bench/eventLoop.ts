/// <reference types="node" />
// `pnpm bench`: the event loop's longest block while each request whose cost grows with a
// ride's samples or a rider's data runs on the largest legal ride (IMPORT_MAX_SAMPLES
// one-second records with positions, power, heart rate): the import, the owner's reads, a
// threshold change and the read after it, every reply of a share link with the most privacy
// zones a rider may keep (JSON, streams, range, preview picture, the page's card tags), the
// curves, and the delete. Target: under 50 ms each (`perf_hooks.monitorEventLoopDelay`).
// On the embedded database, in one process, as `pnpm start` runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { simulateRide } from '@xoss/workout-stats';
import { createApp } from '../src/app.ts';
import { configFromEnv } from '../src/config.ts';
import { createUser } from '../src/createUser.ts';
import { MAX_PRIVACY_ZONES } from '../src/share/store.ts';
import { multipartBody } from '../src/testing/multipart.ts';

const TARGET_MS = 50;
const config = configFromEnv(process.env);
const samples = Number(process.env.EVENT_LOOP_SAMPLES ?? config.importMaxSamples - 1000);

const dir = mkdtempSync(join(tmpdir(), 'xoss-bench-loop-'));
const dist = (app: string) => join(import.meta.dirname, '..', '..', app, 'dist');
const { server, db } = await createApp({
  dataDir: dir,
  demo: false,
  logger: false,
  config,
  // The share page's card tags are written into the portal's page.
  staticRoots: { athletePortal: dist('athlete-portal'), publicSite: dist('public-site') },
});
await server.listen({ port: 0, host: '127.0.0.1' });
const address = server.server.address();
if (!address || typeof address === 'string') throw new Error('no address');
const base = `http://127.0.0.1:${address.port}`;

const password = 'an ordinary password';
const userId = await createUser(db, 'loop@bench.example', 'Loop', password);
const login = await fetch(`${base}/api/v1/jwt-token/`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'loop@bench.example', password }),
});
const access = ((await login.json()) as { data: { access: string } }).data.access;
const auth = { authorization: `Bearer ${access}` };

const ride = simulateRide({ seconds: samples, seed: 3, ftpWatts: 140, hilliness: 0.3 });
const file = encodeFit(activityFromStreams(ride, { startTime: 1_790_000_000, sport: 2 }));

const rows: { step: string; ms: number; status: number }[] = [];
/** Runs one step and records the event loop's longest block while it ran. */
async function measure(step: string, run: () => Promise<Response>): Promise<Response> {
  // The bench's own garbage (the ride it simulated and encoded) is collected before each
  // step, so a pause it causes is not counted against the server (run with --expose-gc).
  (globalThis as { gc?: () => void }).gc?.();
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const response = await run();
  await response.clone().arrayBuffer();
  histogram.disable();
  rows.push({ step, ms: histogram.max / 1e6, status: response.status });
  return response;
}

const part = multipartBody({}, { name: 'file', filename: 'huge.fit', bytes: file });
const imported = await measure(`import (${samples} samples, ${(file.length / 1e6).toFixed(1)} MB)`, () =>
  fetch(`${base}/api/v2/workouts/`, {
    method: 'POST',
    headers: { ...auth, 'content-type': part.contentType },
    body: part.body,
  }),
);
const id = ((await imported.json()) as { data: { id: number } }).data.id;
const get = (path: string, headers: Record<string, string> = auth) => () =>
  fetch(`${base}${path}`, { headers });
const send = (method: string, path: string, body: unknown) => () =>
  fetch(`${base}${path}`, {
    method,
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

await measure('detail', get(`/api/v2/workouts/${id}/`));
await measure('streams', get(`/api/v2/workouts/${id}/streams/`));
await measure('range', get(`/api/v2/workouts/${id}/range/?from=1000&to=200000`));
await measure('power curve', get(`/api/v2/workouts/${id}/power-curve/`));
await measure('threshold change', send('PATCH', `/api/v2/athlete/${userId}/`, { settings: { ftp: 280 }, thresholds_from: '2020-01-01' }));
await measure('detail after the change', get(`/api/v2/workouts/${id}/`));

// The most zones a rider may keep, all along the ride (each hides part of it).
for (let zone = 0; zone < MAX_PRIVACY_ZONES; zone++) {
  const at = Math.floor(((zone + 0.5) * samples) / MAX_PRIVACY_ZONES);
  await send('POST', '/api/v2/privacy-zones/', {
    name: `zone ${zone}`,
    latitude: ride.latitude![at],
    longitude: ride.longitude![at],
    radius_m: 500,
  })();
}
const shared = await (await send('PATCH', `/api/v2/workouts/${id}/`, { shared: true })()).json();
const shareId = (shared as { data: { share_id: string } }).data.share_id;
const stranger = {};
await measure('share: reply (first)', get(`/api/v2/share/workouts/${shareId}/`, stranger));
await measure('share: reply', get(`/api/v2/share/workouts/${shareId}/`, stranger));
await measure('share: streams', get(`/api/v2/share/workouts/${shareId}/streams/`, stranger));
await measure(
  'share: range',
  get(`/api/v2/share/workouts/${shareId}/range/?from=1000&to=200000`, stranger),
);
await measure('share: preview', get(`/api/v2/share/workouts/${shareId}/preview.png`, stranger));
await measure(
  'share: card tags',
  get(`/dashboard/workouts/share/${id}?share=${shareId}`, stranger),
);
await measure('delete', () => fetch(`${base}/api/v2/workouts/${id}/`, { method: 'DELETE', headers: auth }));

await server.close();
rmSync(dir, { recursive: true, force: true });

console.log(`\nEvent loop's longest block per request, largest legal ride (target < ${TARGET_MS} ms)`);
const width = Math.max(...rows.map((row) => row.step.length));
for (const row of rows)
  console.log(
    `  ${row.step.padEnd(width)}  ${row.ms.toFixed(1).padStart(7)} ms  ${row.ms < TARGET_MS ? 'ok' : 'OVER'}  (HTTP ${row.status})`,
  );
const over = rows.filter((row) => row.ms >= TARGET_MS);
console.log(over.length === 0 ? 'All under target.' : `${over.length} over target.`);
