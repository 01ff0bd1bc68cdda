import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/platform/config.ts';
import { bearerMatches } from '../src/platform/digest.ts';
import { startPostgres } from './postgres.ts';
import {
  bearer,
  fitFile,
  PASSWORD,
  pgliteFactory,
  postgresFactory,
  suiteHarnesses,
  upload,
  type Harness,
} from './harness.ts';

// Security item: `/metrics` is served only when METRICS_TOKEN is set, and only to a request
// bearing that token (compared in constant time); otherwise it is a 404 (unset) or 401.

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample of the exposition text, or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}) {
  const wanted = Object.entries(labels);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = new Map(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    if (wanted.every(([key, value]) => have.get(key) === value) && have.size === wanted.length)
      return Number(match[3]);
  }
  return undefined;
}

const scrape = async (h: Harness) => {
  const reply = await h.server.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
  expect(reply.statusCode).toBe(200);
  expect(reply.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return reply.body;
};

const ready = (h: Harness) => h.server.inject({ method: 'GET', url: '/api/ready' });

/** Lines of the log whose message is exactly `message`. */
const logged = (h: Harness, message: string) =>
  h.logs.filter((line) => (JSON.parse(line) as { msg: string }).msg === message);

describe('operator metrics and readiness', () => {
  const make = suiteHarnesses(pgliteFactory);

  it('is a 404 without METRICS_TOKEN, and a 401 without the token or with a wrong one', async () => {
    const off = await make();
    const unset = await off.server.inject({
      method: 'GET',
      url: '/metrics',
      headers: bearer(TOKEN),
    });
    expect(unset.statusCode).toBe(404);
    expect(unset.json()).toMatchObject({ code: 10404, msg: 'not_found' });

    const on = await make({ metricsToken: TOKEN });
    for (const headers of [
      {},
      bearer('metrics-token-0123456789abcdeX'),
      { authorization: TOKEN },
    ]) {
      const reply = await on.server.inject({ method: 'GET', url: '/metrics', headers });
      expect(reply.statusCode).toBe(401);
      expect(reply.json()).toMatchObject({ code: 10001, msg: 'token_not_valid' });
      expect(reply.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(reply.body).not.toContain('xoss_');
    }
    expect(on.logs.filter((line) => line.includes('"security":"metrics.refused"'))).toHaveLength(3);
    expect((await on.server.inject({ url: '/metrics', headers: bearer(TOKEN) })).statusCode).toBe(
      200,
    );
  });

  it('compares the bearer token exactly', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN.slice(1)}`, TOKEN)).toBe(false);
    expect(bearerMatches(`Basic ${TOKEN}`, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
    expect(bearerMatches('Bearer ', TOKEN)).toBe(false);
  });

  it('refuses a METRICS_TOKEN too short to resist guessing', () => {
    expect(() => configFromEnv({ METRICS_TOKEN: 'short' })).toThrow(/at least 16 characters/);
    expect(configFromEnv({ METRICS_TOKEN: ` ${TOKEN} ` }).metricsToken).toBe(TOKEN);
    expect(configFromEnv({}).metricsToken).toBeUndefined();
  });

  it('counts requests by route template, imports by outcome, login limits and the queue', async () => {
    const h = await make({ metricsToken: TOKEN, loginFailuresPerAccount: 1 });
    const rider = await h.user();
    const other = await make({ metricsToken: TOKEN });

    const list = await h.server.inject({
      url: '/api/v2/workouts/?page=1',
      headers: bearer(rider.access),
    });
    expect(list.statusCode).toBe(200);
    const imported = await upload(h, '/api/v2/workouts/', rider.access, {
      filename: 'ride.fit',
      bytes: fitFile(600, 41),
    });
    expect(imported.statusCode).toBe(201);
    const id = imported.json<{ data: { id: number } }>().data.id;
    expect(
      (await h.server.inject({ url: `/api/v2/workouts/${id}/`, headers: bearer(rider.access) }))
        .statusCode,
    ).toBe(200);
    const refused = await upload(h, '/api/v2/workouts/', rider.access, {
      filename: 'broken.fit',
      bytes: new Uint8Array([14, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]),
    });
    expect(refused.statusCode).toBe(415);
    expect((await h.server.inject({ url: '/api/v2/no-such-thing/42' })).statusCode).toBe(404);
    // Two wrong passwords: the account's limit (1 failure) refuses the second.
    for (let n = 0; n < 2; n++)
      await h.server.inject({
        method: 'POST',
        url: '/api/v1/jwt-token/',
        payload: { email: rider.email, password: `${PASSWORD}!` },
      });

    const text = await scrape(h);
    const requests = (labels: Record<string, string>) =>
      sample(text, 'xoss_http_requests_total', labels);
    // Logins: the rider's (200), a wrong password (401), one refused by the limit (429).
    expect(requests({ route: '/api/v1/jwt-token/', method: 'POST', status: '200' })).toBe(1);
    expect(requests({ route: '/api/v1/jwt-token/', method: 'POST', status: '429' })).toBe(1);
    expect(requests({ route: '/api/v2/workouts/', method: 'GET', status: '200' })).toBe(1);
    expect(requests({ route: '/api/v2/workouts/', method: 'POST', status: '201' })).toBe(1);
    expect(requests({ route: '/api/v2/workouts/', method: 'POST', status: '415' })).toBe(1);
    // The template, never the ride's own URL; unknown paths share one label.
    expect(requests({ route: '/api/v2/workouts/:id/', method: 'GET', status: '200' })).toBe(1);
    expect(text).not.toContain(`/api/v2/workouts/${id}/`);
    expect(requests({ route: 'unmatched', method: 'GET', status: '404' })).toBe(1);
    expect(text).not.toContain('no-such-thing');
    expect(
      sample(text, 'xoss_http_request_duration_seconds_count', {
        route: '/api/v2/workouts/',
        method: 'POST',
        status: '201',
      }),
    ).toBe(1);

    expect(sample(text, 'xoss_import_outcomes_total', { outcome: 'imported', code: '0' })).toBe(1);
    expect(sample(text, 'xoss_import_outcomes_total', { outcome: 'refused', code: '10415' })).toBe(
      1,
    );
    expect(sample(text, 'xoss_import_job_duration_seconds_count', { outcome: 'imported' })).toBe(1);
    expect(sample(text, 'xoss_import_job_duration_seconds_count', { outcome: 'refused' })).toBe(1);
    expect(sample(text, 'xoss_login_limited_total', { reason: 'rate_limited' })).toBe(1);

    for (const state of ['queued', 'ready', 'deferred', 'active', 'failed'])
      expect(sample(text, 'xoss_import_queue_jobs', { state })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'xoss_import_queue_backing_off')).toBe(0);
    // The embedded database: one connection.
    expect(sample(text, 'xoss_db_pool_connections', { state: 'total' })).toBe(1);
    expect(sample(text, 'xoss_db_pool_waiting')).toBeGreaterThanOrEqual(0);
    // Node's own, the event loop's lag among them.
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'xoss_file_store_errors_total')).toBeUndefined();

    // Another server in the same process counts on its own.
    const otherText = await scrape(other);
    expect(
      sample(otherText, 'xoss_http_requests_total', {
        route: '/api/v2/workouts/',
        method: 'GET',
        status: '200',
      }),
    ).toBeUndefined();
  });

  it('reports each check of /api/ready, and a failing file store once until it recovers', async () => {
    let failing = false;
    const write: typeof writeFile = (...args) =>
      failing
        ? Promise.reject(
            Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
          )
        : writeFile(...args);
    const dataDir = mkdtempSync(join(tmpdir(), 'xoss-ready-'));
    try {
      const h = await make({ metricsToken: TOKEN, minFreeDiskBytes: 1 }, { write, dataDir });
      const fine = await ready(h);
      expect(fine.statusCode).toBe(200);
      const data = fine.json<{ data: Record<string, unknown> }>().data;
      expect(data).toEqual({
        status: 'ready',
        database: 'ok',
        ready: true,
        checks: {
          database: { ok: true },
          fileStore: { ok: true },
          queue: { ok: true, backingOff: false, analysing: 0 },
          disk: { ok: true, freeBytes: expect.any(Number) as number, minFreeBytes: 1 },
        },
      });
      // From elsewhere, each check's state only; the details with the operator's token.
      const stranger = { remoteAddress: '203.0.113.9' };
      expect(
        (await h.server.inject({ url: '/api/ready', ...stranger })).json<{ data: unknown }>().data,
      ).toEqual({
        status: 'ready',
        database: 'ok',
        ready: true,
        checks: {
          database: { ok: true },
          fileStore: { ok: true },
          queue: { ok: true },
          disk: { ok: true },
        },
      });
      // A proxy beside the API connects from loopback too: what it passes on is a stranger's.
      const proxied = await h.server.inject({
        url: '/api/ready',
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(proxied.json<{ data: { checks: unknown } }>().data.checks).toEqual({
        database: { ok: true },
        fileStore: { ok: true },
        queue: { ok: true },
        disk: { ok: true },
      });
      const operator = await h.server.inject({
        url: '/api/ready',
        ...stranger,
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(operator.json<{ data: typeof data }>().data).toMatchObject({
        checks: {
          queue: { backingOff: false },
          disk: { freeBytes: expect.any(Number) as number, minFreeBytes: 1 },
        },
      });

      failing = true;
      for (let poll = 0; poll < 3; poll++) {
        // Past the probe's cache: each poll probes again.
        h.clock += 2_000;
        const reply = await ready(h);
        expect(reply.statusCode).toBe(503);
        expect(reply.headers['retry-after']).toBe('5');
        expect(reply.json()).toMatchObject({
          code: 10503,
          msg: 'unavailable',
          errors: [{ path: 'files', message: 'the file store cannot write' }],
          data: {
            ready: false,
            checks: { database: { ok: true }, fileStore: { ok: false }, disk: { ok: true } },
          },
        });
      }
      expect(logged(h, 'ready check fileStore fails')).toHaveLength(1);
      expect(logged(h, 'ready check fileStore passes again')).toHaveLength(0);
      const down = await scrape(h);
      expect(sample(down, 'xoss_ready_check_ok', { check: 'fileStore' })).toBe(0);
      expect(sample(down, 'xoss_ready_check_ok', { check: 'database' })).toBe(1);
      expect(sample(down, 'xoss_file_store_errors_total', { operation: 'put' })).toBe(3);

      failing = false;
      h.clock += 2_000;
      expect((await ready(h)).statusCode).toBe(200);
      expect((await ready(h)).statusCode).toBe(200);
      expect(logged(h, 'ready check fileStore fails')).toHaveLength(1);
      expect(logged(h, 'ready check fileStore passes again')).toHaveLength(1);
      expect(sample(await scrape(h), 'xoss_ready_check_ok', { check: 'fileStore' })).toBe(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('says not ready when the data folder is short of space or gone, logging each change once', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'xoss-disk-')), 'data');
    try {
      // More free space than any disk has.
      const short = await make({ minFreeDiskBytes: 2 ** 60 }, { dataDir: tmpdir() });
      const full = await ready(short);
      expect(full.statusCode).toBe(503);
      expect(full.json()).toMatchObject({
        errors: [{ path: 'disk', message: 'the disk is almost full' }],
        data: { ready: false, checks: { disk: { ok: false, minFreeBytes: 2 ** 60 } } },
      });
      expect(
        full.json<{ data: { checks: { disk: { freeBytes: number } } } }>().data.checks.disk
          .freeBytes,
      ).toBeGreaterThan(0);

      // A data folder not there (yet): not ready until it is.
      const h = await make({ minFreeDiskBytes: 1 }, { dataDir });
      for (let poll = 0; poll < 2; poll++) {
        const reply = await ready(h);
        expect(reply.statusCode).toBe(503);
        expect(reply.json()).toMatchObject({
          data: { checks: { disk: { ok: false, freeBytes: null } } },
        });
      }
      mkdirSync(dataDir, { recursive: true });
      expect((await ready(h)).statusCode).toBe(200);
      const warn = logged(h, 'ready check disk fails');
      expect(warn).toHaveLength(1);
      expect(JSON.parse(warn[0]!)).toMatchObject({ level: 40, check: 'disk' });
      expect(logged(h, 'ready check disk passes again')).toHaveLength(1);
    } finally {
      rmSync(join(dataDir, '..'), { recursive: true, force: true });
    }
  });

  it('reports the disk as not watched when the server has no data folder', async () => {
    const h = await make();
    expect((await ready(h)).json()).toMatchObject({
      data: { ready: true, checks: { disk: { ok: true, monitored: false } } },
    });
  });
});

describe('operator metrics on PostgreSQL', () => {
  let stop = () => {};
  const make = suiteHarnesses(async () => {
    const server = await startPostgres();
    stop = server.stop;
    return { ...postgresFactory(server.url), close: () => Promise.resolve(stop()) };
  });

  it("reports the pool's connections and a ready server", async () => {
    const h = await make({ metricsToken: TOKEN });
    const rider = await h.user();
    expect(
      (await h.server.inject({ url: '/api/v2/workouts/', headers: bearer(rider.access) }))
        .statusCode,
    ).toBe(200);
    const reply = await ready(h);
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ data: { ready: true, checks: { queue: { ok: true } } } });
    const text = await scrape(h);
    // Queries ran, so the pool holds connections; none is waiting once they are done.
    const total = sample(text, 'xoss_db_pool_connections', { state: 'total' })!;
    expect(total).toBeGreaterThanOrEqual(1);
    expect(total).toBeLessThanOrEqual(10);
    expect(sample(text, 'xoss_db_pool_connections', { state: 'idle' })).toBeLessThanOrEqual(total);
    expect(sample(text, 'xoss_db_pool_waiting')).toBe(0);
    expect(sample(text, 'xoss_ready_check_ok', { check: 'queue' })).toBe(1);
  });
});
