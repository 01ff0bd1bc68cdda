/// <reference types="node" />
// `pnpm bench`: the event loop's longest block while each request whose cost grows with a
// ride's samples or a rider's data runs on the largest legal ride (IMPORT_MAX_SAMPLES
// one-second records with positions, power, heart rate): the import, the owner's reads, a
// threshold change and the read after it, every reply of a share link with the most privacy
// zones a rider may keep (JSON, streams, range, preview picture, the page's card tags), the
// curve, and the delete, each after the same steps on an ordinary ride (a running server's
// code is compiled). Target: under 50 ms each (`perf_hooks.monitorEventLoopDelay`).
// The server runs on the embedded database on this file's main thread, as `pnpm start` runs;
// the client (the ride it simulates and encodes, the requests and their replies) runs on a
// thread of its own, so its work and garbage are not counted against the server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { simulateRide } from '@xoss/workout-stats';
import { createApp } from '../src/app.ts';
import { configFromEnv } from '../src/platform/config.ts';
import { createUser } from '../src/commands/createUser.ts';
import { MAX_PRIVACY_ZONES } from '../src/share/store.ts';
import { multipartBody } from '../src/testing/multipart.ts';

const TARGET_MS = 50;

type Message = { begin: string } | { end: string; status: number } | { done: true };

interface ClientData {
  base: string;
  userId: number;
  email: string;
  password: string;
  samples: number;
}

/** The client: every step is announced, run, and reported, one after another. */
async function client({ base, userId, email, password, samples }: ClientData) {
  const port = parentPort!;
  const next = () => new Promise<void>((resolve) => port.once('message', () => resolve()));
  let measuring = false;
  const step = async (name: string, run: () => Promise<Response>) => {
    if (measuring) {
      port.postMessage({ begin: name } satisfies Message);
      await next();
    }
    const response = await run();
    const body = await response.arrayBuffer();
    if (measuring) {
      port.postMessage({ end: name, status: response.status } satisfies Message);
      await next();
    }
    return { status: response.status, body: new TextDecoder().decode(body) };
  };
  const login = await fetch(`${base}/api/v1/jwt-token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const access = ((await login.json()) as { data: { access: string } }).data.access;
  const auth = { authorization: `Bearer ${access}` };
  const get =
    (path: string, headers: Record<string, string> = auth) =>
    () =>
      fetch(`${base}${path}`, { headers });
  const send = (method: string, path: string, body: unknown) => () =>
    fetch(`${base}${path}`, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  /** One ride's steps; only those of the measured ride are reported. */
  const rideSteps = async (seconds: number, seed: number, zones: boolean) => {
    const ride = simulateRide({ seconds, seed, ftpWatts: 140, hilliness: 0.3 });
    const file = encodeFit(
      activityFromStreams(ride, { startTime: 1_790_000_000 + seed, sport: 2 }),
    );
    const part = multipartBody({}, { name: 'file', filename: 'huge.fit', bytes: file });
    const imported = await step(
      `import (${seconds} samples, ${(file.length / 1e6).toFixed(1)} MB)`,
      () =>
        fetch(`${base}/api/v2/workouts/`, {
          method: 'POST',
          headers: { ...auth, 'content-type': part.contentType },
          body: part.body,
        }),
    );
    const id = (JSON.parse(imported.body) as { data?: { id: number } }).data?.id;
    if (id === undefined) throw new Error(`The import failed: ${imported.body}`);

    await step('detail', get(`/api/v2/workouts/${id}/`));
    await step('streams', get(`/api/v2/workouts/${id}/streams/`));
    await step('range', get(`/api/v2/workouts/${id}/range/?from=1000&to=200000`));
    await step('power curve', get(`/api/v2/workouts/${id}/power-curve/`));
    await step(
      'threshold change',
      send('PATCH', `/api/v2/athlete/${userId}/`, {
        settings: { ftp: 280 },
        thresholds_from: '2020-01-01',
      }),
    );
    await step('detail after the change', get(`/api/v2/workouts/${id}/`));

    // The most zones a rider may keep, all along the ride (each hides part of it).
    for (let zone = 0; zone < (zones ? MAX_PRIVACY_ZONES : 0); zone++) {
      const at = Math.floor(((zone + 0.5) * seconds) / MAX_PRIVACY_ZONES);
      await send('POST', '/api/v2/privacy-zones/', {
        name: `zone ${zone}`,
        latitude: ride.latitude![at],
        longitude: ride.longitude![at],
        radius_m: 500,
      })();
    }
    const shared = await (
      await send('PATCH', `/api/v2/workouts/${id}/`, { shared: true })()
    ).json();
    const shareId = (shared as { data: { share_id: string } }).data.share_id;
    const stranger = {};
    await step('share: reply (first)', get(`/api/v2/share/workouts/${shareId}/`, stranger));
    await step('share: reply', get(`/api/v2/share/workouts/${shareId}/`, stranger));
    await step('share: streams', get(`/api/v2/share/workouts/${shareId}/streams/`, stranger));
    await step(
      'share: range',
      get(`/api/v2/share/workouts/${shareId}/range/?from=1000&to=200000`, stranger),
    );
    await step('share: preview', get(`/api/v2/share/workouts/${shareId}/preview.png`, stranger));
    await send('PATCH', `/api/v2/workouts/${id}/`, { name: `Renamed ${seed}` })();
    await step(
      'share: preview (after a rename)',
      get(`/api/v2/share/workouts/${shareId}/preview.png`, stranger),
    );
    await step(
      'share: card tags',
      get(`/dashboard/workouts/share/${id}?share=${shareId}`, stranger),
    );
    await step('delete', () =>
      fetch(`${base}/api/v2/workouts/${id}/`, { method: 'DELETE', headers: auth }),
    );
  };
  // A warm-up on an ordinary ride first: the server is measured as it runs, its code
  // compiled, not on each function's first call.
  measuring = false;
  await rideSteps(3600, 1, false);
  measuring = true;
  await rideSteps(samples, 3, true);
  port.postMessage({ done: true } satisfies Message);
}

/** The server, and the longest block of its event loop while each client step ran. */
async function serve() {
  // `gc()` without --expose-gc on the command line, which worker threads refuse to inherit.
  setFlagsFromString('--expose-gc');
  const collectGarbage = runInNewContext('gc') as () => void;
  const config = configFromEnv(process.env);
  const samples = Number(process.env.EVENT_LOOP_SAMPLES ?? config.importMaxSamples - 1000);
  const dir = mkdtempSync(join(tmpdir(), 'xoss-bench-loop-'));
  const dist = (app: string) => join(import.meta.dirname, '..', '..', app, 'dist');
  const { server, db } = await createApp({
    dataDir: dir,
    demo: false,
    logger: process.env.BENCH_LOG ? { level: 'info' } : false,
    config,
    // The share page's card tags are written into the portal's page.
    staticRoots: { athletePortal: dist('athlete-portal'), publicSite: dist('public-site') },
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const password = 'an ordinary password';
  const email = 'loop@bench.example';
  const userId = await createUser(db, email, 'Loop', password);

  const rows: { step: string; ms: number; status: number }[] = [];
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const worker = new Worker(new URL(import.meta.url), {
    workerData: {
      base: `http://127.0.0.1:${address.port}`,
      userId,
      email,
      password,
      samples,
    } satisfies ClientData,
    execArgv: process.execArgv.filter((arg) => arg !== '--expose-gc'),
  });
  await new Promise<void>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (message: Message) => {
      if ('begin' in message) {
        collectGarbage();
        histogram.reset();
        histogram.enable();
      } else if ('end' in message) {
        histogram.disable();
        rows.push({ step: message.end, ms: histogram.max / 1e6, status: message.status });
      } else {
        resolve();
        return;
      }
      worker.postMessage('go');
    });
  });
  await worker.terminate();
  await server.close();
  rmSync(dir, { recursive: true, force: true });

  console.log(
    `\nEvent loop's longest block per request, largest legal ride (target < ${TARGET_MS} ms)`,
  );
  const width = Math.max(...rows.map((row) => row.step.length));
  for (const row of rows)
    console.log(
      `  ${row.step.padEnd(width)}  ${row.ms.toFixed(1).padStart(7)} ms  ${row.ms < TARGET_MS ? 'ok' : 'OVER'}  (HTTP ${row.status})`,
    );
  const over = rows.filter((row) => row.ms >= TARGET_MS);
  console.log(over.length === 0 ? 'All under target.' : `${over.length} over target.`);
}

if (isMainThread) await serve();
else await client(workerData as ClientData);
