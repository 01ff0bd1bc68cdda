// Over 500 lines: one bench, its riders and its five attacks, each run in a thread of this file.
/// <reference types="node" />
// Fair share (`pnpm bench`): on a server with the default request limits and `TRUST_PROXY`
// on, four riders each load a portal page a second (10 requests at once: their list and
// rides) and two more import one-hour rides back to back, for PHASE_SECONDS alone, then under
// each attack in turn: one rider's flood, one rider's flood of the longest fitness chart, login bursts from many addresses, the largest legal
// imports in a loop, anonymous share requests on a ride with the most privacy zones. The run
// fails if the riders' p99 grows more than 2x under one rider's flood (issue #53), 3x under
// the others, or one of their requests fails.
//
// The server has the main thread to itself, as it would in production: the riders run in one
// worker thread and each attack in another, so neither the riders' nor the attacker's
// client work (building requests, reading replies) is counted as the server's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance as clock } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { simulateRide } from '@xoss/workout-stats';
import autocannon from 'autocannon';
import { createApp } from '../src/app.ts';
import { configFromEnv } from '../src/platform/config.ts';
import { createUser } from '../src/commands/createUser.ts';
import { MAX_PRIVACY_ZONES } from '../src/share/store.ts';
import { multipartBody } from '../src/testing/multipart.ts';

const SECONDS = Number(process.env.PHASE_SECONDS ?? 10);
/**
 * The most the other riders' p99 may grow under an attack, times quiet's: 2x under one
 * rider's flood (issue #53), 3x under the attacks of many addresses or the largest imports.
 */
const limitOf = (attack: AttackName) => (attack === 'flood' || attack === 'fitness' ? 2 : 3);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Uploads `bytes` as `access`; the reply's status and the ride's id, if it was stored. */
async function post(
  base: string,
  access: string,
  bytes: Uint8Array,
  filename: string,
): Promise<{ status: number; id?: number }> {
  const part = multipartBody({}, { name: 'file', filename, bytes });
  const reply = await fetch(`${base}/api/v2/workouts/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access}`, 'content-type': part.contentType },
    body: part.body,
  });
  const body = (await reply.json()) as { data?: { id: number } };
  return { status: reply.status, ...(body.data ? { id: body.data.id } : {}) };
}

/** What an attack's thread gets. */
interface AttackData {
  readonly role: 'attack';
  readonly attack: AttackName;
  readonly base: string;
  /** An access token of a rider of the attacker's own. */
  readonly token: string;
  /** The largest legal ride, gzipped (for the imports loop). */
  readonly largest?: Uint8Array;
  /** The share link of a largest ride with the most privacy zones. */
  readonly zonedShare?: string;
}
/** Where an attack's replies go: `what` and its status. */
type Count = (what: string, status: number) => void;
type Attack = (data: AttackData, end: number, count: Count) => Promise<void>;

/** One rider's token on 200 connections asking for `path`, as fast as the server answers. */
async function flood(
  { base, token }: AttackData,
  path: string,
  end: number,
  count: Count,
  what: string,
): Promise<void> {
  const result = await autocannon({
    url: `${base}${path}`,
    headers: { authorization: `Bearer ${token}` },
    connections: 200,
    duration: Math.max(1, Math.round((end - performance.now()) / 1000)),
  });
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {}))
    for (let i = 0; i < (stats.count ?? 0); i++) count(what, Number(status));
}

/** One rider's flood of the rides list. */
const oneRiderFlood: Attack = (data, end, count) =>
  flood(data, '/api/v2/workouts/', end, count, 'flood');

/**
 * One rider's flood of the longest fitness chart (20 years of days, the most one call may
 * ask for): the costliest read a rider may send, over and over.
 */
const fitnessFlood: Attack = (data, end, count) => {
  const to = new Date().toISOString().slice(0, 10);
  const from = `${Number(to.slice(0, 4)) - 20}${to.slice(4)}`;
  return flood(
    data,
    `/api/v2/training/fitness/?from=${from}&to=${to}`,
    end,
    count,
    'fitness flood',
  );
};

/** Bursts of 300 logins, each from an address of its own (`TRUST_PROXY`), every 2 s. */
const loginBursts: Attack = async ({ base }, end, count) => {
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
        }).then(
          async (reply) => {
            await reply.arrayBuffer();
            count('login', reply.status);
          },
          () => count('login', 0),
        ),
      ),
    );
    await sleep(Math.max(0, 2000 - (performance.now() - started)));
  }
};

/**
 * Two uploads of the largest legal ride at a time, one after another until the phase ends,
 * each deleted once stored (the rider's storage quota stays free). Each upload gets a gzip
 * header time of its own: the same ride, a new file to the duplicate check.
 */
const largestLegalImports: Attack = async ({ base, token, largest }, end, count) => {
  let uploads = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (performance.now() < end) {
        const copy = Uint8Array.from(largest!);
        new DataView(copy.buffer).setUint32(4, ++uploads, true);
        const { status, id } = await post(base, token, copy, 'largest.fit.gz');
        count('largest import', status);
        if (id !== undefined)
          await fetch(`${base}/api/v2/workouts/${id}/`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${token}` },
          });
      }
    }),
  );
};

/**
 * Anonymous requests for the zoned link (its reply, streams, a range and its picture) on 100
 * connections as fast as the server answers, from 20 addresses (`X-Forwarded-For`, as a
 * botnet would: one address alone is refused by its limit within a second).
 */
const maxPrivacyZoneShares: Attack = async ({ base, zonedShare }, end, count) => {
  // Each range a new one (as an attacker would ask, so no reply can be kept for the next).
  let ranges = 0;
  const paths = ['', 'streams/', 'range/', 'preview.png'].map(
    (tail) => `/api/v2/share/workouts/${zonedShare}/${tail}`,
  );
  const requests = paths.map((path) =>
    path.endsWith('range/')
      ? {
          method: 'GET' as const,
          path,
          setupRequest: (request: autocannon.Request) => ({
            ...request,
            path: `${path}?from=${1000 + (++ranges % 5000)}&to=200000`,
          }),
        }
      : { method: 'GET' as const, path },
  );
  const duration = Math.max(1, Math.round((end - performance.now()) / 1000));
  await Promise.all(
    Array.from({ length: 20 }, async (_, n) => {
      const result = await autocannon({
        url: base,
        headers: { 'x-forwarded-for': `198.51.100.${n + 1}` },
        requests,
        connections: 5,
        duration,
      });
      for (const [status, stats] of Object.entries(result.statusCodeStats ?? {}))
        for (let i = 0; i < (stats.count ?? 0); i++) count('share', Number(status));
    }),
  );
};

const attacks = {
  flood: ["one rider's flood (200 connections, one token)", oneRiderFlood],
  fitness: ["one rider's flood of the 20-year fitness chart (200 connections)", fitnessFlood],
  logins: ['login bursts from many addresses (TRUST_PROXY, X-Forwarded-For)', loginBursts],
  largest: ['largest legal imports in a loop', largestLegalImports],
  shares: ['anonymous share requests, ride with the most privacy zones', maxPrivacyZoneShares],
} as const satisfies Record<string, readonly [string, Attack]>;
type AttackName = keyof typeof attacks;

/** What the riders' thread gets. */
interface RidersData {
  readonly role: 'riders';
  readonly base: string;
  readonly readers: readonly string[];
  readonly importers: readonly string[];
}

/** One phase's figures, as the riders saw them. */
interface PhaseResult {
  readonly reads: number;
  readonly readP50: number;
  readonly readP99: number;
  readonly imports: number;
  readonly importP50: number;
  readonly importP99: number;
  readonly errors: number;
}

/** The ordinary riders: three rides each to read, then one phase per 'go'. */
async function riders({ base, readers, importers }: RidersData) {
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
  // The files of a phase's imports are written before it starts: the riders' own client
  // work (encoding FIT files) should not take the CPU the server is measured on.
  let prepared: Uint8Array[] = [];
  const prepare = () => {
    prepared = Array.from({ length: SECONDS * 20 }, nextRide);
  };
  const withRides = await Promise.all(
    readers.map(async (access) => {
      const ids = [];
      for (let n = 0; n < 3; n++) ids.push((await post(base, access, nextRide(), `r${n}.fit`)).id);
      return { access, ids };
    }),
  );

  const phase = async (): Promise<PhaseResult> => {
    const end = performance.now() + SECONDS * 1000;
    const readTimes: number[] = [];
    const importTimes: number[] = [];
    let errors = 0;
    const timed = async (into: number[], request: () => Promise<number>) => {
      const start = performance.now();
      const status = await request().catch(() => 0);
      into.push(performance.now() - start);
      if (status < 200 || status > 299) errors += 1;
    };
    const reading = withRides.map(async ({ access, ids }) => {
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
          async () =>
            (await post(base, access, prepared.pop() ?? nextRide(), `i${n}-${i}.fit`)).status,
        );
    });
    await Promise.all([...reading, ...importing]);
    return {
      reads: readTimes.length,
      readP50: percentile(readTimes, 0.5),
      readP99: percentile(readTimes, 0.99),
      imports: importTimes.length,
      importP50: percentile(importTimes, 0.5),
      importP99: percentile(importTimes, 0.99),
      errors,
    };
  };
  prepare();
  parentPort!.postMessage({ ready: true });
  parentPort!.on('message', () => {
    void phase().then((result) => {
      prepare();
      parentPort!.postMessage({ result });
    });
  });
}

/** An attack's thread: waits for 'go', attacks for SECONDS, then sends its tally. */
function attacker(data: AttackData) {
  parentPort!.once('message', () => {
    const statuses: Record<string, number> = {};
    const count: Count = (what, status) => {
      statuses[`${what} ${status}`] = (statuses[`${what} ${status}`] ?? 0) + 1;
    };
    const attack = attacks[data.attack][1];
    void attack(data, performance.now() + SECONDS * 1000, count).then(() =>
      parentPort!.postMessage({ statuses }),
    );
  });
  parentPort!.postMessage({ ready: true });
}

/** Starts this file in a thread with `data`; resolves once the thread says it is ready. */
async function thread(data: RidersData | AttackData): Promise<Worker> {
  const worker = new Worker(new URL(import.meta.url), { workerData: data });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => resolve());
  });
  return worker;
}
const reply = <T>(worker: Worker, key: string) =>
  new Promise<T>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message: Record<string, T>) => resolve(message[key]!));
  });

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'xoss-api-bench-fair-'));
  const { server, db } = await createApp({
    dataDir: dir,
    logger: false,
    config: { ...configFromEnv(), trustProxy: 1 },
  });
  const threads: Worker[] = [];
  try {
    await server.listen({ port: 0, host: '127.0.0.1' });
    const address = server.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const base = `http://127.0.0.1:${address.port}`;
    const password = 'an ordinary password';
    let riderCount = 0;
    const rider = async (name: string) => {
      const email = `${name}-${++riderCount}@bench.example`;
      await createUser(db, email, name, password);
      for (;;) {
        const login = await fetch(`${base}/api/v1/jwt-token/`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': `192.0.2.${riderCount}`,
          },
          body: JSON.stringify({ email, password }),
        });
        // Sign-ins beyond the server's hashes per second are refused: wait as told.
        if (login.status === 503) {
          await sleep(Number(login.headers.get('retry-after') ?? 1) * 1000);
          continue;
        }
        return ((await login.json()) as { data: { access: string } }).data.access;
      }
    };

    // The largest legal ride (IMPORT_MAX_SAMPLES one-second records with positions, power
    // and heart rate), gzipped as bulk exports send it.
    const largestStreams = simulateRide({
      seconds: configFromEnv().importMaxSamples - 1000,
      seed: 3,
      ftpWatts: 140,
      hilliness: 0.3,
    });
    const largest = gzipSync(
      encodeFit(activityFromStreams(largestStreams, { startTime: 1_791_000_000, sport: 2 })),
    );
    // Its share link, with every privacy zone the rider may keep on the track.
    const zonedToken = await rider('zoned');
    const zonedAuth = { authorization: `Bearer ${zonedToken}`, 'content-type': 'application/json' };
    const { id: zonedId } = await post(base, zonedToken, largest, 'zoned.fit.gz');
    if (zonedId === undefined) throw new Error('The largest legal ride was not stored');
    const { latitude, longitude } = largestStreams;
    for (let zone = 0; zone < MAX_PRIVACY_ZONES; zone++) {
      const at = Math.floor(((zone + 0.5) * latitude!.length) / MAX_PRIVACY_ZONES);
      await fetch(`${base}/api/v2/privacy-zones/`, {
        method: 'POST',
        headers: zonedAuth,
        body: JSON.stringify({
          name: `zone ${zone}`,
          latitude: latitude![at],
          longitude: longitude![at],
          radius_m: 500,
        }),
      });
    }
    const shared = await fetch(`${base}/api/v2/workouts/${zonedId}/`, {
      method: 'PATCH',
      headers: zonedAuth,
      body: JSON.stringify({ shared: true }),
    });
    const zonedShare = ((await shared.json()) as { data: { share_id: string } }).data.share_id;

    const readers = [];
    for (const name of ['ana', 'ben', 'chloe', 'dan']) readers.push(await rider(name));
    const importers = [await rider('eve'), await rider('finn')];
    const ridersThread = await thread({ role: 'riders', base, readers, importers });
    threads.push(ridersThread);

    const phase = async (name?: AttackName) => {
      const attack = name
        ? await thread({
            role: 'attack',
            attack: name,
            base,
            token: await rider(`mallory-${name}`),
            ...(name === 'largest' ? { largest } : {}),
            ...(name === 'shares' ? { zonedShare } : {}),
          })
        : undefined;
      if (attack) threads.push(attack);
      const delay = monitorEventLoopDelay({ resolution: 5 });
      const busyBefore = clock.eventLoopUtilization();
      delay.enable();
      const result = reply<PhaseResult>(ridersThread, 'result');
      const statuses = attack ? reply<Record<string, number>>(attack, 'statuses') : undefined;
      ridersThread.postMessage('go');
      attack?.postMessage('go');
      const [figures, tally] = await Promise.all([result, statuses]);
      delay.disable();
      const loop = {
        busy: clock.eventLoopUtilization(busyBefore).utilization,
        maxDelay: delay.max / 1e6,
      };
      await attack?.terminate();
      return { ...figures, statuses: tally ?? {}, loop };
    };

    const quiet = await phase();
    const ms = (value: number) => value.toFixed(0);
    const row = (name: string, p: Awaited<ReturnType<typeof phase>>, ratios = '') =>
      `| ${name} | ${p.reads} | ${ms(p.readP50)} | ${ms(p.readP99)} | ${p.imports} | ${ms(p.importP50)} | ${ms(p.importP99)} | ${p.errors} | ${(p.loop.busy * 100).toFixed(0)} % | ${ms(p.loop.maxDelay)} |${ratios}`;
    const lines = [
      `\nFair share, ${SECONDS} s per phase, default request limits, TRUST_PROXY on: four riders each load a page a second (10 requests), two import one-hour rides back to back; alone, then under each attack (riders and attackers in threads of their own)\n`,
      '| phase | reads | read p50 ms | read p99 ms | imports | import p50 ms | import p99 ms | errors | server loop busy | its longest block ms | p99 x quiet (reads, imports) |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      row('quiet', quiet, ' |'),
    ];
    const notes: string[] = [];
    let ok = quiet.errors === 0;
    const only = process.env.FAIR_ATTACKS?.split(',');
    for (const name of Object.keys(attacks) as AttackName[]) {
      if (only && !only.includes(name)) continue;
      const attacked = await phase(name);
      const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
      const reads = ratio(attacked.readP99, quiet.readP99);
      const imports = ratio(attacked.importP99, quiet.importP99);
      const limit = limitOf(name);
      const within = reads <= limit && imports <= limit && attacked.errors === 0;
      ok &&= within;
      lines.push(
        row(
          attacks[name][0],
          attacked,
          ` ${reads.toFixed(1)}x, ${imports.toFixed(1)}x: ${within ? `within ${limit}x` : `OVER ${limit}x`} |`,
        ),
      );
      notes.push(
        `${attacks[name][0]}: ${Object.entries(attacked.statuses)
          .map(([what, n]) => `${n} × ${what}`)
          .join(', ')}`,
      );
    }
    console.log([...lines, '', ...notes].join('\n'));
    if (!ok) process.exitCode = 1;
  } finally {
    await Promise.all(threads.map((worker) => worker.terminate()));
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const data = workerData as RidersData | AttackData | undefined;
if (isMainThread) await main();
else if (data?.role === 'riders') await riders(data);
else if (data?.role === 'attack') attacker(data);
