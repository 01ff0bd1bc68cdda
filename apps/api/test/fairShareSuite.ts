import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, suiteHarnesses, type DatabaseFactory } from './harness.ts';

const statuses = (replies: readonly LightMyRequestResponse[]) =>
  replies.map((reply) => reply.statusCode);
const count = (values: readonly number[], value: number) =>
  values.filter((item) => item === value).length;

/** A 429 of the request limits: our envelope, code 10302, and when to try again. */
function expectLimited(reply: LightMyRequestResponse) {
  expect(reply.statusCode).toBe(429);
  expect(reply.json()).toMatchObject({ code: 10302, msg: 'too_many_attempts' });
  expect(reply.json<{ detail: string }>().detail).toMatch(/^Too many requests/);
  expect(Number(reply.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

/**
 * Fair share under load (apps/api/README.md, security checklist): requests per rider and per
 * address, on both databases; on PostgreSQL the count is shared by every server process.
 */
export function defineFairShareSuite(
  kind: DatabaseFactory['kind'],
  makeFactory: () => Promise<DatabaseFactory>,
): void {
  const make = suiteHarnesses(makeFactory);
  // 20 requests per rider and 5 per address in a window far longer than a test.
  const small = { requestsPerRider: 0.4, requestsPerAddress: 0.1, requestLimitWindowS: 50 };

  describe('request limits', () => {
    it("refuses a flooding rider's requests beyond the limit and serves another rider", async () => {
      const h = await make(small);
      const flooder = await h.user();
      const other = await h.user();
      const list = (access: string) =>
        h.server.inject({ url: '/api/v2/workouts/', headers: bearer(access) });
      const flood = await Promise.all(Array.from({ length: 60 }, () => list(flooder.access)));
      const served = statuses(flood);
      expect(count(served, 200)).toBe(20);
      expect(count(served, 429)).toBe(40);
      for (const reply of flood.filter((reply) => reply.statusCode === 429)) expectLimited(reply);
      // The same address, another rider: counted on its own.
      const others = await Promise.all(Array.from({ length: 10 }, () => list(other.access)));
      expect(statuses(others)).toEqual(Array.from({ length: 10 }, () => 200));
      expectLimited(await list(flooder.access));
    });

    it("counts a year of the fitness chart as one request: a rider's 20-year charts are refused after the allowance's twentieth", async () => {
      const h = await make(small);
      const rider = await h.user();
      const fitness = (query: string) =>
        h.server.inject({
          url: `/api/v2/training/fitness/?${query}`,
          headers: bearer(rider.access),
        });
      // 20 requests' worth: a year of days counts one, 7,320 days (20 years) count 20.
      const year = await Promise.all(
        Array.from({ length: 5 }, () => fitness('from=2025-01-01&to=2026-01-01')),
      );
      expect(statuses(year)).toEqual([200, 200, 200, 200, 200]);
      // 5 spent; two years count 2 each: 7 more fit (19 spent), the eighth does not.
      const twoYears = await Promise.all(
        Array.from({ length: 8 }, () => fitness('from=2024-01-01&to=2026-01-01')),
      );
      expect(count(statuses(twoYears), 200)).toBe(7);
      expectLimited(twoYears.find((reply) => reply.statusCode === 429)!);
      // A fresh rider: the longest chart (all time, no `from`) counts as 20 years, once.
      const other = await h.user();
      const allTime = () =>
        h.server.inject({ url: '/api/v2/training/fitness/', headers: bearer(other.access) });
      expect((await allTime()).statusCode).toBe(200);
      expectLimited(await allTime());
    });

    it('limits logins per address, across many X-Forwarded-For addresses, and still serves a rider', async () => {
      const h = await make({ ...small, trustProxy: 1 });
      const rider = await h.user();
      const addresses = Array.from({ length: 4 }, (_, n) => `203.0.113.${n + 1}`);
      const finished: string[] = [];
      const logins = addresses.flatMap((address) =>
        Array.from({ length: 7 }, (_, n) =>
          h.server
            .inject({
              method: 'POST',
              url: '/api/v1/jwt-token/',
              headers: { 'x-forwarded-for': address },
              payload: { email: `nobody${n}@${address}.example`, password: 'a guess' },
            })
            .then((reply) => {
              finished.push('login');
              return { address, reply };
            }),
        ),
      );
      const reads = Array.from({ length: 10 }, () =>
        h.server
          .inject({ url: '/api/v2/workouts/', headers: bearer(rider.access) })
          .then((reply) => {
            finished.push('read');
            return reply;
          }),
      );
      const [loginReplies, readReplies] = await Promise.all([
        Promise.all(logins),
        Promise.all(reads),
      ]);
      for (const address of addresses) {
        const own = loginReplies.filter((login) => login.address === address);
        // Five reach the login (a wrong password: 401, or 503 when the hashing queue is
        // full); the other two are refused before it.
        const limited = own.filter(({ reply }) => reply.statusCode === 429);
        expect(limited).toHaveLength(2);
        for (const { reply } of limited) expectLimited(reply);
        for (const { reply } of own.filter(({ reply }) => reply.statusCode !== 429))
          expect([401, 503]).toContain(reply.statusCode);
      }
      expect(statuses(readReplies)).toEqual(Array.from({ length: 10 }, () => 200));
      // The rider's reads did not wait behind the burst's password checks.
      expect(finished.lastIndexOf('read')).toBeLessThan(finished.lastIndexOf('login'));
    });

    it('limits strangers flooding an address without refusing the signed-in riders behind it', async () => {
      const h = await make({ ...small, trustProxy: 1 });
      const rider = await h.user();
      const office = { 'x-forwarded-for': '203.0.113.77' };
      const flood = await Promise.all(
        Array.from({ length: 30 }, () =>
          h.server.inject({ url: '/api/v2/posts/', headers: office }),
        ),
      );
      expect(count(statuses(flood), 429)).toBe(25);
      // A stranger's refusal is held up to a second before it is sent; the rider's requests
      // sent beside it are not held: all of them come back before it.
      const order: string[] = [];
      const stranger = h.server
        .inject({ url: '/api/v2/posts/', headers: office })
        .then((reply) => (order.push('stranger'), reply));
      const own = await Promise.all([
        ...Array.from({ length: 8 }, () =>
          h.server.inject({
            url: '/api/v2/workouts/',
            headers: { ...office, ...bearer(rider.access) },
          }),
        ),
        // A public page asked with a valid token counts against the rider too.
        ...Array.from({ length: 4 }, () =>
          h.server.inject({
            url: '/api/v2/posts/',
            headers: { ...office, ...bearer(rider.access) },
          }),
        ),
      ]);
      order.push('rider');
      expect(statuses(own)).toEqual(Array.from({ length: 12 }, () => 200));
      expectLimited(await stranger);
      expect(order).toEqual(['rider', 'stranger']);
      // A stranger on the address is still refused, and so is a forged token there.
      expectLimited(await h.server.inject({ url: '/api/v2/posts/', headers: office }));
      const [head, body] = rider.access.split('.');
      const forged = await h.server.inject({
        url: '/api/v2/posts/',
        headers: { ...office, authorization: `Bearer ${head}.${body}.${'A'.repeat(43)}` },
      });
      expectLimited(forged);
    });

    it('counts a forged token against its address, never against the rider it names', async () => {
      const h = await make(small);
      const victim = await h.user();
      const [header, payload] = victim.access.split('.');
      const forged = `${header}.${payload}.${'A'.repeat(43)}`;
      const forger = await Promise.all(
        Array.from({ length: 12 }, () =>
          h.server.inject({
            url: '/api/v2/workouts/',
            headers: bearer(forged),
            remoteAddress: '198.51.100.23',
          }),
        ),
      );
      const refused = statuses(forger);
      expect(count(refused, 401) + count(refused, 429)).toBe(12);
      // Counted on arrival against the address (5 a window here), not only after their 401:
      // the sixth and later are refused before any route runs.
      expect(count(refused, 401)).toBeLessThanOrEqual(5);
      expect(count(refused, 429)).toBeGreaterThanOrEqual(7);
      expectLimited(
        await h.server.inject({ url: '/api/v2/posts/', remoteAddress: '198.51.100.23' }),
      );
      const own = await Promise.all(
        Array.from({ length: 20 }, () =>
          h.server.inject({ url: '/api/v2/workouts/', headers: bearer(victim.access) }),
        ),
      );
      expect(statuses(own)).toEqual(Array.from({ length: 20 }, () => 200));
    });

    it("never refuses the load balancer's health and readiness probes", async () => {
      const h = await make(small);
      const probes = await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          h.server.inject({ url: n % 2 ? '/api/health' : '/api/ready' }),
        ),
      );
      expect(statuses(probes)).toEqual(Array.from({ length: 12 }, () => 200));
      const anonymous = await Promise.all(
        Array.from({ length: 8 }, () => h.server.inject({ url: '/api/v2/posts/' })),
      );
      expect(count(statuses(anonymous), 429)).toBe(3);
    });

    if (kind === 'postgres')
      it('shares the count between two server processes on one database', async () => {
        const h = await make(small);
        const rider = await h.user();
        const second = await h.anotherProcess();
        try {
          const list = (server: typeof second) =>
            server.inject({ url: '/api/v2/workouts/', headers: bearer(rider.access) });
          const first = await Promise.all(Array.from({ length: 15 }, () => list(h.server)));
          expect(count(statuses(first), 200)).toBe(15);
          const then = await Promise.all(Array.from({ length: 15 }, () => list(second)));
          expect(count(statuses(then), 200)).toBe(5);
          expect(count(statuses(then), 429)).toBe(10);
          // The count lives in the database, where every process reads it.
          const [row] = await h.db.query<{ points: number }>(
            'SELECT points FROM request_limits WHERE key = $1',
            [`rider:${rider.id}`],
          );
          // (The second process stops asking once it knows the rider is over: 21 to 30.)
          expect(row?.points).toBeGreaterThan(20);
          // And the first process, which never saw the excess, refuses the rider too.
          expectLimited(await list(h.server));
        } finally {
          await second.close();
        }
      });
  });
}
