/// <reference types="node" />
// The import queue's own cost (pg-boss, as `imports/importJobs.ts` sets it up) on the
// embedded database and on PostgreSQL: 20 jobs one after another (median and p99 from send
// to the handler running: what every import waits for the queue) and 300 jobs sent at once
// (jobs/s until every handler has run). `node --conditions=@xoss/source bench/queue.ts`.
import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { PgBoss, fromPglite, type ConstructorOptions } from 'pg-boss';
import { startPostgres } from '../test/postgres.ts';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
};

async function measure(label: string, connection: ConstructorOptions) {
  const boss = new PgBoss({
    ...connection,
    schema: 'pgboss',
    useListenNotify: true,
    schedule: false,
  });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.createQueue('bench', { notify: true, heartbeatSeconds: 10 });
  await boss.getJobById('bench', randomUUID());
  const waiting = new Map<number, () => void>();
  // As `imports/importJobs.ts` does: one worker per thread, told to fetch again at once.
  for (let i = 0; i < 2; i++) {
    const self = { id: '' };
    self.id = await boss.work<{ n: number }>(
      'bench',
      { localConcurrency: 1, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 0.5 },
      ([job]) => {
        if (job) waiting.get(job.data.n)?.();
        if (job && self.id && !process.env.QUEUE_NO_WAKE) boss.notifyWorker(self.id);
        return Promise.resolve();
      },
    );
  }
  const ran = (n: number) => new Promise<void>((resolve) => waiting.set(n, resolve));
  const latencies: number[] = [];
  for (let n = 0; n < 20; n++) {
    const done = ran(n);
    const begin = performance.now();
    await boss.send('bench', { n });
    await done;
    latencies.push(performance.now() - begin);
  }
  const burst = Array.from({ length: 300 }, (_, i) => 1000 + i);
  const all = Promise.all(burst.map(ran));
  const begin = performance.now();
  await Promise.all(burst.map((n) => boss.send('bench', { n })));
  await all;
  const seconds = (performance.now() - begin) / 1000;
  await boss.stop({ graceful: false, close: true, timeout: 2000 });
  console.log(
    `| ${label.padEnd(10)} | ${percentile(latencies, 0.5).toFixed(0).padStart(9)} | ${percentile(latencies, 0.99).toFixed(0).padStart(9)} | ${(300 / seconds).toFixed(0).padStart(12)} |`,
  );
}

console.log('\npg-boss: one job at a time (send to handler), and 300 jobs at once\n');
console.log('| database   | median ms |    p99 ms | 300 at once: jobs/s |');
console.log('| ---------- | --------: | --------: | ------------------: |');
const pglite = await PGlite.create();
await measure('PGlite', { db: fromPglite(pglite), backend: 'pglite' });
await pglite.close();
const postgres = await startPostgres();
try {
  await measure('PostgreSQL', { connectionString: postgres.url, max: 4 });
} finally {
  postgres.stop();
}
