import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { PASSWORD_HASH_COST } from '../src/auth/passwords.ts';
import { jwtKeys, keyId, signJwt } from '../src/auth/jwt.ts';
import { demoGpx } from '../src/commands/seed.ts';
import { MAX_PRIVACY_ZONES } from '../src/share/store.ts';
import { analysisIdle } from '../src/analysis/precompute.ts';
import {
  activityFromStreams,
  encodeFit,
  recordColumnNames,
  type FitActivity,
} from '@xoss/activity-files';
import { heartRateSecondsByBpm, heartRateStressScore, simulateRide } from '@xoss/workout-stats';
import {
  PASSWORD,
  bearer,
  fitFile,
  suiteHarnesses,
  upload,
  type DatabaseFactory,
  type Harness,
} from './harness.ts';
import { defineTrainingSuite } from './trainingSuite.ts';

const DAY_MS = 86_400_000;

/** The API's integration suite, run on the embedded database and on a real PostgreSQL. */
export function defineApiSuite(makeFactory: () => Promise<DatabaseFactory>): void {
  const make = suiteHarnesses(makeFactory);
  defineTrainingSuite(() => make());

  describe('login and tokens (security 1-9)', () => {
    it('logs in with the spec shape; unknown e-mail, wrong password and inactive user look the same', async () => {
      const h = await make();
      const rider = await h.user('Ana@Example.com');
      const [, payload] = rider.access.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<
        string,
        unknown
      >;
      expect(claims).toMatchObject({ token_type: 'access', sub: String(rider.id) });
      expect(Number(claims.exp) - Number(claims.iat)).toBe(h.config.accessTtlS);
      expect(typeof claims.jti).toBe('string');

      const login = (email: string, password: string) =>
        h.server.inject({
          method: 'POST',
          url: '/api/v1/jwt-token/',
          payload: { email, password },
        });
      const ok = await login('  ana@example.com ', PASSWORD);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ code: 0, msg: 'success', data: { id: String(rider.id) } });
      const wrong = await login('ana@example.com', 'nope');
      const unknown = await login('nobody@example.com', 'nope');
      await h.db.query('UPDATE users SET active = false WHERE id = $1', [rider.id]);
      const inactive = await login('ana@example.com', PASSWORD);
      for (const reply of [wrong, unknown, inactive]) {
        expect(reply.statusCode, reply.body).toBe(401);
        expect(reply.json()).toEqual({
          code: 10301,
          msg: 'wrong_credentials',
          detail: 'Wrong username or password',
        });
      }
    }); // several argon2 hashes: past 5 s when this 2-core machine is shared

    it('spends the same argon2 work on an unknown e-mail as on a wrong password', async () => {
      // At the server's own cost, where argon2 dominates a login: the tests' floor cost is
      // cheap enough for a loaded machine's noise to blur the comparison.
      const h = await make({ passwordHashCost: PASSWORD_HASH_COST });
      await h.user('timing@example.com');
      // The CPU time this process spends on three attempts (argon2 runs on libuv's threads
      // in it), not the wall clock: other processes on a loaded machine stretch the wall
      // clock of either side (a run beside another suite measured 2.3), never this.
      const work = async (email: string) => {
        const before = process.cpuUsage();
        for (let i = 0; i < 3; i++)
          await h.server.inject({
            method: 'POST',
            url: '/api/v1/jwt-token/',
            payload: { email, password: 'wrong password' },
          });
        const used = process.cpuUsage(before);
        return used.user + used.system;
      };
      const ratio = (await work('nobody@example.com')) / (await work('timing@example.com'));
      // argon2 dominates both (tens of ms): an unknown e-mail that skipped it would be ~0.01.
      expect(ratio).toBeGreaterThan(0.5);
      expect(ratio).toBeLessThan(2);
    }); // several argon2 hashes: past 5 s when this 2-core machine is shared

    it('limits failures per account with 429 + Retry-After, and lets the rider back in after the window', async () => {
      const h = await make({ loginFailuresPerAccount: 3, loginWindowS: 900 });
      await h.user('limited@example.com');
      const login = (password: string) =>
        h.server.inject({
          method: 'POST',
          url: '/api/v1/jwt-token/',
          payload: { email: 'limited@example.com', password },
        });
      for (let i = 0; i < 3; i++) expect((await login('bad')).statusCode).toBe(401);
      const limited = await login(PASSWORD);
      expect(limited.statusCode, limited.body).toBe(429);
      expect(limited.json()).toMatchObject({ code: 10302 });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(h.logs.join('')).toContain('login.rateLimited');
      h.clock += 901_000;
      expect((await login(PASSWORD)).statusCode).toBe(200);
    });

    it('limits attempts per IP', async () => {
      const h = await make({ loginAttemptsPerIp: 2 });
      for (let i = 0; i < 2; i++)
        await h.server.inject({
          method: 'POST',
          url: '/api/v1/jwt-token/',
          payload: { email: `x${i}@example.com`, password: 'x' },
        });
      const third = await h.server.inject({
        method: 'POST',
        url: '/api/v1/jwt-token/',
        payload: { email: 'y@example.com', password: 'x' },
      });
      expect(third.statusCode, third.body).toBe(429);
    });

    it('stores argon2id hashes, accepts long passwords of any characters as typed, and upgrades legacy pbkdf2 hashes', async () => {
      const h = await make();
      const rider = await h.user('hash@example.com');
      const [row] = await h.db.query<{ password_hash: string }>(
        'SELECT password_hash FROM users WHERE id = $1',
        [rider.id],
      );
      const match = /^\$argon2id\$v=19\$m=(\d+),p=(\d+),t=(\d+)\$/.exec(row!.password_hash);
      expect(match).not.toBeNull();
      expect(Number(match![1])).toBeGreaterThanOrEqual(19_456);
      expect(Number(match![3])).toBeGreaterThanOrEqual(2);

      const long = ' 自転車-🚴‍♀️-'.repeat(5).padEnd(64, 'x');
      const salt = 'legacysalt';
      const digest = (await import('node:crypto'))
        .pbkdf2Sync(long, salt, 1000, 32, 'sha256')
        .toString('base64');
      await h.db.query('UPDATE users SET password_hash = $1 WHERE id = $2', [
        `pbkdf2_sha256$1000$${salt}$${digest}`,
        rider.id,
      ]);
      const login = (password: string) =>
        h.server.inject({
          method: 'POST',
          url: '/api/v1/jwt-token/',
          payload: { email: 'hash@example.com', password },
        });
      expect((await login(long.trim())).statusCode).toBe(401);
      expect((await login(long)).statusCode).toBe(200);
      const [upgraded] = await h.db.query<{ password_hash: string }>(
        'SELECT password_hash FROM users WHERE id = $1',
        [rider.id],
      );
      expect(upgraded!.password_hash.startsWith('$argon2id$')).toBe(true);
      expect((await login(long)).statusCode).toBe(200);
    });

    it('refuses expired, tampered, alg=none, refresh-as-access and claim-less tokens with 401', async () => {
      const h = await make();
      const rider = await h.user();
      const me = (token: string) =>
        h.server.inject({
          method: 'GET',
          url: `/api/v2/athlete/${rider.id}/`,
          headers: bearer(token),
        });
      expect((await me(rider.access)).statusCode).toBe(200);
      const [header, payload, signature] = rider.access.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
        string,
        string | number
      >;
      const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: '999' })).toString('base64url')}.${signature}`;
      const { exp: _exp, ...noExp } = claims;
      const hs = (body: object) => {
        const p = Buffer.from(JSON.stringify(body)).toString('base64url');
        return `${header}.${p}.${createHmac('sha256', h.config.jwtSecret).update(`${header}.${p}`).digest('base64url')}`;
      };
      for (const token of [none, tampered, rider.refresh, hs(noExp), 'garbage']) {
        const reply = await me(token);
        expect(reply.statusCode, reply.body).toBe(401);
        expect(reply.json()).toMatchObject({ code: 10001, detail: 'Token invalid' });
      }
      h.clock += (h.config.accessTtlS + 1) * 1000;
      const expired = await me(rider.access);
      expect(expired.statusCode, expired.body).toBe(401);
      expect(expired.json()).toMatchObject({ code: 10001, detail: 'Token expired' });
      expect(
        (await h.server.inject({ method: 'GET', url: `/api/v2/athlete/${rider.id}/` })).json(),
      ).toMatchObject({ code: 10001 });
    });

    it('rotates refresh tokens; within the grace window an old one gets the same pair again, after it the family is revoked', async () => {
      const h = await make();
      const rider = await h.user();
      const refresh = (token: string) =>
        h.server.inject({
          method: 'POST',
          url: '/api/v1/jwt-token/refresh/',
          payload: { refresh: token },
        });
      const first = await refresh(rider.refresh);
      expect(first.statusCode, first.body).toBe(200);
      const b = first.json<{ data: { access: string; refresh: string } }>().data;
      expect(b.refresh).not.toBe(rider.refresh);
      // The answer was lost (the tab navigated mid-refresh): the client still holds A and
      // presents it again a few seconds later. It gets B again, not a second live pair.
      h.clock += 3_000;
      const again = await refresh(rider.refresh);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json<{ data: typeof b }>().data).toEqual(b);
      h.clock += 60_000;
      const c = (await refresh(b.refresh)).json<{ data: { refresh: string } }>().data;
      // Once B has been used, A can no longer bring B back, even within B's window.
      expect((await refresh(rider.refresh)).statusCode).toBe(401);
      h.clock += 60_000;
      const reuse = await refresh(b.refresh); // B again, long after it was used: theft
      expect(reuse.statusCode, reuse.body).toBe(401);
      expect(reuse.json()).toMatchObject({ code: 10001 });
      expect((await refresh(c.refresh)).statusCode).toBe(401); // the whole family is revoked
      expect(h.logs.join('')).toContain('refresh.reuse');
    });

    it('gives 10 concurrent refreshes with one token one and the same new pair', async () => {
      const h = await make();
      const rider = await h.user();
      const replies = await Promise.all(
        Array.from({ length: 10 }, () =>
          h.server.inject({
            method: 'POST',
            url: '/api/v1/jwt-token/refresh/',
            payload: { refresh: rider.refresh },
          }),
        ),
      );
      expect(replies.map((reply) => reply.statusCode)).toEqual(Array(10).fill(200));
      const pairs = new Set(replies.map((reply) => reply.body));
      expect(pairs.size).toBe(1);
      const next = replies[0]!.json<{ data: { refresh: string } }>().data.refresh;
      const rotated = await h.server.inject({
        method: 'POST',
        url: '/api/v1/jwt-token/refresh/',
        payload: { refresh: next },
      });
      expect(rotated.statusCode, rotated.body).toBe(200);
      // One token row per rotation: the first login, the pair the ten shared, the last.
      const rows = await h.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1',
        [Number(rider.id)],
      );
      expect(rows[0]!.n).toBe(3);
    });

    it('ends a session at the absolute cap however often it rotates', async () => {
      const h = await make();
      const rider = await h.user();
      let token = rider.refresh;
      let status = 200;
      let days = 0;
      while (status === 200 && days < 40) {
        h.clock += DAY_MS;
        days++;
        const reply = await h.server.inject({
          method: 'POST',
          url: '/api/v1/jwt-token/refresh/',
          payload: { refresh: token },
        });
        status = reply.statusCode;
        if (status === 200) token = reply.json<{ data: { refresh: string } }>().data.refresh;
      }
      expect(status).toBe(401);
      expect(days).toBe(h.config.sessionCapS / 86_400);
    });

    it('revokes on logout, and every session when the account is revoked', async () => {
      const h = await make();
      const rider = await h.user();
      const logout = await h.server.inject({
        method: 'POST',
        url: '/api/v1/jwt-token/logout/',
        payload: { refresh: rider.refresh },
      });
      expect(logout.statusCode, logout.body).toBe(200);
      expect(
        (
          await h.server.inject({
            method: 'POST',
            url: '/api/v1/jwt-token/refresh/',
            payload: { refresh: rider.refresh },
          })
        ).statusCode,
      ).toBe(401);

      const again = await h.server.inject({
        method: 'POST',
        url: '/api/v1/jwt-token/',
        payload: { email: rider.email, password: PASSWORD },
      });
      const pair = again.json<{ data: { access: string; refresh: string } }>().data;
      await h.db.query('UPDATE users SET token_version = token_version + 1 WHERE id = $1', [
        rider.id,
      ]);
      await h.db.query('UPDATE refresh_tokens SET revoked_at = 1 WHERE user_id = $1', [rider.id]);
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/athlete/${rider.id}/`,
            headers: bearer(pair.access),
          })
        ).statusCode,
      ).toBe(401);
      expect(
        (
          await h.server.inject({
            method: 'POST',
            url: '/api/v1/jwt-token/refresh/',
            payload: { refresh: pair.refresh },
          })
        ).statusCode,
      ).toBe(401);
    });

    it('never writes tokens or passwords to the log', async () => {
      const h = await make();
      const rider = await h.user();
      await h.server.inject({
        method: 'POST',
        url: '/api/v1/jwt-token/refresh/',
        payload: { refresh: rider.refresh },
      });
      const log = h.logs.join('');
      expect(log).toContain('login.succeeded');
      expect(log).not.toContain(rider.refresh);
      expect(log).not.toContain(rider.access);
      expect(log).not.toContain(PASSWORD);
    });
  });

  describe('HTTP hardening (security 12, 13, 20-22)', () => {
    it('answers CORS preflights only for configured origins, never with *', async () => {
      const h = await make({ allowedOrigins: ['https://app.xoss.co'] });
      const preflight = (origin: string) =>
        h.server.inject({
          method: 'OPTIONS',
          url: '/api/v2/workouts/',
          headers: {
            origin,
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'authorization',
          },
        });
      const good = await preflight('https://app.xoss.co');
      expect(good.headers['access-control-allow-origin']).toBe('https://app.xoss.co');
      expect(good.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(good.headers['access-control-allow-methods'])).not.toContain('*');
      const evil = await preflight('https://evil.example');
      expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('refuses cross-site form posts without a token, whatever the content type', async () => {
      const h = await make();
      for (const type of [
        'application/x-www-form-urlencoded',
        'text/plain',
        'multipart/form-data; boundary=x',
      ]) {
        const reply = await h.server.inject({
          method: 'POST',
          url: '/api/v2/devices/',
          headers: { 'content-type': type },
          payload: 'serial=X',
        });
        expect(reply.statusCode, reply.body).toBe(401);
      }
    });

    it('answers bad JSON, __proto__ keys, unknown members and bad ids with 400 envelopes', async () => {
      const h = await make();
      const rider = await h.user();
      const json = { ...bearer(rider.access), 'content-type': 'application/json' };
      const bad = await h.server.inject({
        method: 'POST',
        url: '/api/v2/devices/',
        headers: json,
        payload: '{"serial":',
      });
      expect(bad.json()).toMatchObject({ code: 10400 });
      const proto = await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${rider.id}/`,
        headers: json,
        payload: '{"__proto__":{"admin":true}}',
      });
      expect(proto.statusCode, proto.body).toBe(400);
      const extra = await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${rider.id}/`,
        headers: json,
        payload: { id: 5, owner_id: 9 },
      });
      expect(extra.statusCode, extra.body).toBe(400);
      expect(extra.json()).toMatchObject({
        code: 10400,
        errors: [{ path: expect.any(String) as string }],
      });
      for (const url of [
        '/api/v2/workouts/abc/',
        '/api/v2/workouts/-1/',
        '/api/v2/devices/99999999999/',
      ])
        expect(
          (await h.server.inject({ method: 'GET', url, headers: bearer(rider.access) })).statusCode,
        ).toBe(400);
      const article = await h.server.inject({ method: 'GET', url: '/api/v2/posts/abc/' });
      expect(article.json()).toMatchObject({ code: 10404, detail: 'Article id parameter error' });
      expect(
        (await h.server.inject({ method: 'GET', url: '/api/v2/posts/424242/' })).json(),
      ).toMatchObject({ detail: 'Article id parameter error' });
    });

    it('keeps other riders out of workouts, devices, layouts and routebooks', async () => {
      const h = await make();
      const a = await h.user();
      const b = await h.user();
      const workout = (
        await upload(h, '/api/v2/workouts/', a.access, { filename: 'a.fit', bytes: fitFile(600) })
      ).json<{ data: { id: number } }>();
      const device = (
        await h.server.inject({
          method: 'POST',
          url: '/api/v2/devices/',
          headers: bearer(a.access),
          payload: { serial: 'NAV0001', model: 'NAV' },
        })
      ).json<{ data: { id: number } }>();
      const route = (
        await upload(
          h,
          '/api/v2/routebooks/',
          a.access,
          { filename: 'r.gpx', bytes: new TextEncoder().encode(demoGpx(1, 600, false)) },
          { title: 'R' },
        )
      ).json<{ data: { id: number } }>();
      for (const [method, url] of [
        ['GET', `/api/v2/workouts/${workout.data.id}/`],
        ['DELETE', `/api/v2/workouts/${workout.data.id}/`],
        ['GET', `/api/v2/workouts/${workout.data.id}/streams/`],
        ['GET', `/api/v2/devices/${device.data.id}/layout/`],
        ['DELETE', `/api/v2/devices/${device.data.id}/`],
        ['GET', `/api/v2/routebooks/${route.data.id}/gpx/`],
      ] as const) {
        const reply = await h.server.inject({ method, url, headers: bearer(b.access) });
        expect(reply.statusCode, reply.body).toBe(404);
      }
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/athlete/${a.id}/`,
            headers: bearer(b.access),
          })
        ).statusCode,
      ).toBe(403);
      expect(h.logs.join('')).toContain('authorization.failed');
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/workouts/${workout.data.id}/`,
            headers: bearer(a.access),
          })
        ).statusCode,
      ).toBe(200);
    });

    it('answers unexpected failures with a generic 500 and no internals', async () => {
      const h = await make();
      const rider = await h.user();
      await h.db.query('DROP TABLE devices CASCADE');
      const reply = await h.server.inject({
        method: 'GET',
        url: '/api/v2/devices/',
        headers: bearer(rider.access),
      });
      expect(reply.statusCode, reply.body).toBe(500);
      const body = reply.json<{ code: number; detail: string }>();
      expect(body.code).toBe(10500);
      expect(reply.body).not.toMatch(/devices|relation|SELECT|at .*\.ts/);
    });

    it('publishes the OpenAPI document generated from the contract', async () => {
      const h = await make();
      const doc = (await h.server.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
        paths: Record<string, Record<string, unknown>>;
      }>();
      expect(Object.keys(doc.paths)).toContain('/api/v1/jwt-token/');
      expect(doc.paths['/api/v2/workouts/{id}/']).toHaveProperty('patch');
    });
  });

  describe('workouts', () => {
    it('stores and reads bytea byte for byte (streams, files)', async () => {
      const h = await make();
      const bytes = new Uint8Array(70_001);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 151 + (i >> 8)) & 255;
      const view = bytes.subarray(1); // an offset view is stored as its own bytes only
      await h.db.query('CREATE TABLE blob_check (id int, data bytea)');
      await h.db.query('INSERT INTO blob_check VALUES (1, $1), (2, $2), (3, $3)', [
        view,
        new Uint8Array(0),
        null,
      ]);
      const rows = await h.db.query<{ id: number; data: Uint8Array | null }>(
        'SELECT id, data FROM blob_check ORDER BY id',
      );
      expect(rows[0]!.data).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(rows[0]!.data!).equals(Buffer.from(view))).toBe(true);
      expect(rows[1]!.data!.length).toBe(0);
      expect(rows[2]!.data).toBeNull();
    });

    it('sums a period of workouts on the server, with the list filter, for the owner only', async () => {
      const h = await make();
      const rider = await h.user();
      const other = await h.user();
      const auth = bearer(rider.access);
      // 1_790_000_000 is 2026-09-21; the second ride a year earlier.
      for (const [seconds, seed, start] of [
        [900, 1, 1_790_000_000],
        [1200, 2, 1_758_000_000],
      ] as const)
        expect(
          (
            await upload(h, '/api/v2/workouts/', rider.access, {
              filename: `r${seed}.fit`,
              bytes: fitFile(seconds, seed, start),
            })
          ).statusCode,
        ).toBe(201);
      await upload(h, '/api/v2/workouts/', other.access, {
        filename: 'o.fit',
        bytes: fitFile(600, 3),
      });
      const get = async (url: string) => h.server.inject({ method: 'GET', url, headers: auth });
      const list = (await get('/api/v2/workouts/')).json<{
        data: { results: { distance_m: number; moving_time_s: number }[] };
      }>().data.results;
      const all = (await get('/api/v2/workouts/totals/')).json<{
        data: { count: number; distance_m: number; moving_time_s: number };
      }>().data;
      expect(all.count).toBe(2);
      expect(all.distance_m).toBeCloseTo(list[0]!.distance_m + list[1]!.distance_m, 3);
      expect(all.moving_time_s).toBe(list[0]!.moving_time_s + list[1]!.moving_time_s);
      const thisYear = (await get('/api/v2/workouts/totals/?from=2026-01-01')).json<{
        data: { count: number; distance_m: number };
      }>().data;
      expect(thisYear.count).toBe(1);
      expect(
        (await get('/api/v2/workouts/totals/?sport_type=5')).json<{ data: unknown }>().data,
      ).toEqual({ count: 0, distance_m: 0, moving_time_s: 0, elevation_gain_m: 0 });
      const bad = await get('/api/v2/workouts/totals/?from=yesterday');
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.json<{ code: number }>().code).toBe(10400);
      expect(
        (await h.server.inject({ method: 'GET', url: '/api/v2/workouts/totals/' })).statusCode,
      ).toBe(401);
    });

    it('manages a ride: rename, sport, notes, the original file, and the same file imported twice (also at once) lands once', async () => {
      const h = await make();
      const rider = await h.user();
      const bytes = fitFile(600, 31);
      const first = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'a.fit',
        bytes,
      });
      expect(first.statusCode, first.body).toBe(201);
      const id = first.json<{ data: { id: number } }>().data.id;
      // The device's lap (the simulator's file writes one for the whole ride).
      const laps = first.json<{
        data: { laps: { start_s: number; distance_m: number }[]; distance_m: number };
      }>().data;
      expect(laps.laps).toHaveLength(1);
      expect(laps.laps[0]!.start_s).toBe(0);
      expect(laps.laps[0]!.distance_m).toBeCloseTo(laps.distance_m, -1);
      // The same bytes again, under another name: 409 naming the ride that holds them.
      const again = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'copy.fit',
        bytes,
      });
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json()).toMatchObject({
        code: 10409,
        existing_id: id,
        errors: [{ path: 'file', message: 'workouts.duplicate' }],
      });
      // Two tabs drop the same new file at the same moment: one ride, one 409.
      const twin = fitFile(600, 32);
      const racing = await Promise.all(
        [0, 1].map(() =>
          upload(h, '/api/v2/workouts/', rider.access, { filename: 'b.fit', bytes: twin }),
        ),
      );
      expect(racing.map((reply) => reply.statusCode).sort()).toEqual([201, 409]);
      const list = await h.server.inject({
        method: 'GET',
        url: '/api/v2/workouts/',
        headers: bearer(rider.access),
      });
      expect(list.json<{ data: { count: number } }>().data.count).toBe(2);

      const patched = await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/workouts/${id}/`,
        headers: bearer(rider.access),
        payload: { name: 'Gravel loop', sport_type: 1, notes: 'Windy; new tyres.' },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json()).toMatchObject({
        data: { name: 'Gravel loop', sport_type: 1, notes: 'Windy; new tyres.' },
      });
      for (const payload of [{ sport_type: 12 }, { notes: 'x'.repeat(4001) }, { name: ' ' }]) {
        const bad = await h.server.inject({
          method: 'PATCH',
          url: `/api/v2/workouts/${id}/`,
          headers: bearer(rider.access),
          payload,
        });
        expect(bad.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
      }
      const original = await h.server.inject({
        method: 'GET',
        url: `/api/v2/workouts/${id}/fit/`,
        headers: bearer(rider.access),
      });
      expect(original.statusCode, original.body).toBe(200);
      expect(new Uint8Array(original.rawPayload)).toEqual(bytes);
      // The curve offers to compare with the past years the rider rode, and only those.
      const old = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'old.fit',
        bytes: fitFile(600, 33, Date.UTC(2024, 5, 1) / 1000),
      });
      expect(old.statusCode, old.body).toBe(201);
      const curve = await h.server.inject({
        method: 'GET',
        url: `/api/v2/workouts/${id}/power-curve/`,
        headers: bearer(rider.access),
      });
      expect(curve.json<{ data: { years_with_rides: number[] } }>().data.years_with_rides).toEqual([
        2024,
      ]);
      // Deleted, the same file may come back as a new ride.
      await h.server.inject({
        method: 'DELETE',
        url: `/api/v2/workouts/${id}/`,
        headers: bearer(rider.access),
      });
      const back = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'a.fit',
        bytes,
      });
      expect(back.statusCode, back.body).toBe(201);
    });

    it('refuses settings out of bounds, thresholds from a future date and a From after To, each with its reason', async () => {
      const h = await make();
      const rider = await h.user();
      const patch = (payload: Record<string, unknown>) =>
        h.server.inject({
          method: 'PATCH',
          url: `/api/v2/athlete/${rider.id}/`,
          headers: bearer(rider.access),
          payload,
        });
      for (const settings of [
        { ftp: 0 },
        { ftp: 49 },
        { ftp: 701 },
        { max_hr: 0 },
        { max_hr: 99 },
        { max_hr: 231 },
        { privacy_trim_m: -1 },
      ]) {
        const reply = await patch({ settings });
        expect(reply.statusCode, JSON.stringify(settings)).toBe(400);
        expect(reply.json<{ code: number; detail: string }>()).toMatchObject({ code: 10400 });
        expect(reply.json<{ detail: string }>().detail).toMatch(/ftp|max_hr|privacy_trim_m/);
      }
      expect((await patch({ settings: { ftp: 50, max_hr: 230 } })).statusCode).toBe(200);
      expect((await patch({ settings: { ftp: null, max_hr: null } })).statusCode).toBe(200);
      const tomorrow = new Date(h.clock + 86_400_000).toISOString().slice(0, 10);
      const future = await patch({ settings: { ftp: 250 }, thresholds_from: tomorrow });
      expect(future.statusCode, future.body).toBe(400);
      expect(future.json<{ detail: string }>().detail).toMatch(/future/);
      for (const url of [
        '/api/v2/workouts/?from=2026-03-01&to=2026-02-01',
        '/api/v2/workouts/totals/?from=2026-03-01&to=2026-02-01',
      ]) {
        const backwards = await h.server.inject({
          method: 'GET',
          url,
          headers: bearer(rider.access),
        });
        expect(backwards.statusCode, backwards.body).toBe(400);
        expect(backwards.json<{ errors: { message: string }[] }>().errors).toEqual([
          { path: 'from', message: 'The From date is after the To date' },
        ]);
      }
    });

    it('imports a FIT file through the worker, then lists, details, streams, curves, shares and deletes it', async () => {
      const h = await make();
      const rider = await h.user();
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${rider.id}/`,
        headers: bearer(rider.access),
        payload: { settings: { ftp: 240, max_hr: 185 } },
      });
      const reply = await upload(
        h,
        '/api/v2/workouts/',
        rider.access,
        { filename: 'Morning.FIT', bytes: fitFile(1200, 7) },
        { name: 'Morning' },
      );
      expect(reply.statusCode, reply.body).toBe(201);
      const workout = reply.json<{
        data: {
          id: number;
          name: string;
          summary: { np: number; moving_time_s: number };
          power_zones: { name: string; seconds: number }[];
          hr_zones: unknown[];
          device_summary: Record<string, unknown>;
          ftp: number;
          ftp_source: string;
        };
      }>().data;
      expect(workout.name).toBe('Morning');
      expect(workout.summary.np).toBeGreaterThan(0);
      expect(workout.ftp).toBe(240);
      expect(workout.ftp_source).toBe('settings');
      expect(workout.power_zones.map((zone) => zone.name)).toEqual([
        'Active Recovery',
        'Endurance',
        'Tempo',
        'Sweet Spot',
        'Threshold',
        'VO2 Max',
        'Anaerobic Capacity',
      ]);
      expect(workout.power_zones.reduce((sum, zone) => sum + zone.seconds, 0)).toBeGreaterThan(
        1000,
      );
      expect(workout.hr_zones).toHaveLength(5);
      expect(workout.device_summary.totalTimerTime).toBeGreaterThan(0);

      const auth = bearer(rider.access);
      // Zones are cached per settings: a higher FTP moves time into lower zones at once.
      const zoneSeconds = async () =>
        (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/workouts/${workout.id}/`,
            headers: auth,
          })
        ).json<{ data: { ftp: number; power_zones: { seconds: number }[] } }>().data;
      const before = await zoneSeconds();
      expect(before.power_zones.map((zone) => zone.seconds)).toEqual(
        workout.power_zones.map((zone) => zone.seconds),
      );
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${rider.id}/`,
        headers: auth,
        payload: { settings: { ftp: 400 } },
      });
      // A change from today leaves a ride of September alone ...
      expect((await zoneSeconds()).ftp).toBe(240);
      // ... and applies from the date the rider picks.
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${rider.id}/`,
        headers: auth,
        payload: { settings: { ftp: 400 }, thresholds_from: '2026-09-01' },
      });
      const after = await zoneSeconds();
      expect(after.ftp).toBe(400);
      expect(after.power_zones[0]!.seconds).toBeGreaterThan(before.power_zones[0]!.seconds);
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${rider.id}/`,
        headers: auth,
        payload: { settings: { ftp: 240 }, thresholds_from: '2026-09-01' },
      });
      expect((await zoneSeconds()).power_zones).toEqual(before.power_zones);
      const list = (
        await h.server.inject({
          method: 'GET',
          url: '/api/v2/workouts/?sport_type=2&from=2026-01-01',
          headers: auth,
        })
      ).json<{ data: { count: number } }>();
      expect(list.data.count).toBe(1);
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: '/api/v2/workouts/?sport_type=5',
            headers: auth,
          })
        ).json<{ data: { count: number } }>().data.count,
      ).toBe(0);
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: '/api/v2/workouts/?page_size=1000',
            headers: auth,
          })
        ).statusCode,
      ).toBe(400);

      const streams = (
        await h.server.inject({
          method: 'GET',
          url: `/api/v2/workouts/${workout.id}/streams/?points=100`,
          headers: auth,
        })
      ).json<{ data: { length: number; streams: Record<string, unknown[]> } }>();
      expect(streams.data.length).toBeLessThanOrEqual(100);
      expect(streams.data.streams.power).toHaveLength(streams.data.length);
      // Only the streams asked for, each rounded to its resolution, at the same points.
      const some = (
        await h.server.inject({
          method: 'GET',
          url: `/api/v2/workouts/${workout.id}/streams/?points=100&streams=time,power,latitude`,
          headers: auth,
        })
      ).json<{ data: { length: number; streams: Record<string, (number | null)[]> } }>();
      expect(Object.keys(some.data.streams).sort()).toEqual(['latitude', 'power', 'time']);
      expect(some.data.streams.power).toEqual(streams.data.streams.power);
      expect(some.data.streams.time).toEqual(streams.data.streams.time);
      const decimals = (values: (number | null)[], places: number) =>
        values.every(
          (value) => value === null || Math.round(value * 10 ** places) / 10 ** places === value,
        );
      expect(decimals(some.data.streams.latitude!, 6)).toBe(true);
      expect(decimals(streams.data.streams.speed as (number | null)[], 3)).toBe(true);
      expect(decimals(streams.data.streams.altitude as (number | null)[], 2)).toBe(true);
      for (const bad of ['streams=power,bogus', 'streams=', 'streams=,']) {
        const reply = await h.server.inject({
          method: 'GET',
          url: `/api/v2/workouts/${workout.id}/streams/?${bad}`,
          headers: auth,
        });
        expect(reply.statusCode, bad).toBe(400);
        expect(reply.json<{ code: number }>().code).toBe(10400);
      }

      const curve = (
        await h.server.inject({
          method: 'GET',
          url: `/api/v2/workouts/${workout.id}/power-curve/?compare=last6weeks`,
          headers: auth,
        })
      ).json<{
        data: {
          power: { durations: number[]; values: number[] };
          comparison: { workouts: number };
        };
      }>();
      expect(curve.data.power.durations[0]).toBe(1);
      expect(curve.data.power.durations.length).toBeLessThanOrEqual(200);
      expect(curve.data.power.values[0]).toBeGreaterThanOrEqual(curve.data.power.values.at(-1)!);
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/workouts/${workout.id}/power-curve/?compare=year:2020`,
            headers: auth,
          })
        ).json(),
      ).toMatchObject({ data: { comparison: { workouts: 0 } } });

      const shared = (
        await h.server.inject({
          method: 'PATCH',
          url: `/api/v2/workouts/${workout.id}/`,
          headers: auth,
          payload: { shared: true },
        })
      ).json<{ data: { share_id: string } }>();
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/share/workouts/${shared.data.share_id}/`,
          })
        ).statusCode,
      ).toBe(200);
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/workouts/${workout.id}/`,
        headers: auth,
        payload: { shared: false },
      });
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/share/workouts/${shared.data.share_id}/`,
          })
        ).statusCode,
      ).toBe(404);

      const file = await h.server.inject({
        method: 'GET',
        url: `/api/v2/workouts/${workout.id}/fit/`,
        headers: auth,
      });
      expect(file.headers['content-disposition']).toMatch(
        /^attachment; filename="workout-\d+\.fit"/,
      );
      expect(file.rawPayload.subarray(8, 12).toString()).toBe('.FIT');

      expect(
        (
          await h.server.inject({
            method: 'DELETE',
            url: `/api/v2/workouts/${workout.id}/`,
            headers: auth,
          })
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/workouts/${workout.id}/`,
            headers: auth,
          })
        ).statusCode,
      ).toBe(404);
      expect(await h.blobs.list('workouts')).toEqual([]);
    });

    it('compares with per-period best curves kept on import and delete, exact at any duration', async () => {
      const h = await make();
      // Now: 2026-11-01 12:00 UTC; the last six weeks start 2026-09-20 12:00.
      h.clock = Date.UTC(2026, 10, 1, 12);
      const rider = await h.user();
      const other = await h.user();
      const auth = bearer(rider.access);
      const at = (iso: string) => Date.parse(iso) / 1000;
      const rides: { start: number; seconds: number; seed: number }[] = [
        { start: at('2026-09-20T10:00:00Z'), seconds: 700, seed: 21 }, // cut day, before the window
        { start: at('2026-09-20T14:00:00Z'), seconds: 900, seed: 22 }, // cut day, inside
        { start: at('2026-10-15T08:00:00Z'), seconds: 1300, seed: 23 },
        { start: at('2026-10-15T17:00:00Z'), seconds: 600, seed: 24 }, // same day as the one before
        { start: at('2026-11-01T08:00:00Z'), seconds: 800, seed: 25 }, // today, before now
        { start: at('2026-11-01T18:00:00Z'), seconds: 1000, seed: 26 }, // today, after now
        { start: at('2025-06-01T08:00:00Z'), seconds: 1100, seed: 27 }, // last year
        { start: at('2026-10-28T09:00:00Z'), seconds: 750, seed: 29 }, // this week
      ];
      const ids: number[] = [];
      for (const ride of rides) {
        const reply = await upload(h, '/api/v2/workouts/', rider.access, {
          filename: `r${ride.seed}.fit`,
          bytes: fitFile(ride.seconds, ride.seed, ride.start),
        });
        expect(reply.statusCode, reply.body).toBe(201);
        ids.push(reply.json<{ data: { id: number } }>().data.id);
      }
      // Another rider's ride in the same periods counts for them only.
      await upload(h, '/api/v2/workouts/', other.access, {
        filename: 'o.fit',
        bytes: fitFile(1500, 28, at('2026-10-15T09:00:00Z')),
      });

      // The expected envelopes: the rides' stored curves merged best-of, read from the database.
      const storedCurves = async (workoutIds: number[]) => {
        const rows = await h.db.query<{ power: Uint8Array | null; speed: Uint8Array | null }>(
          'SELECT power, speed FROM workout_curves WHERE workout_id = ANY($1::int[])',
          [workoutIds],
        );
        const merge = (curves: Float64Array[]) => {
          const merged = new Float64Array(Math.max(...curves.map((c) => c.length))).fill(-Infinity);
          for (const curve of curves)
            curve.forEach((value, i) => {
              if (value > merged[i]!) merged[i] = value;
            });
          return merged;
        };
        const unpack = (bytes: Uint8Array) => new Float64Array(new Uint8Array(bytes).buffer);
        return {
          power: merge(rows.map((row) => unpack(row.power!))),
          speed: merge(rows.map((row) => unpack(row.speed!))),
        };
      };
      type Curve = { durations: number[]; values: (number | null)[] };
      type CurveReply = {
        power: Curve;
        speed: Curve;
        comparison: { power: Curve | null; speed: Curve | null; workouts: number } | null;
      };
      const get = async (query: string, id = ids[2]!) => {
        const reply = await h.server.inject({
          method: 'GET',
          url: `/api/v2/workouts/${id}/power-curve/?${query}`,
          headers: auth,
        });
        expect(reply.statusCode, query).toBe(200);
        return reply.json<{ data: CurveReply }>().data;
      };
      const expectExact = (curve: Curve | null, full: Float64Array) => {
        expect(curve).not.toBeNull();
        curve!.durations.forEach((duration, i) =>
          expect(curve!.values[i]).toBe(full[duration - 1]),
        );
      };

      // Log-spaced durations: 1 s, every second at first, the longest last, exact values.
      const own = await get('compare=none');
      const [ownCurves] = [await storedCurves([ids[2]!])];
      expect(own.power.durations[0]).toBe(1);
      expect(own.power.durations.slice(0, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(own.power.durations.at(-1)).toBe(ownCurves.power.length);
      expect(own.power.durations.length).toBeLessThanOrEqual(200);
      expect(own.power.durations.every((d, i, all) => i === 0 || d > all[i - 1]!)).toBe(true);
      expectExact(own.power, ownCurves.power);
      expectExact(own.speed, ownCurves.speed);
      expect((await get('compare=none&points=20')).power.durations).toHaveLength(20);
      // Any duration the rider points at: its exact value alone.
      for (const duration of [1, 37, 611, ownCurves.power.length]) {
        const one = await get(`compare=none&at=${duration}`);
        expect(one.power).toEqual({
          durations: [duration],
          values: [ownCurves.power[duration - 1]],
        });
      }
      expect((await get(`compare=none&at=${ownCurves.power.length + 1}`)).power).toEqual({
        durations: [],
        values: [],
      });

      const sixWeeks = [ids[1]!, ids[2]!, ids[3]!, ids[4]!, ids[7]!];
      const thisYear = [...ids.slice(0, 6), ids[7]!];
      const check = async (compare: string, expected: number[]) => {
        const full = await storedCurves(expected);
        const reply = await get(`compare=${compare}&points=2000`);
        expect(reply.comparison!.workouts, compare).toBe(expected.length);
        expectExact(reply.comparison!.power, full.power);
        expectExact(reply.comparison!.speed, full.speed);
        expect(reply.comparison!.power!.durations.at(-1)).toBe(full.power.length);
        for (const duration of [3, 150, full.power.length - 1]) {
          const one = await get(`compare=${compare}&at=${duration}`);
          expect(one.comparison!.power).toEqual({
            durations: [duration],
            values: [full.power[duration - 1]],
          });
        }
      };
      await check('last6weeks', sixWeeks);
      await check('currentYear', thisYear);
      await check('year:2025', [ids[6]!]);
      expect((await get('compare=year:2020')).comparison).toEqual({
        power: null,
        speed: null,
        workouts: 0,
      });
      // One row per UTC year, week (from Monday) and day the rider rode.
      const periods = await h.db.query<{ period: string; workouts: number }>(
        'SELECT period, workouts FROM best_curves WHERE user_id = $1 ORDER BY period',
        [rider.id],
      );
      expect(periods).toEqual([
        { period: 'D2025-06-01', workouts: 1 },
        { period: 'D2026-09-20', workouts: 2 },
        { period: 'D2026-10-15', workouts: 2 },
        { period: 'D2026-10-28', workouts: 1 },
        { period: 'D2026-11-01', workouts: 2 },
        { period: 'W2025-05-26', workouts: 1 },
        { period: 'W2026-09-14', workouts: 2 },
        { period: 'W2026-10-12', workouts: 2 },
        { period: 'W2026-10-26', workouts: 3 },
        { period: 'Y2025', workouts: 1 },
        { period: 'Y2026', workouts: 7 },
      ]);

      // A change of FTP changes no curve.
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${rider.id}/`,
        headers: auth,
        payload: { settings: { ftp: 310 }, thresholds_from: '2025-01-01' },
      });
      await check('currentYear', thisYear);

      // Deleting the ride that holds the year's best rebuilds its year and its day.
      const delete_ = async (id: number) =>
        expect(
          (
            await h.server.inject({
              method: 'DELETE',
              url: `/api/v2/workouts/${id}/`,
              headers: auth,
            })
          ).statusCode,
        ).toBe(200);
      await delete_(ids[3]!);
      await check('last6weeks', [ids[1]!, ids[2]!, ids[4]!, ids[7]!]);
      await check('currentYear', [ids[0]!, ids[1]!, ids[2]!, ids[4]!, ids[5]!, ids[7]!]);
      await delete_(ids[6]!);
      expect((await get('compare=year:2025')).comparison!.workouts).toBe(0);
      expect(
        await h.db.query('SELECT period FROM best_curves WHERE user_id = $1 AND period LIKE $2', [
          rider.id,
          '%2025%',
        ]),
      ).toEqual([]);

      // Periods marked stale (as the migration marks the history it found) are rebuilt on
      // first use (once the imports' background analysis, which reads windows too, is done).
      await analysisIdle();
      await h.db.query(
        'UPDATE best_curves SET power = NULL, speed = NULL, workouts = 0, stale = true WHERE user_id = $1',
        [rider.id],
      );
      await check('last6weeks', [ids[1]!, ids[2]!, ids[4]!, ids[7]!]);
      await check('currentYear', [ids[0]!, ids[1]!, ids[2]!, ids[4]!, ids[5]!, ids[7]!]);
      // The rows read are rebuilt: this year, the whole weeks and days inside the window.
      // The two days it cuts were read ride by ride; the rest was not needed.
      expect(
        await h.db.query(
          'SELECT period FROM best_curves WHERE user_id = $1 AND stale ORDER BY period',
          [rider.id],
        ),
      ).toEqual(
        ['D2026-09-20', 'D2026-10-15', 'D2026-11-01', 'W2026-09-14', 'W2026-10-26'].map(
          (period) => ({ period }),
        ),
      );

      // Bad input is a 400 naming the parameter.
      for (const query of ['at=0', 'at=1.5', 'at=x', 'points=1', 'points=5000', 'compare=week']) {
        const reply = await h.server.inject({
          method: 'GET',
          url: `/api/v2/workouts/${ids[2]}/power-curve/?${query}`,
          headers: auth,
        });
        expect(reply.statusCode, query).toBe(400);
        expect(reply.json<{ code: number }>().code).toBe(10400);
      }
      // Nine imports and fifty requests: more than the default 5 s on a busy machine.
    });

    it('refuses oversized, mistyped and malformed files with no workout stored (security 16, 18)', async () => {
      const h = await make({ maxFitBytes: 200_000 });
      const rider = await h.user();
      const good = fitFile(600);
      const headerSize = good.slice();
      headerSize[0] = 255;
      const cases: [string, Uint8Array, number][] = [
        ['big.fit', new Uint8Array(300_000), 413],
        ['route.fit', new TextEncoder().encode(demoGpx(1, 300, false)), 415],
        ['ride.txt', good, 415],
        ['random.fit', new Uint8Array(5000).fill(7), 415],
        ['cut.fit', good.subarray(0, 60), 415],
        ['header.fit', headerSize, 415],
      ];
      for (const [filename, bytes, status] of cases) {
        const reply = await upload(h, '/api/v2/workouts/', rider.access, { filename, bytes });
        expect(reply.statusCode, filename).toBe(status);
        expect(reply.json()).toMatchObject({ code: status === 413 ? 10413 : 10415 });
      }
      const twoFiles = await h.server.inject({
        method: 'POST',
        url: '/api/v2/workouts/',
        headers: { ...bearer(rider.access), 'content-type': 'multipart/form-data; boundary=b' },
        payload: `--b\r\nContent-Disposition: form-data; name="file"; filename="a.fit"\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="b.fit"\r\n\r\ny\r\n--b--\r\n`,
      });
      expect([400, 413]).toContain(twoFiles.statusCode);
      expect((await upload(h, '/api/v2/workouts/', rider.access, undefined)).json()).toMatchObject({
        code: 10400,
      });
      expect(await h.db.query('SELECT id FROM workouts')).toEqual([]);
      expect(await h.blobs.list('workouts')).toEqual([]);
    });

    it('imports what the file holds: a cut or damaged FIT up to the damage, TCX, GPX with times and .gz', async () => {
      const h = await make();
      const rider = await h.user();
      const good = fitFile(1800, 5);
      // The same ride in several forms: each imported beside the others (the rider's choice
      // where a file starts like a ride already there).
      const send = (filename: string, bytes: Uint8Array) =>
        upload(h, '/api/v2/workouts/', rider.access, { filename, bytes }, { overlap: 'keep' });
      type Detail = {
        data: {
          id: number;
          file_format: string;
          damage: { code: string; read_time_s: number } | null;
          summary: { timer_time_s: number; distance_m: number };
        };
      };
      const whole = (await send('whole.fit', good)).json<Detail>().data;
      expect(whole.damage).toBeNull();
      const cut = await send('cut.fit', good.subarray(0, Math.floor(good.length * 0.5)));
      expect(cut.statusCode, cut.body).toBe(201);
      const cutRide = cut.json<Detail>().data;
      expect(cutRide.damage).toMatchObject({ code: 'dataSize' });
      expect(cutRide.damage!.read_time_s).toBeGreaterThan(600);
      expect(cutRide.damage!.read_time_s).toBeLessThan(whole.summary.timer_time_s);
      const flipped = good.slice();
      flipped[flipped.length - 1]! ^= 0xff;
      const crc = (await send('crc.fit', flipped)).json<Detail>().data;
      expect(crc.damage).toMatchObject({ code: 'crc' });
      expect(crc.summary.timer_time_s).toBe(whole.summary.timer_time_s);
      // The same ride as gzip is the same file: already imported, whatever its wrapping.
      const wrapped = await send('ride.fit.gz', gzipSync(good));
      expect(wrapped.statusCode, wrapped.body).toBe(409);
      expect(wrapped.json()).toMatchObject({
        existing_id: whole.id,
        errors: [{ path: 'file', message: 'workouts.duplicate' }],
      });
      // Another ride as gzip imports, and the file comes back as it was sent.
      const zipped = gzipSync(fitFile(1800, 6));
      const gz = (await send('ride.fit.gz', zipped)).json<Detail>().data;
      expect(gz.file_format).toBe('fit.gz');
      expect(gz.summary.timer_time_s).toBe(whole.summary.timer_time_s);
      const download = await h.server.inject({
        method: 'GET',
        url: `/api/v2/workouts/${gz.id}/fit/`,
        headers: bearer(rider.access),
      });
      expect(download.headers['content-disposition']).toContain('.fit.gz');
      expect(new Uint8Array(download.rawPayload)).toEqual(new Uint8Array(zipped));
      // TCX and GPX with times are activities; a GPX without times is a route, not a ride.
      const points = Array.from({ length: 121 }, (_, i) => ({
        time: new Date(Date.UTC(2026, 5, 1, 6, 0, i * 5)).toISOString(),
        lat: 47 + i * 0.0003,
      }));
      const tcx = `<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities><Activity Sport="Biking"><Id>x</Id><Lap StartTime="${points[0]!.time}"><TotalTimeSeconds>600</TotalTimeSeconds><Track>${points.map((p, i) => `<Trackpoint><Time>${p.time}</Time><Position><LatitudeDegrees>${p.lat}</LatitudeDegrees><LongitudeDegrees>8</LongitudeDegrees></Position><DistanceMeters>${i * 33.4}</DistanceMeters></Trackpoint>`).join('')}</Track></Lap></Activity></Activities></TrainingCenterDatabase>`;
      const tcxRide = await send('ride.tcx', new TextEncoder().encode(tcx));
      expect(tcxRide.statusCode, tcxRide.body).toBe(201);
      expect(tcxRide.json<Detail>().data).toMatchObject({
        file_format: 'tcx',
        sport_type: 2,
        summary: { timer_time_s: 600, distance_m: 120 * 33.4 },
      });
      const gpx = `<gpx version="1.1"><trk><trkseg>${points.map((p) => `<trkpt lat="${p.lat}" lon="8"><ele></ele><time>${p.time}</time></trkpt>`).join('')}</trkseg></trk></gpx>`;
      const gpxRide = await send('ride.gpx.gz', gzipSync(new TextEncoder().encode(gpx)));
      expect(gpxRide.statusCode, gpxRide.body).toBe(201);
      expect(gpxRide.json<Detail>().data.file_format).toBe('gpx.gz');
      // Without "keep", the GPX of a ride already here (the same times and track, another
      // wrapping) is that ride: already imported, not an overlap.
      const again = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'same-ride.gpx',
        bytes: new TextEncoder().encode(
          gpx.replace('<gpx version="1.1">', '<gpx version="1.1" creator="another app">'),
        ),
      });
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json()).toMatchObject({
        errors: [{ path: 'file', message: 'workouts.duplicate' }],
      });
      expect([tcxRide.json<Detail>().data.id, gpxRide.json<Detail>().data.id]).toContain(
        again.json<{ existing_id: number }>().existing_id,
      );
      const route = await send('route.gpx', new TextEncoder().encode(demoGpx(1, 300, false)));
      expect(route.statusCode, route.body).toBe(415);
      expect(route.json<{ detail: string }>().detail).toContain('planned route');
      const bomb = await send('bomb.fit.gz', gzipSync(new Uint8Array(80 * 1024 * 1024)));
      expect(bomb.statusCode, bomb.body).toBe(415);
      expect(bomb.json<{ detail: string }>().detail).toContain('larger than');
    });

    it(
      "imports a muscle-oxygen sensor's file (records of the time, SmO2 and THb only) as an indoor ride with those streams",
      // The first import of a run starts the analysis workers: slow on a busy machine.
      async () => {
        const h = await make();
        const rider = await h.user();
        const auth = bearer(rider.access);
        // What a Moxy writes: a file id and 1 Hz records of SmO2 (0.1 %) and THb (0.01 g/dL),
        // no position, speed, distance, heart rate or power, no timer events or session.
        const start = 1_790_000_000;
        const n = 600;
        const nan = () => new Float64Array(n).fill(Number.NaN);
        const records: Record<string, unknown> = { length: n, developer: {} };
        for (const name of recordColumnNames) records[name] = nan();
        Object.assign(records, {
          timestamp: Float64Array.from({ length: n }, (_, i) => start + i),
          saturatedHemoglobinPercent: Float64Array.from({ length: n }, (_, i) => 70 - (i % 60) / 2),
          totalHemoglobinConc: Float64Array.from({ length: n }, (_, i) => 12 + (i % 5) / 100),
        });
        const bytes = encodeFit({
          fileId: { type: 4, manufacturer: 255, timeCreated: start },
          deviceInfos: [],
          sports: [],
          zonesTargets: [],
          events: [],
          laps: [],
          sessions: [],
          timeInZones: [],
          developerDataIds: [],
          fieldDescriptions: [],
          records: records as unknown as FitActivity['records'],
        });
        const reply = await upload(h, '/api/v2/workouts/', rider.access, {
          filename: 'moxy.fit',
          bytes,
        });
        expect(reply.statusCode, reply.body).toBe(201);
        const ride = reply.json<{
          data: {
            id: number;
            indoor: boolean;
            summary: {
              timer_time_s: number;
              total_time_s: number;
              distance_m: number | null;
              speed_avg_ms: number | null;
              speed_max_ms: number | null;
              hr_avg: number | null;
              power_avg: number | null;
            };
          };
        }>().data;
        expect(ride.indoor).toBe(true);
        // What it can say (the time), and no distance or speed it cannot.
        expect(ride.summary).toMatchObject({
          timer_time_s: 600,
          total_time_s: 600,
          distance_m: null,
          speed_avg_ms: null,
          speed_max_ms: null,
          hr_avg: null,
          power_avg: null,
        });
        const streams = (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/workouts/${ride.id}/streams/`,
            headers: auth,
          })
        ).json<{ data: { length: number; streams: Record<string, (number | null)[]> } }>().data;
        expect(Object.keys(streams.streams).sort()).toEqual(['smo2', 'thb', 'time']);
        expect(streams.length).toBe(n);
        expect(streams.streams.smo2!.slice(0, 3)).toEqual([70, 69.5, 69]);
        expect(streams.streams.thb!.slice(0, 3)).toEqual([12, 12.01, 12.02]);
        // Asked for by name, as the ride page does.
        const some = (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/workouts/${ride.id}/streams/?points=100&streams=time,speed,smo2,thb`,
            headers: auth,
          })
        ).json<{ data: { streams: Record<string, unknown[]> } }>().data;
        expect(Object.keys(some.streams).sort()).toEqual(['smo2', 'thb', 'time']);
        expect(some.streams.smo2).toHaveLength(some.streams.time!.length);
        // Shared without heart rate: no body measurement goes out, muscle oxygen included.
        const shared = await h.server.inject({
          method: 'PATCH',
          url: `/api/v2/workouts/${ride.id}/`,
          headers: auth,
          payload: { shared: true, share_heart_rate: false },
        });
        expect(shared.statusCode, shared.body).toBe(200);
        const shareId = shared.json<{ data: { share_id: string } }>().data.share_id;
        const visitor = (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/share/workouts/${shareId}/streams/`,
          })
        ).json<{ data: { streams: Record<string, unknown[]> } }>().data;
        expect(Object.keys(visitor.streams).sort()).toEqual(['time']);
      },
    );

    it("measures a ride against the rider's FTP on its date over the file's, the file's only without one, and ranges as the summary", async () => {
      const h = await make();
      const rider = await h.user();
      const auth = bearer(rider.access);
      type Detail = {
        data: {
          id: number;
          ftp: number;
          ftp_source: string;
          summary: Record<string, number | string | null>;
          device_summary: Record<string, number>;
        };
      };
      // Before any setting: the device's FTP (315 W) and its own NP, IF and TSS.
      const own = (
        await upload(h, '/api/v2/workouts/', rider.access, {
          filename: 'device.fit',
          bytes: fitFile(3600, 8, 1_790_000_000, false, 315),
        })
      ).json<Detail>().data;
      expect(own).toMatchObject({ ftp: 315, ftp_source: 'file' });
      expect(own.summary.np_source).toBe('device');
      expect(own.summary.tss).toBe(own.device_summary.trainingStressScore);
      // The rider's FTP from a date before the ride wins over the file's: the ride follows.
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${rider.id}/`,
        headers: auth,
        payload: { settings: { ftp: 200 }, thresholds_from: '2000-01-01' },
      });
      const ruled = (
        await h.server.inject({ method: 'GET', url: `/api/v2/workouts/${own.id}/`, headers: auth })
      ).json<Detail>().data;
      expect(ruled).toMatchObject({ ftp: 200, ftp_source: 'settings' });
      expect(ruled.summary.np_source).toBe('computed');
      // TSS of the same ride against 315 W and 200 W: (315 / 200)^2 times as much at 200 W.
      expect((ruled.summary.tss as number) / (own.summary.tss as number)).toBeCloseTo(
        (315 / 200) ** 2,
        1,
      );
      // A new ride from a device with an FTP is measured against the rider's too.
      const plain = (
        await upload(
          h,
          '/api/v2/workouts/',
          rider.access,
          { filename: 'again.fit', bytes: fitFile(3600, 9, 1_790_100_000, false, 315) },
          { overlap: 'keep' },
        )
      ).json<Detail>().data;
      expect(plain).toMatchObject({ ftp: 200, ftp_source: 'settings' });
      // A range over the whole ride gives the ride's summary; a part, the part's figures.
      const range = async (id: number, from: number, to: number) =>
        (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/workouts/${id}/range/?from=${from}&to=${to}`,
            headers: auth,
          })
        ).json<{ data: { samples: number; summary: Record<string, unknown> } }>().data;
      for (const ride of [ruled, plain]) {
        const all = await range(ride.id, 0, 100_000);
        expect(all.summary).toEqual(ride.summary);
      }
      const half = await range(plain.id, 0, 1800);
      expect(half.samples).toBe(1800);
      expect(half.summary.timer_time_s).toBe(1800);
      const bad = await h.server.inject({
        method: 'GET',
        url: `/api/v2/workouts/${plain.id}/range/?from=10&to=5`,
        headers: auth,
      });
      expect(bad.statusCode, bad.body).toBe(400);
    }); // several imports: past 5 s when this 2-core machine is shared

    it('scores the load of a ride without power from its heart rate against the max heart rate it uses', async () => {
      const h = await make();
      const rider = await h.user();
      const auth = bearer(rider.access);
      const ride = simulateRide({ seconds: 3600, seed: 12 });
      const { power: _power, ...withoutPower } = ride;
      const bytes = encodeFit(
        activityFromStreams(withoutPower, { startTime: 1_791_000_000, sport: 2 }),
      );
      type Detail = {
        data: { id: number; summary: { tss: number | null; tss_method: string | null } };
      };
      // No max heart rate known: no load to score.
      const first = (
        await upload(h, '/api/v2/workouts/', rider.access, { filename: 'hr.fit', bytes })
      ).json<Detail>().data;
      expect(first.summary).toMatchObject({ tss: null, tss_method: null });
      // The rider's max heart rate from before the ride: the ride is scored (HRSS), and the
      // score is the one computed here from the ride's own heart rate.
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${rider.id}/`,
        headers: auth,
        payload: { settings: { max_hr: 190 }, thresholds_from: '2000-01-01' },
      });
      const scored = (
        await h.server.inject({
          method: 'GET',
          url: `/api/v2/workouts/${first.id}/`,
          headers: auth,
        })
      ).json<Detail>().data;
      const expected = heartRateStressScore(heartRateSecondsByBpm(ride.heartRate!), {
        maxHr: 190,
      })!;
      expect(scored.summary.tss_method).toBe('heart_rate');
      expect(scored.summary.tss).toBeCloseTo(expected, 0);
      expect(expected).toBeGreaterThan(20);
    });

    it("answers a range over each device lap of a real ride with that lap's power, the first lap too (it starts before the first record)", async () => {
      const h = await make();
      const rider = await h.user();
      // A Garmin ride of the corpus (BSD; packages/activity-files/test/corpus/NOTICE.md):
      // two laps with power, the first starting 45 s before the first record.
      const bytes = readFileSync(
        new URL(
          '../../../packages/activity-files/test/corpus/fit/tormoder-bpg-garmin.fit',
          import.meta.url,
        ),
      );
      const imported = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'ride.fit',
        bytes: new Uint8Array(bytes),
      });
      expect(imported.statusCode, imported.body).toBe(201);
      const ride = imported.json<{
        data: {
          id: number;
          laps: { start_s: number; elapsed_time_s: number; power_avg: number }[];
        };
      }>().data;
      expect(ride.laps.map((lap) => lap.power_avg)).toEqual([190, 203]);
      expect(ride.laps[0]!.start_s).toBe(0);
      for (const lap of ride.laps) {
        const reply = await h.server.inject({
          method: 'GET',
          url: `/api/v2/workouts/${ride.id}/range/?from=${lap.start_s}&to=${lap.start_s + lap.elapsed_time_s}`,
          headers: bearer(rider.access),
        });
        expect(reply.statusCode, reply.body).toBe(200);
        const { summary } = reply.json<{ data: { summary: { power_avg: number } } }>().data;
        expect(Math.abs(summary.power_avg - lap.power_avg)).toBeLessThanOrEqual(
          lap.power_avg * 0.03,
        );
      }
    });

    it("names a ride without a name by its sport and date, in the language of the upload's Accept-Language", async () => {
      const h = await make();
      const rider = await h.user();
      const corpusFile = (name: string) =>
        new Uint8Array(
          readFileSync(
            new URL(`../../../packages/activity-files/test/corpus/fit/${name}`, import.meta.url),
          ),
        );
      const named = async (bytes: Uint8Array, language?: string) => {
        const reply = await upload(
          h,
          '/api/v2/workouts/',
          rider.access,
          { filename: 'activity.fit', bytes },
          {},
          language ? { 'accept-language': language } : {},
        );
        expect(reply.statusCode, reply.body).toBe(201);
        return reply.json<{ data: { name: string } }>().data.name;
      };
      // A pool swim (no positions, so "indoor"), a run, and a ride.
      expect(await named(corpusFile('phpffa-swim.fit'), 'de-DE,de;q=0.9,en;q=0.5')).toMatch(
        /^Schwimmen \d{4}-\d{2}-\d{2}$/,
      );
      expect(await named(corpusFile('jimmykane-running-with-developer-data.fit'))).toMatch(
        /^Run \d{4}-\d{2}-\d{2}$/,
      );
      expect(await named(fitFile(600, 77), 'ja')).toMatch(/^ライド \d{4}-\d{2}-\d{2}$/);
    });

    it('says plainly when a file is the start of a ride already imported (a cut copy), and imports it beside it when the rider chooses', async () => {
      const h = await make();
      const rider = await h.user();
      const whole = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'whole.fit',
        bytes: fitFile(1800, 5),
      });
      expect(whole.statusCode, whole.body).toBe(201);
      const wholeId = whole.json<{ data: { id: number } }>().data.id;
      // The same ride cut short (the first ten minutes): other bytes, the same start.
      const cut = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'cut.fit',
        bytes: fitFile(600, 5),
      });
      expect(cut.statusCode, cut.body).toBe(409);
      expect(cut.json()).toMatchObject({
        code: 10409,
        existing_id: wholeId,
        errors: [{ path: 'file', message: 'workouts.overlap' }],
      });
      // Another ride that happens to start at the same second is no overlap.
      const other = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'other.fit',
        bytes: fitFile(600, 6),
      });
      expect(other.statusCode, other.body).toBe(201);
      // The rider chooses to keep both.
      const kept = await upload(
        h,
        '/api/v2/workouts/',
        rider.access,
        { filename: 'cut.fit', bytes: fitFile(600, 5) },
        { overlap: 'keep' },
      );
      expect(kept.statusCode, kept.body).toBe(201);
    });

    it('answers no distance (null, shown "—") for a trainer ride that records no speed, distance or position', async () => {
      const h = await make();
      const rider = await h.user();
      const {
        speed: _speed,
        distance: _distance,
        latitude: _lat,
        longitude: _lon,
        ...trainer
      } = simulateRide({ seconds: 900, seed: 17, indoor: true });
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'trainer.fit',
        bytes: encodeFit(activityFromStreams(trainer, { startTime: 1_790_000_000, sport: 2 })),
      });
      expect(reply.statusCode, reply.body).toBe(201);
      expect(reply.json()).toMatchObject({
        data: {
          distance_m: null,
          speed_avg_ms: null,
          summary: { distance_m: null, estimated_distance_m: null, speed_avg_ms: null },
        },
      });
      const list = await h.server.inject({
        method: 'GET',
        url: '/api/v2/workouts/',
        headers: bearer(rider.access),
      });
      expect(list.json()).toMatchObject({ data: { results: [{ distance_m: null }] } });
    });

    it('imports every activity of a chained FIT file and of a TCX file with several, each as a ride of its own, once', async () => {
      const h = await make();
      const rider = await h.user();
      const auth = bearer(rider.access);
      const rides = async () =>
        (await h.server.inject({ method: 'GET', url: '/api/v2/workouts/', headers: auth })).json<{
          data: { results: { name: string; timer_time_s: number; start_time: string }[] };
        }>().data.results;
      const first = fitFile(600, 5, 1_790_000_000);
      const second = fitFile(900, 6, 1_790_005_000);
      const chained = new Uint8Array(first.length + second.length);
      chained.set(first);
      chained.set(second, first.length);
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'chained.fit',
        bytes: chained,
      });
      expect(reply.statusCode, reply.body).toBe(201);
      expect(reply.json()).toMatchObject({ data: { timer_time_s: 600, other_activities: 1 } });
      // The second activity is queued after the first and lands as a ride of its own.
      await vi.waitFor(async () => expect(await rides()).toHaveLength(2));
      expect((await rides()).map((ride) => ride.timer_time_s).sort()).toEqual([600, 900]);
      // The same file again: refused as the duplicate it is; nothing more is queued.
      const again = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'chained.fit',
        bytes: chained,
      });
      expect(again.statusCode, again.body).toBe(409);
      // A TCX file with two <Activity> elements (a run and a ride of the corpus).
      const tcx = (name: string) =>
        readFileSync(
          new URL(`../../../packages/activity-files/test/corpus/tcx/${name}`, import.meta.url),
          'utf8',
        );
      const activityOf = (text: string) => /<Activity [\s\S]*<\/Activity>/.exec(text)![0];
      const run = tcx('dblock-tcx-running_activity_1.tcx');
      const both = run.replace(
        activityOf(run),
        `${activityOf(run)}${activityOf(tcx('togeojson-garmin_connect.tcx'))}`,
      );
      const multi = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'two.tcx',
        bytes: new TextEncoder().encode(both),
      });
      expect(multi.statusCode, multi.body).toBe(201);
      expect(multi.json()).toMatchObject({ data: { other_activities: 1 } });
      await vi.waitFor(async () => expect(await rides()).toHaveLength(4));
      const names = (await rides()).map((ride) => ride.name);
      expect(names.some((name) => name.startsWith('Run'))).toBe(true);
      expect(names.some((name) => name.startsWith('Ride'))).toBe(true);
    }); // waits for the queued activities

    it('loses nothing when the database fails after the file is written, and an idempotency key prevents duplicates (security 19)', async () => {
      const h = await make();
      const rider = await h.user();
      const bytes = fitFile(600, 3);
      const original = h.db.transaction.bind(h.db);
      (h.db as { transaction: typeof h.db.transaction }).transaction = async (work) =>
        original(async (tx) => {
          await work(tx);
          throw new Error('connection terminated');
        });
      const failed = await upload(
        h,
        '/api/v2/workouts/',
        rider.access,
        { filename: 'a.fit', bytes },
        {},
        { 'idempotency-key': 'upload-0001' },
      );
      expect(failed.statusCode, failed.body).toBe(500);
      expect(failed.body).not.toContain('connection terminated');
      expect(await h.db.query('SELECT id FROM workouts')).toEqual([]);
      expect(await h.db.query('SELECT workout_id FROM workout_streams')).toEqual([]);
      expect(await h.blobs.list('workouts')).toEqual([]);
      (h.db as { transaction: typeof h.db.transaction }).transaction = original;

      const retries = await Promise.all(
        [0, 1, 2].map(() =>
          upload(
            h,
            '/api/v2/workouts/',
            rider.access,
            { filename: 'a.fit', bytes },
            {},
            { 'idempotency-key': 'upload-0001' },
          ),
        ),
      );
      const ids = new Set(retries.map((reply) => reply.json<{ data: { id: number } }>().data.id));
      expect(ids.size).toBe(1);
      expect(await h.db.query('SELECT id FROM workouts')).toHaveLength(1);
      // A retry that lost the race to the first stored its file for an import of its own;
      // the queue deletes it when that import ends, which may come after the replies (a
      // loaded machine showed both files for a moment): waited for, one file stays.
      await vi.waitFor(async () => expect(await h.blobs.list('workouts')).toHaveLength(1), {
        interval: 100,
      });
    });

    it('answers a full disk with 503 / 10503, leaves no half file, and the retry succeeds (security 19)', async () => {
      let full = true;
      const h = await make(
        {},
        {
          write: async (path, data, options) => {
            if (!full) return writeFile(path, data, options);
            // Half the file reaches the disk, then the disk is full.
            await writeFile(path, (data as Uint8Array).subarray(0, 100));
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
              code: 'ENOSPC',
            });
          },
        },
      );
      const rider = await h.user();
      const bytes = fitFile(600, 4);
      const failed = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'full.fit',
        bytes,
      });
      expect(failed.statusCode, failed.body).toBe(503);
      expect(failed.json()).toMatchObject({ code: 10503 });
      expect(failed.body).not.toContain('ENOSPC');
      expect(await h.db.query('SELECT id FROM workouts')).toEqual([]);
      expect(await h.blobs.list('workouts')).toEqual([]);
      expect(await h.blobs.list('.tmp')).toEqual([]);
      full = false;
      const retried = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'full.fit',
        bytes,
      });
      expect(retried.statusCode, retried.body).toBe(201);
      expect(await h.db.query('SELECT id FROM workouts')).toHaveLength(1);
    });

    it('enforces the storage quota', async () => {
      const h = await make();
      const rider = await h.user();
      await h.db.query('UPDATE users SET quota_bytes = 30000 WHERE id = $1', [rider.id]);
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'a.fit',
        bytes: fitFile(1200),
      });
      expect(reply.statusCode, reply.body).toBe(413);
      expect(reply.json()).toMatchObject({
        code: 10413,
        detail: expect.stringContaining('quota') as string,
      });
    });
  });

  describe('shared rides (privacy)', () => {
    const EARTH_RADIUS_M = 6371008.8;
    const metres = (a: [number, number], b: [number, number]) => {
      const rad = Math.PI / 180;
      const h =
        Math.sin(((b[0] - a[0]) * rad) / 2) ** 2 +
        Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(((b[1] - a[1]) * rad) / 2) ** 2;
      return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
    };
    type Streams = { length: number; streams: Record<string, (number | null)[]> };

    async function sharedRide(h: Harness) {
      const rider = await h.user();
      const auth = bearer(rider.access);
      const imported = (
        await upload(h, '/api/v2/workouts/', rider.access, {
          filename: 'home.fit',
          bytes: fitFile(1800, 21),
        })
      ).json<{ data: { id: number } }>().data;
      const own = (
        await h.server.inject({
          method: 'GET',
          url: `/api/v2/workouts/${imported.id}/streams/`,
          headers: auth,
        })
      ).json<{ data: Streams }>().data;
      const shared = (
        await h.server.inject({
          method: 'PATCH',
          url: `/api/v2/workouts/${imported.id}/`,
          headers: auth,
          payload: { shared: true },
        })
      ).json<{ data: { share_id: string } }>().data;
      return { rider, auth, id: imported.id, own, shareId: shared.share_id };
    }

    it('removes the start, the end and every position inside a privacy zone from all share replies', async () => {
      const h = await make();
      const { rider, auth, own, shareId } = await sharedRide(h);
      const lat = own.streams.latitude! as number[];
      const lon = own.streams.longitude! as number[];
      // Distance along the track as the map draws it, and a "work" zone around sample 900.
      const along = [0];
      for (let i = 1; i < lat.length; i++)
        along.push(along[i - 1]! + metres([lat[i - 1]!, lon[i - 1]!], [lat[i]!, lon[i]!]));
      const total = along[along.length - 1]!;
      const work: [number, number] = [lat[900]!, lon[900]!];
      const created = await h.server.inject({
        method: 'POST',
        url: '/api/v2/privacy-zones/',
        headers: auth,
        payload: { name: 'Work', latitude: work[0], longitude: work[1], radius_m: 250 },
      });
      expect(created.statusCode, created.body).toBe(201);
      const visitor = (url: string) => h.server.inject({ method: 'GET', url });
      const detail = await visitor(`/api/v2/share/workouts/${shareId}/`);
      expect(detail.statusCode, detail.body).toBe(200);
      // Nothing of the account: no e-mail, no user or workout id, no device values.
      expect(detail.body).not.toContain(rider.email);
      const shared = detail.json<{ data: Record<string, unknown> }>().data;
      expect(Object.keys(shared)).not.toContain('id');
      expect(Object.keys(shared)).not.toContain('device_summary');
      expect(shared).toMatchObject({
        privacy: { hidden_start_m: 300, hidden_end_m: 300, zones_applied: true },
      });
      expect((shared.rider as { display_name: string }).display_name).toBe(
        rider.email.split('@')[0],
      );
      for (const points of ['', '?points=200']) {
        const streams = (
          await visitor(`/api/v2/share/workouts/${shareId}/streams/${points}`)
        ).json<{ data: Streams }>().data;
        const time = streams.streams.time!;
        let shown = 0;
        streams.streams.latitude!.forEach((latitude, k) => {
          const longitude = streams.streams.longitude![k];
          if (latitude === null || longitude === null || longitude === undefined) return;
          shown++;
          const i = own.streams.time!.indexOf(time[k]!);
          expect(along[i]!).toBeGreaterThanOrEqual(300);
          expect(total - along[i]!).toBeGreaterThanOrEqual(300);
          expect(metres(work, [latitude, longitude])).toBeGreaterThan(250);
        });
        expect(shown).toBeGreaterThan(streams.length / 2);
      }
      // Bounds of the visible track only: the first sample's position is outside them.
      const bounds = shared.bounds as {
        min_lat: number;
        max_lat: number;
        min_lon: number;
        max_lon: number;
      };
      const inside = (p: [number, number]) =>
        p[0] >= bounds.min_lat &&
        p[0] <= bounds.max_lat &&
        p[1] >= bounds.min_lon &&
        p[1] <= bounds.max_lon;
      expect(
        inside([lat[0]!, lon[0]!]) && inside([lat[1]!, lon[1]!]) && inside([lat[2]!, lon[2]!]),
      ).toBe(false);
      // A longer trim, from the settings, applies at once.
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${rider.id}/`,
        headers: auth,
        payload: { settings: { privacy_trim_m: 1000 } },
      });
      const trimmed = (await visitor(`/api/v2/share/workouts/${shareId}/streams/`)).json<{
        data: Streams;
      }>().data;
      const firstShown = trimmed.streams.latitude!.findIndex((value) => value !== null);
      expect(
        along[own.streams.time!.indexOf(trimmed.streams.time![firstShown]!)]!,
      ).toBeGreaterThanOrEqual(1000);
      // The preview picture is a PNG made on the server.
      const preview = await visitor(`/api/v2/share/workouts/${shareId}/preview.png`);
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.headers['content-type']).toBe('image/png');
      expect([...preview.rawPayload.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    });

    it('shows heart rate and power only when the rider does, per ride and by default', async () => {
      const h = await make();
      const { rider, auth, id, shareId } = await sharedRide(h);
      const visitor = (url: string) => h.server.inject({ method: 'GET', url });
      const streamsOf = async () =>
        (await visitor(`/api/v2/share/workouts/${shareId}/streams/?points=100`)).json<{
          data: Streams;
        }>().data.streams;
      expect(Object.keys(await streamsOf())).toEqual(
        expect.arrayContaining(['power', 'heart_rate']),
      );
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/workouts/${id}/`,
        headers: auth,
        payload: { share_power: false },
      });
      expect(Object.keys(await streamsOf())).not.toContain('power');
      const detail = (await visitor(`/api/v2/share/workouts/${shareId}/`)).json<{
        data: {
          summary: Record<string, unknown>;
          power_zones: unknown[];
          shows: unknown;
          ftp: unknown;
        };
      }>().data;
      expect(detail.summary).toMatchObject({ power_avg: null, np: null, tss: null });
      expect(detail.power_zones).toEqual([]);
      expect(detail).toMatchObject({ shows: { heart_rate: true, power: false }, ftp: null });
      const range = (await visitor(`/api/v2/share/workouts/${shareId}/range/?from=0&to=600`)).json<{
        data: { summary: Record<string, unknown> };
      }>().data;
      expect(range.summary).toMatchObject({ power_avg: null, np: null });
      // The rider's default hides heart rate on rides shared from now on.
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/athlete/${rider.id}/`,
        headers: auth,
        payload: { settings: { share_heart_rate: false } },
      });
      const second = (
        await upload(h, '/api/v2/workouts/', rider.access, {
          filename: 'b.fit',
          bytes: fitFile(900, 22),
        })
      ).json<{ data: { id: number } }>().data;
      const secondShare = (
        await h.server.inject({
          method: 'PATCH',
          url: `/api/v2/workouts/${second.id}/`,
          headers: auth,
          payload: { shared: true },
        })
      ).json<{ data: { share_id: string; share_heart_rate: boolean } }>().data;
      expect(secondShare.share_heart_rate).toBe(false);
      const hidden = (
        await visitor(`/api/v2/share/workouts/${secondShare.share_id}/streams/?points=100`)
      ).json<{ data: Streams }>().data.streams;
      expect(Object.keys(hidden)).not.toContain('heart_rate');
    });

    it('keeps home hidden on every share reply despite GPS noise at the door, and a zone mid-ride', async () => {
      const h = await make();
      const rider = await h.user();
      const auth = bearer(rider.access);
      // A ride that starts and ends with 200 s of a fix wandering ±4 m at the door.
      const ride = simulateRide({ seconds: 2400, seed: 31 });
      const lat = ride.latitude!;
      const lon = ride.longitude!;
      const n = lat.length;
      const home: [number, number] = [lat[200]!, lon[200]!];
      const away: [number, number] = [lat[n - 201]!, lon[n - 201]!];
      let state = 5;
      const noise = () =>
        ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 8e-5;
      for (let i = 0; i < 200; i++) {
        lat[i] = home[0] + noise();
        lon[i] = home[1] + noise();
        lat[n - 1 - i] = away[0] + noise();
        lon[n - 1 - i] = away[1] + noise();
      }
      const distance = ride.distance!;
      for (let i = 1; i < n; i++)
        distance[i] = distance[i - 1]! + metres([lat[i - 1]!, lon[i - 1]!], [lat[i]!, lon[i]!]);
      const middle: [number, number] = [lat[1200]!, lon[1200]!];
      const bytes = encodeFit(activityFromStreams(ride, { startTime: 1_790_100_000, sport: 2 }));
      const imported = (
        await upload(h, '/api/v2/workouts/', rider.access, { filename: 'door.fit', bytes })
      ).json<{ data: { id: number } }>().data;
      await h.server.inject({
        method: 'POST',
        url: '/api/v2/privacy-zones/',
        headers: auth,
        payload: { name: 'Friend', latitude: middle[0], longitude: middle[1], radius_m: 300 },
      });
      const { share_id: shareId } = (
        await h.server.inject({
          method: 'PATCH',
          url: `/api/v2/workouts/${imported.id}/`,
          headers: auth,
          payload: { shared: true },
        })
      ).json<{ data: { share_id: string } }>().data;
      const visitor = (url: string, headers: Record<string, string> = {}) =>
        h.server.inject({ method: 'GET', url, headers });
      const secret = (point: [number, number]) =>
        metres(home, point) < 300 || metres(away, point) < 300 || metres(middle, point) <= 300;
      // The reply's bounds do not contain home.
      const shared = (await visitor(`/api/v2/share/workouts/${shareId}/`)).json<{
        data: { bounds: { min_lat: number; max_lat: number; min_lon: number; max_lon: number } };
      }>().data;
      const { bounds } = shared;
      for (const point of [home, away])
        expect(
          point[0] >= bounds.min_lat &&
            point[0] <= bounds.max_lat &&
            point[1] >= bounds.min_lon &&
            point[1] <= bounds.max_lon,
        ).toBe(false);
      for (const points of ['', '?points=300']) {
        const { streams } = (
          await visitor(`/api/v2/share/workouts/${shareId}/streams/${points}`)
        ).json<{ data: Streams }>().data;
        let shown = 0;
        streams.latitude!.forEach((latitude, k) => {
          const longitude = streams.longitude![k]!;
          if (latitude === null) {
            // A hidden sample carries nothing that places it.
            for (const name of ['longitude', 'distance', 'speed', 'altitude'])
              expect(streams[name]?.[k] ?? null, name).toBeNull();
            return;
          }
          shown++;
          expect(secret([latitude, longitude])).toBe(false);
        });
        expect(shown).toBeGreaterThan(points ? 100 : 1000);
        // The trimmed ends are not sent at all: the first sample is after the door's noise.
        expect(streams.time![0]!).toBeGreaterThanOrEqual(200);
        expect(streams.time!.at(-1)!).toBeLessThan(n - 200);
      }
      // A range over the door's noise has no samples; one over the ride has no more.
      const door = (await visitor(`/api/v2/share/workouts/${shareId}/range/?from=0&to=190`)).json<{
        data: { samples: number; summary: { distance_m: number } };
      }>().data;
      expect(door.samples).toBe(0);
      expect(door.summary.distance_m).toBe(0);
      // The picture is revalidated on every use, so a stopped share's is gone at once.
      const preview = await visitor(`/api/v2/share/workouts/${shareId}/preview.png`);
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.headers['cache-control']).toBe('private, no-cache');
      const again = await visitor(`/api/v2/share/workouts/${shareId}/preview.png`, {
        'if-none-match': String(preview.headers.etag),
      });
      expect(again.statusCode, again.body).toBe(304);
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/workouts/${imported.id}/`,
        headers: auth,
        payload: { shared: false },
      });
      const stopped = await visitor(`/api/v2/share/workouts/${shareId}/preview.png`, {
        'if-none-match': String(preview.headers.etag),
      });
      expect(stopped.statusCode, stopped.body).toBe(404);
    });

    it('refuses a privacy zone beyond the most a rider may keep', async () => {
      const h = await make();
      const rider = await h.user();
      const create = (i: number) =>
        h.server.inject({
          method: 'POST',
          url: '/api/v2/privacy-zones/',
          headers: bearer(rider.access),
          payload: { name: `Zone ${i}`, latitude: 48 + i / 100, longitude: 11, radius_m: 200 },
        });
      // All at once: the limit holds for simultaneous requests too.
      const replies = await Promise.all(
        Array.from({ length: MAX_PRIVACY_ZONES + 5 }, (_, i) => create(i)),
      );
      expect(replies.filter((reply) => reply.statusCode === 201)).toHaveLength(MAX_PRIVACY_ZONES);
      const refused = replies.filter((reply) => reply.statusCode !== 201);
      expect(refused).toHaveLength(5);
      for (const reply of refused) {
        expect(reply.statusCode, reply.body).toBe(400);
        expect(reply.json<{ detail: string }>().detail).toContain(String(MAX_PRIVACY_ZONES));
      }
    });

    it('lists the shared rides, and stopping one or all ends their links at once', async () => {
      const h = await make();
      const { rider, auth, id, shareId } = await sharedRide(h);
      const other = (
        await upload(h, '/api/v2/workouts/', rider.access, {
          filename: 'c.fit',
          bytes: fitFile(900, 23),
        })
      ).json<{ data: { id: number } }>().data;
      const otherShare = (
        await h.server.inject({
          method: 'PATCH',
          url: `/api/v2/workouts/${other.id}/`,
          headers: auth,
          payload: { shared: true },
        })
      ).json<{ data: { share_id: string } }>().data.share_id;
      const listed = (
        await h.server.inject({
          method: 'GET',
          url: '/api/v2/workouts/?shared=true',
          headers: auth,
        })
      ).json<{ data: { count: number } }>().data;
      expect(listed.count).toBe(2);
      const status = async (share: string) =>
        (await h.server.inject({ method: 'GET', url: `/api/v2/share/workouts/${share}/` }))
          .statusCode;
      await h.server.inject({
        method: 'PATCH',
        url: `/api/v2/workouts/${id}/`,
        headers: auth,
        payload: { shared: false },
      });
      expect(await status(shareId)).toBe(404);
      expect(await status(otherShare)).toBe(200);
      const all = await h.server.inject({
        method: 'POST',
        url: '/api/v2/workouts/unshare-all/',
        headers: auth,
      });
      expect(all.json<{ data: { unshared: number } }>().data.unshared).toBe(1);
      expect(await status(otherShare)).toBe(404);
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/share/workouts/${otherShare}/preview.png`,
          })
        ).statusCode,
      ).toBe(404);
    });
  });

  describe('devices, routebooks, maps and articles', () => {
    it('binds devices, serves their default layout and validates saved layouts against the model', async () => {
      const h = await make();
      const rider = await h.user();
      const auth = bearer(rider.access);
      const bound = await h.server.inject({
        method: 'POST',
        url: '/api/v2/devices/',
        headers: auth,
        payload: { serial: 'navp-0042', model: 'NAV+' },
      });
      expect(bound.statusCode, bound.body).toBe(201);
      const device = bound.json<{
        data: { id: number; serial: string; firmware_version: string };
      }>().data;
      expect(device.serial).toBe('NAVP-0042');
      expect(
        (
          await h.server.inject({
            method: 'POST',
            url: '/api/v2/devices/',
            headers: auth,
            payload: { serial: 'NAVP-0042', model: 'NAV+' },
          })
        ).statusCode,
      ).toBe(400);
      expect(
        (
          await h.server.inject({
            method: 'POST',
            url: '/api/v2/devices/',
            headers: auth,
            payload: { serial: 'x', model: 'NAV' },
          })
        ).json(),
      ).toMatchObject({ code: 10400, errors: [{ path: 'serial' }] });

      const layout = (
        await h.server.inject({
          method: 'GET',
          url: `/api/v2/devices/${device.id}/layout/`,
          headers: auth,
        })
      ).json<{ data: { pages: { items: number[] }[]; sn: string; extra_member?: string } }>();
      expect(layout.data.sn).toBe('NAVP-0042');
      expect(layout.data.pages.length).toBeGreaterThan(0);
      const saved = await h.server.inject({
        method: 'PUT',
        url: `/api/v2/devices/${device.id}/layout/`,
        headers: auth,
        payload: { ...layout.data, extra_member: 'kept' },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json<{ data: { extra_member: string } }>().data.extra_member).toBe('kept');
      const broken = { ...layout.data, pages: [{ ...layout.data.pages[0], items: [999999] }] };
      const refused = await h.server.inject({
        method: 'PUT',
        url: `/api/v2/devices/${device.id}/layout/`,
        headers: auth,
        payload: broken,
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json<{ errors: unknown[] }>().errors.length).toBeGreaterThan(0);

      expect(
        (
          await h.server.inject({
            method: 'DELETE',
            url: `/api/v2/devices/${device.id}/`,
            headers: auth,
          })
        ).statusCode,
      ).toBe(200);
      expect(
        (await h.server.inject({ method: 'GET', url: '/api/v2/devices/', headers: auth })).json<{
          data: { count: number };
        }>().data.count,
      ).toBe(0);
    });

    it('uploads GPX routebooks with a required title, refuses XML attacks in time, and serves the original (security 17)', async () => {
      const h = await make();
      const rider = await h.user();
      const gpx = new TextEncoder().encode(demoGpx(2, 1200, false));
      const missing = await upload(
        h,
        '/api/v2/routebooks/',
        rider.access,
        { filename: 'r.gpx', bytes: gpx },
        { title: '  ' },
      );
      expect(missing.json()).toMatchObject({
        code: 10400,
        detail: expect.stringContaining('Please check required fields') as string,
      });
      const created = await upload(
        h,
        '/api/v2/routebooks/',
        rider.access,
        { filename: '../../etc/passwd.gpx', bytes: gpx },
        { title: 'Bay loop', description: '<b>nice</b>' },
      );
      expect(created.statusCode, created.body).toBe(201);
      const route = created.json<{
        data: {
          id: number;
          distance_m: number;
          preview: unknown[];
          has_time: boolean;
          description: string;
        };
      }>().data;
      expect(route.distance_m).toBeGreaterThan(1000);
      expect(route.has_time).toBe(false);
      expect(route.description).toBe('<b>nice</b>');
      const original = await h.server.inject({
        method: 'GET',
        url: `/api/v2/routebooks/${route.id}/gpx/`,
        headers: bearer(rider.access),
      });
      expect(original.rawPayload.equals(Buffer.from(gpx))).toBe(true);
      expect(original.headers['content-disposition']).toContain('attachment');
      expect((await h.blobs.list('routebooks'))[0]).toMatch(/^routebooks\/[0-9a-f-]{36}\.gpx$/);

      const attacks = [
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><gpx>&lol2;</gpx>',
        '<?xml version="1.0"?><!DOCTYPE gpx SYSTEM "file:///etc/passwd"><gpx></gpx>',
        `<gpx><metadata><name>${'&#65;'.repeat(100_000)}</name></metadata></gpx>`,
        `${'<a>'.repeat(10_000)}`,
        '<gpx></gpx><gpx></gpx>',
        '<gpx><__proto__><polluted>1</polluted></__proto__></gpx>',
      ];
      for (const attack of attacks) {
        const reply = await upload(
          h,
          '/api/v2/routebooks/',
          rider.access,
          { filename: 'evil.gpx', bytes: new TextEncoder().encode(attack) },
          { title: 'Evil' },
        );
        expect(reply.statusCode, reply.body).toBe(415);
        expect(reply.body).not.toContain('passwd');
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: '/api/v2/routebooks/',
            headers: bearer(rider.access),
          })
        ).json<{ data: { count: number } }>().data.count,
      ).toBe(1);
    });

    it('serves map packages with range requests, and articles with likes and comments', async () => {
      const h = await make();
      const rider = await h.user();
      const bytes = new Uint8Array(5000).map((_, i) => i % 251);
      await h.blobs.put('maps/test-0.map', bytes);
      await h.db.query(
        `INSERT INTO map_regions (model, name, bbox, file_key, size_bytes) VALUES ('NAV+', 'Test', '[1,2,3,4]', 'maps/test-0.map', 5000)`,
      );
      const regions = (
        await h.server.inject({ method: 'GET', url: '/api/v2/maps/regions/?model=NAV%2B' })
      ).json<{ data: { download_url: string; size_bytes: number }[] }>();
      expect(regions.data).toHaveLength(1);
      const whole = await h.server.inject({ method: 'GET', url: regions.data[0]!.download_url });
      expect(whole.rawPayload.length).toBe(5000);
      const part = await h.server.inject({
        method: 'GET',
        url: regions.data[0]!.download_url,
        headers: { range: 'bytes=100-199' },
      });
      expect(part.statusCode, part.body).toBe(206);
      expect(part.headers['content-range']).toBe('bytes 100-199/5000');
      expect([...part.rawPayload]).toEqual([...bytes.subarray(100, 200)]);
      expect(
        (
          await h.server.inject({
            method: 'GET',
            url: regions.data[0]!.download_url,
            headers: { range: 'bytes=9000-' },
          })
        ).statusCode,
      ).toBe(416);
      expect(
        (await h.server.inject({ method: 'GET', url: '/api/v2/maps/regions/?model=X' })).statusCode,
      ).toBe(400);

      const auth = bearer(rider.access);
      const post = (
        await h.server.inject({
          method: 'POST',
          url: '/api/v2/posts/',
          headers: auth,
          payload: { title: 'Hello', body: 'First ride', language: 'en' },
        })
      ).json<{ data: { id: number } }>();
      expect(
        (
          await h.server.inject({
            method: 'POST',
            url: '/api/v2/posts/',
            payload: { title: 'x', body: 'y' },
          })
        ).statusCode,
      ).toBe(401);
      for (let i = 0; i < 2; i++)
        expect(
          (
            await h.server.inject({
              method: 'POST',
              url: `/api/v2/posts/${post.data.id}/like/`,
              headers: auth,
            })
          ).json(),
        ).toMatchObject({ data: { likes: 1, liked: true } });
      expect(
        (
          await h.server.inject({
            method: 'DELETE',
            url: `/api/v2/posts/${post.data.id}/like/`,
            headers: auth,
          })
        ).json(),
      ).toMatchObject({ data: { likes: 0, liked: false } });
      const payload = '<img src=x onerror=alert(1)>';
      await h.server.inject({
        method: 'POST',
        url: `/api/v2/posts/${post.data.id}/comments/`,
        headers: auth,
        payload: { body: payload },
      });
      const comments = (
        await h.server.inject({ method: 'GET', url: `/api/v2/posts/${post.data.id}/comments/` })
      ).json<{ data: { results: { body: string }[] } }>();
      expect(comments.data.results[0]!.body).toBe(payload);
      expect(
        (await h.server.inject({ method: 'GET', url: `/api/v2/posts/${post.data.id}/` })).json<{
          data: { comments: number };
        }>().data.comments,
      ).toBe(1);
      const countIn = async (language: string) =>
        (
          await h.server.inject({ method: 'GET', url: `/api/v2/posts/?language=${language}` })
        ).json<{ data: { count: number } }>().data.count;
      expect(await countIn('en')).toBe(1);
      // The site asks in its tags (en-US): an article tagged with the bare language answers.
      expect(await countIn('en-US')).toBe(1);
      expect(await countIn('de')).toBe(0);
    });

    it('reports readiness from the database', async () => {
      const h = await make();
      expect((await h.server.inject({ method: 'GET', url: '/api/ready' })).json()).toEqual({
        code: 0,
        msg: 'success',
        data: {
          status: 'ready',
          database: 'ok',
          ready: true,
          checks: {
            database: { ok: true },
            fileStore: { ok: true },
            queue: { ok: true, backingOff: false, analysing: 0 },
            disk: { ok: true, monitored: false },
          },
        },
      });
    });
  });

  it('signs tokens with HS256 only', async () => {
    const token = await signJwt({ sub: '1', jti: 'x', exp: 1 }, jwtKeys('k'));
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toEqual({
      alg: 'HS256',
      typ: 'JWT',
      kid: keyId('k'),
    });
  });
}
