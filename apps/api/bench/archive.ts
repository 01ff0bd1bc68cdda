/// <reference types="node" />
// Archive import (`pnpm bench`): an export archive of ARCHIVE_RIDES (1,000) real activities
// (the FIT corpus's rides, each copy shifted by whole days: distinct files, real records) in
// Strava's layout, imported on the embedded database; printed with rides per second, the
// ratio to the same files uploaded one at a time, and another rider's list p99 during the
// import against their quiet p99. Fails over 3 minutes (for 1,000) or a p99 ratio over 3x.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance as clock } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { decodeFit, encodeFit, type FitActivity, type FitMessage } from '@xoss/activity-files';
import { ZipFile } from 'yazl';
import { createApp } from '../src/app.ts';
import { analyseActivity } from '../src/analysis/analyse.ts';
import { configFromEnv } from '../src/platform/config.ts';
import { createUser } from '../src/commands/createUser.ts';
import { multipartBody } from '../src/testing/multipart.ts';

const RIDES = Number(process.env.ARCHIVE_RIDES ?? 1000);
/** Uploads one at a time, for the ratio (the rate is what counts, not the count). */
const SINGLE = Number(process.env.ARCHIVE_SINGLE ?? 60);
const TARGET_S = 180 * (RIDES / 1000);
const DAY_S = 86_400;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Time fields of the messages: moved with the records. */
const TIME_FIELDS = new Set(['timestamp', 'startTime', 'timeCreated', 'localTimestamp']);
const shifted = (message: FitMessage, by: number): FitMessage => {
  const copy: Record<string, unknown> = { ...message };
  for (const key of TIME_FIELDS) if (typeof copy[key] === 'number') copy[key] = copy[key] + by;
  return copy as FitMessage;
};

/** A real ride moved by `days`: the same records at another date, a file of its own. */
function moved(activity: FitActivity, days: number): Uint8Array {
  const by = days * DAY_S;
  const list = (messages: readonly FitMessage[]) => messages.map((message) => shifted(message, by));
  const records = { ...activity.records, timestamp: activity.records.timestamp.map((t) => t + by) };
  return encodeFit({
    ...activity,
    ...(activity.fileId ? { fileId: shifted(activity.fileId, by) } : {}),
    deviceInfos: list(activity.deviceInfos),
    events: list(activity.events),
    laps: list(activity.laps),
    sessions: list(activity.sessions),
    records,
  });
}

/** The corpus's rides that re-encode: real devices' records, ten minutes or more. */
function corpusRides(): FitActivity[] {
  const folder = new URL('../../../packages/activity-files/test/corpus/fit/', import.meta.url);
  const rides: FitActivity[] = [];
  for (const name of readdirSync(folder)
    .filter((file) => file.endsWith('.fit'))
    .sort()) {
    const decoded = decodeFit(readFileSync(new URL(name, folder)));
    if (!decoded.ok || decoded.value.damage || decoded.value.records.length < 600) continue;
    try {
      // Only rides an import takes (not a device whose clock jumped years mid-ride).
      if (analyseActivity(moved(decoded.value, 0), { maxDurationS: 14 * DAY_S }).ok)
        rides.push(decoded.value);
    } catch {
      // A value our encoder cannot write back (a field off its grid): not used here.
    }
  }
  return rides;
}

async function archiveOf(files: readonly Uint8Array[]): Promise<Buffer> {
  const zip = new ZipFile();
  let csv = 'Activity ID,Activity Date,Activity Name,Activity Type,Filename\n';
  files.forEach((bytes, index) => {
    zip.addBuffer(Buffer.from(gzipSync(bytes)), `activities/${index + 1}.fit.gz`);
    csv += `${index + 1},,Ride ${index + 1},Ride,activities/${index + 1}.fit.gz\n`;
  });
  zip.addBuffer(Buffer.from(csv), 'activities.csv');
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function main() {
  const sources = corpusRides();
  const files = Array.from({ length: RIDES + SINGLE }, (_, i) =>
    moved(sources[i % sources.length]!, 1 + Math.floor(i / sources.length)),
  );
  const archive = await archiveOf(files.slice(0, RIDES));
  console.log(
    `archive: ${RIDES} rides from ${sources.length} corpus files, ${(archive.length / 1048576).toFixed(1)} MB`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'xoss-api-bench-archive-'));
  const { server, db } = await createApp({ dataDir: dir, logger: false, config: configFromEnv() });
  try {
    await server.listen({ port: 0, host: '127.0.0.1' });
    const address = server.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const base = `http://127.0.0.1:${address.port}`;
    const password = 'an ordinary password';
    const rider = async (name: string) => {
      await createUser(db, `${name}@bench.example`, name, password);
      const login = await fetch(`${base}/api/v1/jwt-token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `${name}@bench.example`, password }),
      });
      return ((await login.json()) as { data: { access: string } }).data.access;
    };
    const mover = await rider('mover');
    const single = await rider('single');
    const reader = await rider('reader');
    const get = (access: string, path: string) =>
      fetch(`${base}${path}`, { headers: { authorization: `Bearer ${access}` } });

    // Another rider's reads: their list once every 100 ms, timed.
    const reads = async (until: () => boolean) => {
      const times: number[] = [];
      while (!until()) {
        const start = clock.now();
        await (await get(reader, '/api/v2/workouts/')).arrayBuffer();
        times.push(clock.now() - start);
        await sleep(100);
      }
      return times;
    };
    let quietEnd = false;
    const quietRun = reads(() => quietEnd);
    await sleep(5000);
    quietEnd = true;
    const quiet = await quietRun;

    // One upload at a time, for the rate the archive is compared with.
    const singleStart = clock.now();
    for (const [index, bytes] of files.slice(RIDES).entries()) {
      const part = multipartBody({}, { name: 'file', filename: `s${index}.fit`, bytes });
      const reply = await fetch(`${base}/api/v2/workouts/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${single}`, 'content-type': part.contentType },
        body: part.body,
      });
      if (reply.status !== 201)
        throw new Error(`single upload ${index}: ${reply.status} ${await reply.text()}`);
    }
    const singleRate = SINGLE / ((clock.now() - singleStart) / 1000);

    const start = clock.now();
    const part = multipartBody({}, { name: 'file', filename: 'export.zip', bytes: archive });
    const created = await fetch(`${base}/api/v2/imports/archives/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mover}`, 'content-type': part.contentType },
      body: part.body,
    });
    if (created.status !== 202) throw new Error(`archive upload ${created.status}`);
    const { id } = ((await created.json()) as { data: { id: string } }).data;
    let done = false;
    const busyRun = reads(() => done);
    let progress:
      | {
          status: string;
          imported: number;
          failed: number;
          duplicates: number;
          failures: { name: string; message: string }[];
        }
      | undefined;
    while (!done) {
      await sleep(1000);
      progress = (
        (await (await get(mover, `/api/v2/imports/archives/${id}/`)).json()) as {
          data: typeof progress;
        }
      ).data;
      done = progress!.status !== 'running' && progress!.status !== 'queued';
    }
    const seconds = (clock.now() - start) / 1000;
    const busy = await busyRun;
    const rate = progress!.imported / seconds;
    const ratio = percentile(busy, 0.99) / Math.max(1, percentile(quiet, 0.99));
    console.log(
      `archive of ${RIDES}: ${seconds.toFixed(1)} s (target ${TARGET_S} s), ${rate.toFixed(1)} rides/s; ` +
        `imported ${progress!.imported}, duplicates ${progress!.duplicates}, failed ${progress!.failed}`,
    );
    console.log(
      `one upload at a time: ${singleRate.toFixed(1)} rides/s; the archive is ${(rate / singleRate).toFixed(2)}x that`,
    );
    console.log(
      `another rider's list p99: quiet ${percentile(quiet, 0.99).toFixed(0)} ms, during the import ` +
        `${percentile(busy, 0.99).toFixed(0)} ms (${ratio.toFixed(1)}x, target at most 3x)`,
    );
    for (const failure of progress!.failures.slice(0, 5))
      console.log(`  not imported: ${failure.name}: ${failure.message}`);
    if (progress!.status !== 'done' || progress!.imported + progress!.duplicates < RIDES * 0.95)
      throw new Error(`archive ended ${progress!.status} with ${progress!.imported} imported`);
    if (seconds > TARGET_S) throw new Error(`archive took ${seconds.toFixed(0)} s`);
    if (ratio > 3) throw new Error(`another rider's p99 grew ${ratio.toFixed(1)}x`);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
