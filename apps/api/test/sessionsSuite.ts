import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/platform/config.ts';
import { buildServer } from '../src/server.ts';
import {
  PASSWORD,
  bearer,
  fitFile,
  suiteHarnesses,
  upload,
  type DatabaseFactory,
  type Harness,
} from './harness.ts';

interface Pair {
  readonly access: string;
  readonly refresh: string;
}

/** A token's claims, read without checking (the server checks). */
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<
    string,
    string | number
  >;

/** The security events of the log, as written (one JSON line each). */
const securityEvents = (h: Harness, event: string) =>
  h.logs
    .join('')
    .split('\n')
    .filter((line) => line.includes('"security"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.security === event);

/** A browser: its address and User-Agent, as the server sees them. */
interface Client {
  readonly ip: string;
  readonly userAgent: string;
}
const RIDER: Client = { ip: '203.0.113.10', userAgent: 'Mozilla/5.0 (rider laptop)' };

const refresh = (h: Harness, token: string, client: Client = RIDER) =>
  h.server.inject({
    method: 'POST',
    url: '/api/v1/jwt-token/refresh/',
    remoteAddress: client.ip,
    headers: { 'user-agent': client.userAgent },
    payload: { refresh: token },
  });

const me = (h: Harness, id: number, access: string, server = h.server) =>
  server.inject({ method: 'GET', url: `/api/v2/athlete/${id}/`, headers: bearer(access) });

/** Log-out, reuse and theft end a session's access tokens at once (security checklist). */
export function defineSessionsSuite(makeFactory: () => Promise<DatabaseFactory>): void {
  const make = suiteHarnesses(makeFactory);

  describe('sessions end', () => {
    it('ends the access token at once on logout, on every server of the database, and no other session', async () => {
      const h = await make();
      const rider = await h.user();
      // The same rider signed in on a second device: another session (refresh family).
      const laptop = (
        await h.server.inject({
          method: 'POST',
          url: '/api/v1/jwt-token/',
          payload: { email: rider.email, password: PASSWORD },
        })
      ).json<{ data: Pair }>().data;
      // A second server on the same database, as a second API process would be.
      const second = await h.anotherProcess();
      try {
        expect((await me(h, rider.id, rider.access, second)).statusCode).toBe(200);
        const logout = await h.server.inject({
          method: 'POST',
          url: '/api/v1/jwt-token/logout/',
          payload: { refresh: rider.refresh },
        });
        expect(logout.statusCode).toBe(200);
        for (const server of [h.server, second]) {
          const reply = await me(h, rider.id, rider.access, server);
          expect(reply.statusCode).toBe(401);
          expect(reply.json()).toMatchObject({ code: 10001, detail: 'Token invalid' });
        }
        // The rider's other session goes on, on both servers.
        for (const server of [h.server, second])
          expect((await me(h, rider.id, laptop.access, server)).statusCode).toBe(200);
      } finally {
        await second.close();
      }
    });

    it('ends the live access token at once when a rotated refresh token is reused after the window', async () => {
      const h = await make();
      const rider = await h.user();
      const live = (await refresh(h, rider.refresh)).json<{ data: Pair }>().data;
      expect((await me(h, rider.id, live.access)).statusCode).toBe(200);
      h.clock += (h.config.refreshGraceS + 1) * 1000;
      // The stolen first token, after the window: reuse.
      expect((await refresh(h, rider.refresh)).statusCode).toBe(401);
      expect((await me(h, rider.id, live.access)).statusCode).toBe(401);
      expect((await me(h, rider.id, rider.access)).statusCode).toBe(401);
      expect((await refresh(h, live.refresh)).statusCode).toBe(401);
      expect(securityEvents(h, 'refresh.reuse')).toHaveLength(1);
    });

    it('treats a grace-window replay from another address or User-Agent as theft: family revoked, refresh.theft logged', async () => {
      const h = await make();
      const thieves: Client[] = [
        { ip: '198.51.100.7', userAgent: RIDER.userAgent },
        { ip: RIDER.ip, userAgent: 'curl/8.5.0' },
      ];
      for (const thief of thieves) {
        const rider = await h.user();
        const family = claimsOf(rider.refresh).fam;
        const rotated = await refresh(h, rider.refresh);
        expect(rotated.statusCode).toBe(200);
        const live = rotated.json<{ data: Pair }>().data;
        h.clock += 2_000; // well within the window
        const stolen = await refresh(h, rider.refresh, thief);
        expect(stolen.statusCode).toBe(401);
        expect(stolen.json()).toMatchObject({ code: 10001 });
        expect(stolen.body).not.toContain(live.refresh);
        // The rider's live pair ends with it, access token included.
        expect((await me(h, rider.id, live.access)).statusCode).toBe(401);
        expect((await refresh(h, live.refresh)).statusCode).toBe(401);
        // The rider's own replay no longer brings the pair back either.
        expect((await refresh(h, rider.refresh)).statusCode).toBe(401);
        const theft = securityEvents(h, 'refresh.theft').at(-1);
        expect(theft).toMatchObject({ userId: Number(rider.id), ip: thief.ip, family });
      }
      expect(securityEvents(h, 'refresh.theft')).toHaveLength(2);
      const log = h.logs.join('');
      expect(log).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/); // no token of any kind
    });

    it('revokes the thief too when the thief rotated first and the rider replays within the window', async () => {
      const h = await make();
      const rider = await h.user();
      const thief: Client = { ip: '198.51.100.7', userAgent: 'Mozilla/5.0 (elsewhere)' };
      const taken = await refresh(h, rider.refresh, thief);
      expect(taken.statusCode).toBe(200);
      const thiefPair = taken.json<{ data: Pair }>().data;
      expect((await refresh(h, rider.refresh)).statusCode).toBe(401);
      expect((await me(h, rider.id, thiefPair.access)).statusCode).toBe(401);
      expect((await refresh(h, thiefPair.refresh, thief)).statusCode).toBe(401);
      expect(securityEvents(h, 'refresh.theft')).toMatchObject([
        { userId: Number(rider.id), ip: RIDER.ip },
      ]);
    });

    it('gives the same client its pair again within the window, and the pair keeps working', async () => {
      const h = await make();
      const rider = await h.user();
      const first = await refresh(h, rider.refresh);
      const pair = first.json<{ data: Pair }>().data;
      h.clock += 3_000;
      // Two tabs of the same browser racing, or a lost answer retried.
      const again = await Promise.all([refresh(h, rider.refresh), refresh(h, rider.refresh)]);
      for (const reply of again) {
        expect(reply.statusCode).toBe(200);
        expect(reply.json<{ data: Pair }>().data).toEqual(pair);
      }
      expect((await me(h, rider.id, pair.access)).statusCode).toBe(200);
      expect((await refresh(h, pair.refresh)).statusCode).toBe(200);
      expect(securityEvents(h, 'refresh.theft')).toHaveLength(0);
      expect(securityEvents(h, 'refresh.replayed')).toHaveLength(2);
    });

    it('accepts an access token without a session (signed before they named one) until it expires', async () => {
      const h = await make();
      const rider = await h.user();
      const [header] = rider.access.split('.') as [string];
      const { fam, ...claims } = claimsOf(rider.access);
      expect(fam).toBe(claimsOf(rider.refresh).fam);
      const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
      const signature = createHmac('sha256', h.config.jwtSecret)
        .update(`${header}.${payload}`)
        .digest('base64url');
      const legacy = `${header}.${payload}.${signature}`;
      await h.server.inject({
        method: 'POST',
        url: '/api/v1/jwt-token/logout/',
        payload: { refresh: rider.refresh },
      });
      expect((await me(h, rider.id, rider.access)).statusCode).toBe(401);
      expect((await me(h, rider.id, legacy)).statusCode).toBe(200);
      // A session claim that is not a session id is refused, not looked up.
      const odd = Buffer.from(JSON.stringify({ ...claims, fam: 'x' })).toString('base64url');
      const oddSignature = createHmac('sha256', h.config.jwtSecret)
        .update(`${header}.${odd}`)
        .digest('base64url');
      expect((await me(h, rider.id, `${header}.${odd}.${oddSignature}`)).statusCode).toBe(401);
      h.clock += (h.config.accessTtlS + 1) * 1000;
      expect((await me(h, rider.id, legacy)).json()).toMatchObject({
        code: 10001,
        detail: 'Token expired',
      });
    });
  });

  describe('share page origin', () => {
    /** A rider's ride with its share link on, and a portal build to serve the page from. */
    async function sharedPage(h: Harness) {
      const rider = await h.user();
      const imported = (
        await upload(h, '/api/v2/workouts/', rider.access, {
          filename: 'ride.fit',
          bytes: fitFile(600, 5),
        })
      ).json<{ data: { id: number } }>().data;
      const shareId = (
        await h.server.inject({
          method: 'PATCH',
          url: `/api/v2/workouts/${imported.id}/`,
          headers: bearer(rider.access),
          payload: { shared: true },
        })
      ).json<{ data: { share_id: string } }>().data.share_id;
      const portal = mkdtempSync(join(tmpdir(), 'xoss-portal-'));
      writeFileSync(
        join(portal, 'index.html'),
        '<!doctype html><html><head></head><body></body></html>',
      );
      return { url: `/dashboard/workouts/share/${imported.id}?share=${shareId}`, shareId, portal };
    }

    const tag = (html: string, property: string) =>
      new RegExp(`<meta property="${property}" content="([^"]+)">`).exec(html)?.[1];

    it('writes the configured origin into the card tags, whatever Host the request names', async () => {
      const h = await make({ trustProxy: 1 });
      const { url, shareId, portal } = await sharedPage(h);
      const server = await buildServer({
        db: h.db,
        blobs: h.blobs,
        config: { ...h.config, publicOrigin: 'https://rides.example' },
        staticRoots: { athletePortal: portal },
        now: () => h.clock,
      });
      try {
        const page = await server.inject({
          method: 'GET',
          url,
          headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
        });
        expect(page.statusCode).toBe(200);
        expect(tag(page.body, 'og:image')).toBe(
          `https://rides.example/api/v2/share/workouts/${shareId}/preview.png`,
        );
        // The canonical address names the share, not the ride's internal id.
        expect(tag(page.body, 'og:url')).toBe(
          `https://rides.example/dashboard/workouts/share/ride?share=${shareId}`,
        );
        const canonical = await server.inject({
          method: 'GET',
          url: `/dashboard/workouts/share/ride?share=${shareId}`,
        });
        expect(tag(canonical.body, 'og:image')).toBe(tag(page.body, 'og:image'));
        expect(page.body).not.toContain('evil.example');
      } finally {
        await server.close();
        rmSync(portal, { recursive: true, force: true });
      }
    });

    it('uses the address it listens on when no origin is configured, not the Host header', async () => {
      const h = await make();
      const { url, shareId, portal } = await sharedPage(h);
      const server = await buildServer({
        db: h.db,
        blobs: h.blobs,
        config: { ...h.config, publicOrigin: undefined },
        staticRoots: { athletePortal: portal },
        now: () => h.clock,
      });
      try {
        await server.listen({ port: 0, host: '127.0.0.1' });
        const address = server.server.address();
        if (address === null || typeof address === 'string') throw new Error('no port');
        const page = await server.inject({ method: 'GET', url, headers: { host: 'evil.example' } });
        expect(tag(page.body, 'og:url')).toBe(
          `http://127.0.0.1:${address.port}/dashboard/workouts/share/ride?share=${shareId}`,
        );
        expect(page.body).not.toContain('evil.example');
      } finally {
        await server.close();
        rmSync(portal, { recursive: true, force: true });
      }
    });

    it('reads PUBLIC_ORIGIN as an origin and refuses anything else at start', () => {
      expect(configFromEnv({}).publicOrigin).toBeUndefined();
      expect(configFromEnv({ PUBLIC_ORIGIN: 'https://Rides.Example:443/' }).publicOrigin).toBe(
        'https://rides.example',
      );
      for (const bad of ['rides.example', 'ftp://rides.example', 'https://rides.example/app'])
        expect(() => configFromEnv({ PUBLIC_ORIGIN: bad })).toThrow(/PUBLIC_ORIGIN/);
    });
  });
}
