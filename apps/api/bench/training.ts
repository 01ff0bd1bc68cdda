/// <reference types="node" />
// `pnpm bench`: how long the training pages' API calls take for a rider with 1,000 rides
// over 5 years, beside one with 30 rides over the last 3 months, on the embedded database:
// the training log of a month (6 weeks), the fitness chart over all time and the bests page
// (all time and this year). Rides are written with the same functions an import uses for the
// daily totals and best efforts (`addToDay`, `storeBests`); their files and streams are left
// out (none of these calls reads them). Prints the median and p95 of 40 calls each (after 5
// warm-up calls) and fails the run when a median is 50 ms or more.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalBlobStore } from '../src/platform/blobStore.ts';
import { configFromEnv } from '../src/platform/config.ts';
import { createUser } from '../src/commands/createUser.ts';
import { openDatabase, type Database } from '../src/platform/db/db.ts';
import { buildServer } from '../src/server.ts';
import { AnalysisPool } from '../src/imports/pool.ts';
import { addToDay, dayOf, rideDelta, storeBests } from '../src/training/days.ts';

const DAY_MS = 86_400_000;
const LIMIT_MS = 50;
const NOW = Date.UTC(2026, 10, 15, 12);

function random(seed: number) {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** `count` rides spread over the `days` before NOW, each with its day totals and bests. */
async function seedRides(db: Database, userId: number, count: number, days: number) {
  const rand = random(count + days);
  const starts = Array.from(
    { length: count },
    () => NOW - Math.floor(rand() * days) * DAY_MS - (6 + rand() * 10) * 3_600_000,
  ).sort((a, b) => a - b);
  for (const startMs of starts) {
    const start = new Date(startMs);
    const moving = 1800 + rand() * 4 * 3600;
    const speed = 6 + rand() * 4;
    const distance = moving * speed;
    const climb = rand() * 1500;
    const tss = (moving / 3600) * (40 + rand() * 60);
    const ftp = 200 + rand() * 80;
    await db.transaction(async (tx) => {
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO workouts (user_id, name, sport_type, start_time, indoor, distance_m, moving_time_s,
           total_time_s, timer_time_s, elevation_gain_m, tss, summary, device_summary, file_key, file_bytes)
         VALUES ($1, 'Ride', 2, $2, false, $3, $4, $4, $4, $5, $6, '{}', '{}', 'bench', 0) RETURNING id`,
        [userId, start, distance, moving, climb, tss],
      );
      const long = (seconds: number) => (moving >= seconds ? ftp * (1 + rand() * 0.1) : null);
      await storeBests(tx, row!.id, userId, start, {
        powerW: [ftp * 3.5, ftp * 1.6, ftp * 1.15, long(1200), long(3600)],
        timeS: [10_000, 20_000, 40_000].map((metres) =>
          distance >= metres ? (metres / speed) * (0.9 + rand() * 0.1) : null,
        ),
      });
      await addToDay(
        tx,
        userId,
        dayOf(start),
        rideDelta({
          tss,
          moving_time_s: moving,
          distance_m: distance,
          elevation_gain_m: climb,
        }),
      );
    });
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'xoss-training-bench-'));
  const db = await openDatabase();
  const pool = new AnalysisPool(1);
  const config = { ...configFromEnv({}), jwtSecret: 'bench-secret-0123456789abcdef' };
  const server = await buildServer({
    db,
    blobs: new LocalBlobStore(join(dir, 'files')),
    config,
    pool,
    now: () => NOW,
  });
  try {
    const password = 'bench password';
    const riders: { label: string; access: string }[] = [];
    for (const [label, count, days] of [
      ['1,000 rides / 5 years', 1000, 5 * 365],
      ['30 rides / 3 months', 30, 91],
    ] as const) {
      const email = `rider${count}@bench.example`;
      const id = await createUser(db, email, `rider${count}`, password);
      const seeding = performance.now();
      await seedRides(db, id, count, days);
      console.log(`seeded ${label} in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
      const login = await server.inject({
        method: 'POST',
        url: '/api/v1/jwt-token/',
        payload: { email, password },
      });
      riders.push({ label, access: login.json<{ data: { access: string } }>().data.access });
    }
    const calls: [string, string][] = [
      ['training log, one month (6 weeks)', '/api/v2/training/log/?from=2026-10-26&to=2026-12-07'],
      ['fitness chart, all time', '/api/v2/training/fitness/'],
      ['fitness chart, 90 days', '/api/v2/training/fitness/?from=2026-08-18&to=2026-11-16'],
      ['bests page, all time', '/api/v2/training/bests/'],
      ['bests page, this year', '/api/v2/training/bests/?year=2026'],
    ];
    const rows: string[][] = [];
    let slow = false;
    for (const [name, url] of calls) {
      const row = [name];
      for (const rider of riders) {
        const times: number[] = [];
        for (let i = 0; i < 45; i++) {
          const start = performance.now();
          const reply = await server.inject({
            method: 'GET',
            url,
            headers: { authorization: `Bearer ${rider.access}` },
          });
          const ms = performance.now() - start;
          if (reply.statusCode !== 200)
            throw new Error(`${url}: ${reply.statusCode} ${reply.body}`);
          if (i >= 5) times.push(ms);
        }
        times.sort((a, b) => a - b);
        const median = times[Math.floor(times.length / 2)]!;
        const p95 = times[Math.floor(times.length * 0.95)]!;
        if (median >= LIMIT_MS) slow = true;
        row.push(`${median.toFixed(1)} ms (p95 ${p95.toFixed(1)})`);
      }
      rows.push(row);
    }
    const header = ['call (median of 40)', ...riders.map((rider) => rider.label)];
    const widths = header.map((_, c) => Math.max(...[header, ...rows].map((r) => r[c]!.length)));
    const line = (cells: string[]) =>
      `| ${cells.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
    console.log(`\nTraining pages on the embedded database (limit ${LIMIT_MS} ms each)`);
    console.log(line(header));
    console.log(line(widths.map((w) => '-'.repeat(w))));
    for (const row of rows) console.log(line(row));
    if (slow) {
      console.error(`\nA median is ${LIMIT_MS} ms or more`);
      process.exitCode = 1;
    }
  } finally {
    await server.close();
    await pool.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
