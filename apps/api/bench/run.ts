/// <reference types="node" />
// `pnpm bench`: requests/s and p50/p99 latency of the workouts list, a workout detail and a
// token refresh (autocannon, loopback, 5 s each); a load run of 200 connections for 10 s
// (LOAD_CONNECTIONS, LOAD_SECONDS) on the list, a detail and a share page with 20 FIT imports
// at once, which fails the run on any error or a lost or duplicated import (request limits
// lifted: it measures capacity); the time to import a 10-hour FIT file; and, on a server
// with the default limits, ordinary riders' page reads and imports for 10 s (PHASE_SECONDS)
// alone, then under each attack of `attacks` in turn (one rider's flood, login bursts from
// many addresses, and two hooks): the run fails if their p99 grows more than 3x. On the
// embedded database with the demo data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { simulateRide } from '@xoss/workout-stats';
import autocannon from 'autocannon';
import { createApp } from '../src/app.ts';
import { configFromEnv } from '../src/config.ts';
import { createUser } from '../src/createUser.ts';
import type { Database } from '../src/db/db.ts';
import { DEMO_USER } from '../src/seed.ts';
import { MAX_PRIVACY_ZONES } from '../src/share/store.ts';
import { multipartBody } from '../src/testing/multipart.ts';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

/** What an attack gets: the server, its database, the phase's end, and a tally of replies. */
interface AttackContext {
  readonly base: string;
  readonly db: Database;
  /** `performance.now()` at which the phase ends: stop then. */
  readonly end: number;
  readonly seconds: number;
  /** An access token of a new rider of the attacker's. */
  readonly rider: (name: string) => Promise<string>;
  /** Counts one reply of the attack (`what` and its status), shown under the table. */
  readonly count: (what: string, status: number) => void;
}
type Attack = (context: AttackContext) => Promise<void>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One rider's token on 200 connections, as fast as the server answers. */
const oneRiderFlood: Attack = async ({ base, seconds, rider, count }) => {
  const token = await rider('mallory');
  const result = await autocannon({
    url: `${base}/api/v2/workouts/`,
    headers: { authorization: `Bearer ${token}` },
    connections: 200,
    duration: seconds,
    // The attacker's own work in a thread of its own, not on the server's event loop.
    workers: 1,
  });
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {}))
    for (let i = 0; i < (stats.count ?? 0); i++) count('flood', Number(status));
};

/** Bursts of 300 logins, each from an address of its own (`TRUST_PROXY`), every 2 s. */
const loginBursts: Attack = async ({ base, end, count }) => {
  let burst = 0;
  while (performance.now() < end) {
    burst += 1;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 300 }, (_, n) =>
        fetch(`${base}/api/v1/jwt-token/`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': `10.${burst % 250}.${n >> 8}.${n & 255}`,
          },
          body: JSON.stringify({ email: `guess${n}@bench.example`, password: 'a guess' }),
        }).then((reply) => count('login', reply.status)),
      ),
    );
    await sleep(Math.max(0, 2000 - (performance.now() - started)));
  }
};

/**
 * The largest legal ride (IMPORT_MAX_SAMPLES one-second records with positions, power and
 * heart rate), made once before the phases and gzipped as bulk exports send it. Each upload
 * gets a gzip header time of its own: the same ride, a new file to the duplicate check.
 */
let largestRide: Uint8Array | undefined;
let largestStreams: ReturnType<typeof simulateRide> | undefined;
function largestLegalRide(): Uint8Array {
  largestStreams ??= simulateRide({
    seconds: configFromEnv().importMaxSamples - 1000,
    seed: 3,
    ftpWatts: 140,
    hilliness: 0.3,
  });
  largestRide ??= gzipSync(
    encodeFit(activityFromStreams(largestStreams, { startTime: 1_791_000_000, sport: 2 })),
  );
  const copy = Uint8Array.from(largestRide);
  new DataView(copy.buffer).setUint32(4, ++largestUploads, true);
  return copy;
}
let largestUploads = 0;

/** Uploads a largest legal ride as `access`; its id, if it was stored. */
async function postLargest(base: string, access: string): Promise<{ status: number; id?: number }> {
  const part = multipartBody(
    {},
    { name: 'file', filename: 'largest.fit.gz', bytes: largestLegalRide() },
  );
  const reply = await fetch(`${base}/api/v2/workouts/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access}`, 'content-type': part.contentType },
    body: part.body,
  });
  const body = (await reply.json()) as { data?: { id: number } };
  return { status: reply.status, ...(body.data ? { id: body.data.id } : {}) };
}

/**
 * Two uploads of the largest legal ride at a time, one after another until the phase ends,
 * each deleted once stored (the rider's storage quota stays free).
 */
const largestLegalImports: Attack = async ({ base, end, rider, count }) => {
  const access = await rider('heavy');
  await Promise.all(
    [0, 1].map(async () => {
      while (performance.now() < end) {
        const { status, id } = await postLargest(base, access);
        count('largest import', status);
        if (id !== undefined)
          await fetch(`${base}/api/v2/workouts/${id}/`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${access}` },
          });
      }
    }),
  );
};

/** The share link of a largest legal ride whose rider keeps the most privacy zones. */
let zonedShare: string | undefined;
const prepareZonedShare = async (base: string, rider: AttackContext['rider']) => {
  const access = await rider('zoned');
  const auth = { authorization: `Bearer ${access}`, 'content-type': 'application/json' };
  const { id } = await postLargest(base, access);
  if (id === undefined) throw new Error('The largest legal ride was not stored');
  // Every zone on the track: each hides a stretch of it.
  const { latitude, longitude } = largestStreams!;
  for (let zone = 0; zone < MAX_PRIVACY_ZONES; zone++) {
    const at = Math.floor(((zone + 0.5) * latitude!.length) / MAX_PRIVACY_ZONES);
    await fetch(`${base}/api/v2/privacy-zones/`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        name: `zone ${zone}`,
        latitude: latitude![at],
        longitude: longitude![at],
        radius_m: 500,
      }),
    });
  }
  const shared = await fetch(`${base}/api/v2/workouts/${id}/`, {
    method: 'PATCH',
    headers: auth,
    body: JSON.stringify({ shared: true }),
  });
  zonedShare = ((await shared.json()) as { data: { share_id: string } }).data.share_id;
};

/**
 * Anonymous requests for that link (its reply, streams, a range and its picture) on 100
 * connections as fast as the server answers, from 20 addresses (`X-Forwarded-For`, as a
 * botnet would: one address alone is refused by its limit within a second).
 */
const maxPrivacyZoneShares: Attack = async ({ seconds, base, count }) => {
  const paths = ['', 'streams/', 'range/?from=1000&to=200000', 'preview.png'].map(
    (tail) => `/api/v2/share/workouts/${zonedShare}/${tail}`,
  );
  await Promise.all(
    Array.from({ length: 20 }, async (_, n) => {
      const result = await autocannon({
        url: base,
        headers: { 'x-forwarded-for': `198.51.100.${n + 1}` },
        requests: paths.map((path) => ({ method: 'GET', path })),
        connections: 5,
        duration: seconds,
      });
      for (const [status, stats] of Object.entries(result.statusCodeStats ?? {}))
        for (let i = 0; i < (stats.count ?? 0); i++) count('share', Number(status));
    }),
  );
};

/** What an attack needs made before its phase starts (not counted in it). */
const preparations = new Map<
  Attack,
  (base: string, rider: AttackContext['rider']) => Promise<void>
>([
  [maxPrivacyZoneShares, prepareZonedShare],
  [
    largestLegalImports,
    () => {
      largestLegalRide();
      return Promise.resolve();
    },
  ],
]);

const attacks: readonly [string, Attack | undefined][] = [
  ["one rider's flood (200 connections, one token)", oneRiderFlood],
  ['login bursts from many addresses (TRUST_PROXY, X-Forwarded-For)', loginBursts],
  ['largest legal imports in a loop', largestLegalImports],
  ['anonymous share requests, ride with the most privacy zones', maxPrivacyZoneShares],
];

/**
 * Fair share: ordinary riders for PHASE_SECONDS alone, then under each attack in turn, on a
 * server with the default request limits and `TRUST_PROXY` on. Four riders each load a
 * portal page a second (10 requests at once: their list and rides), two more import
 * one-hour rides back to back. The run fails if their p99 grows more than 3x.
 */
async function fairShareRun(): Promise<{ report: string; ok: boolean }> {
  const seconds = Number(process.env.PHASE_SECONDS ?? 10);
  const dir = mkdtempSync(join(tmpdir(), 'xoss-api-bench-fair-'));
  const { server, db } = await createApp({
    dataDir: dir,
    logger: false,
    config: { ...configFromEnv(), trustProxy: true },
  });
  try {
    await server.listen({ port: 0, host: '127.0.0.1' });
    const address = server.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const base = `http://127.0.0.1:${address.port}`;
    const password = 'an ordinary password';
    let riders = 0;
    const rider = async (name: string) => {
      const email = `${name}-${++riders}@bench.example`;
      await createUser(db, email, name, password);
      const reply = await fetch(`${base}/api/v1/jwt-token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${riders}` },
        body: JSON.stringify({ email, password }),
      });
      return ((await reply.json()) as { data: { access: string } }).data.access;
    };
    const post = async (access: string, bytes: Uint8Array, filename: string) => {
      const part = multipartBody({}, { name: 'file', filename, bytes });
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
    const readers = await Promise.all(
      ['ana', 'ben', 'chloe', 'dan'].map(async (name) => {
        const access = await rider(name);
        const ids = [];
        for (let n = 0; n < 3; n++) ids.push((await post(access, nextRide(), `r${n}.fit`)).id);
        return { access, ids };
      }),
    );
    const importers = await Promise.all(['eve', 'finn'].map((name) => rider(name)));

    const phase = async (attack: Attack | undefined) => {
      const end = performance.now() + seconds * 1000;
      const readTimes: number[] = [];
      const importTimes: number[] = [];
      let errors = 0;
      const timed = async (into: number[], request: () => Promise<number>) => {
        const start = performance.now();
        const status = await request().catch(() => 0);
        into.push(performance.now() - start);
        if (status < 200 || status > 299) errors += 1;
      };
      const reading = readers.map(async ({ access, ids }) => {
        const headers = { authorization: `Bearer ${access}` };
        const get = (path: string) => async () => {
          const reply = await fetch(`${base}${path}`, { headers });
          await reply.arrayBuffer();
          return reply.status;
        };
        const page = [
          get('/api/v2/workouts/'),
          get('/api/v2/workouts/totals/'),
          ...ids.flatMap((id) => [get(`/api/v2/workouts/${id}/`), get(`/api/v2/workouts/${id}/`)]),
          get('/api/v2/workouts/?page=1'),
          get(`/api/v2/workouts/${ids[0]}/`),
        ];
        while (performance.now() < end) {
          const started = performance.now();
          await Promise.all(page.map((request) => timed(readTimes, request)));
          await sleep(Math.max(0, 1000 - (performance.now() - started)));
        }
      });
      const importing = importers.map(async (access, n) => {
        for (let i = 0; performance.now() < end; i++)
          await timed(
            importTimes,
            async () => (await post(access, nextRide(), `i${n}-${i}.fit`)).status,
          );
      });
      const statuses: Record<string, number> = {};
      const count = (what: string, status: number) => {
        statuses[`${what} ${status}`] = (statuses[`${what} ${status}`] ?? 0) + 1;
      };
      await Promise.all([
        ...reading,
        ...importing,
        attack?.({ base, db, end, seconds, rider, count }),
      ]);
      return {
        reads: readTimes.length,
        readP50: percentile(readTimes, 0.5),
        readP99: percentile(readTimes, 0.99),
        imports: importTimes.length,
        importP50: percentile(importTimes, 0.5),
        importP99: percentile(importTimes, 0.99),
        errors,
        statuses,
      };
    };

    const quiet = await phase(undefined);
    const ms = (value: number) => value.toFixed(0);
    const row = (name: string, p: typeof quiet, ratios = '') =>
      `| ${name} | ${p.reads} | ${ms(p.readP50)} | ${ms(p.readP99)} | ${p.imports} | ${ms(p.importP50)} | ${ms(p.importP99)} | ${p.errors} |${ratios}`;
    const lines = [
      `\nFair share, ${seconds} s per phase, default request limits, TRUST_PROXY on: four riders each load a page a second (10 requests), two import one-hour rides back to back; alone, then under each attack\n`,
      '| phase | reads | read p50 ms | read p99 ms | imports | import p50 ms | import p99 ms | errors | p99 x quiet (reads, imports) |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      row('quiet', quiet, ' |'),
    ];
    const notes: string[] = [];
    let ok = quiet.errors === 0;
    for (const [name, attack] of attacks) {
      if (!attack) {
        lines.push(`| ${name} | not written yet (hook in bench/run.ts) | | | | | | | |`);
        continue;
      }
      await preparations.get(attack)?.(base, rider);
      const attacked = await phase(attack);
      const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
      const reads = ratio(attacked.readP99, quiet.readP99);
      const imports = ratio(attacked.importP99, quiet.importP99);
      const within = reads <= 3 && imports <= 3 && attacked.errors === 0;
      ok &&= within;
      lines.push(
        row(
          name,
          attacked,
          ` ${reads.toFixed(1)}x, ${imports.toFixed(1)}x: ${within ? 'within 3x' : 'OVER 3x'} |`,
        ),
      );
      notes.push(
        `${name}: ${Object.entries(attacked.statuses)
          .map(([what, n]) => `${n} × ${what}`)
          .join(', ')}`,
      );
    }
    return { report: [...lines, '', ...notes].join('\n'), ok };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const dir = mkdtempSync(join(tmpdir(), 'xoss-api-bench-'));
// Capacity, not a rider: the request limits are lifted on this server (one token on 200
// connections is exactly what they refuse). The fair-share run below keeps the defaults.
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

  const attack = await fairShareRun();

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
