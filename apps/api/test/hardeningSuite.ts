import { createHmac } from 'node:crypto';
import { fitCrc16 } from '@xoss/activity-files';
import { describe, expect, it } from 'vitest';
import { createUser } from '../src/commands/createUser.ts';
import { demoGpx } from '../src/commands/seed.ts';
import { buildServer } from '../src/server.ts';
import { multipartBody } from '../src/testing/multipart.ts';
import {
  PASSWORD,
  bearer,
  fitFile,
  suiteHarnesses,
  upload,
  type DatabaseFactory,
  type Harness,
} from './harness.ts';

/** Starts the harness's server on a loopback port: concurrency needs real sockets. */
async function listen(h: Harness): Promise<string> {
  await h.server.listen({ port: 0, host: '127.0.0.1' });
  const address = h.server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** The hardening fixes (apps/api/README.md, security checklist), on both databases. */
export function defineHardeningSuite(makeFactory: () => Promise<DatabaseFactory>): void {
  const make = suiteHarnesses(makeFactory);

  describe('login under load', () => {
    it('verifies at most the per-account limit of simultaneous guesses, from several addresses', async () => {
      const h = await make({ loginFailuresPerAccount: 5, trustProxy: 1 });
      await h.user('target@example.com');
      const base = await listen(h);
      const guesses = Array.from({ length: 30 }, (_, i) => (i === 29 ? PASSWORD : `guess-${i}`));
      const replies = await Promise.all(
        guesses.map((password, i) =>
          fetch(
            `${base}/api/v1/jwt-token/`,
            json(
              { email: 'target@example.com', password },
              { 'x-forwarded-for': `203.0.113.${i % 3}` },
            ),
          ),
        ),
      );
      const statuses = replies.map((reply) => reply.status);
      const verified = statuses.filter((status) => status === 401 || status === 200).length;
      expect(verified).toBeLessThanOrEqual(5);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(25);
      // The password arrived last: the limit was spent, so it was never checked.
      expect(statuses[29]).toBe(429);
    });

    it('refuses logins beyond the hashing cap at once with 503 + Retry-After, and downloads still answer', async () => {
      const h = await make({
        passwordHashConcurrency: 1,
        passwordHashQueue: 2,
        loginAttemptsPerIp: 100_000,
        loginFailuresPerAccount: 100_000,
        requestsPerAddress: 100_000,
      });
      const rider = await h.user('downloads@example.com');
      const imported = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'ride.fit',
        bytes: fitFile(600),
      });
      expect(imported.statusCode).toBe(201);
      const id = imported.json<{ data: { id: number } }>().data.id;
      const base = await listen(h);
      // The order things happen in (not their times: a loaded machine stretches those).
      const order: string[] = [];
      const login = async (i: number) => {
        const reply = await fetch(
          `${base}/api/v1/jwt-token/`,
          json({ email: `guest${i}@example.com`, password: 'wrong password' }),
        );
        await reply.arrayBuffer();
        order.push(`${reply.status}`);
        return reply;
      };
      const logins = await Promise.all(Array.from({ length: 24 }, (_, i) => login(i)));
      const busy = logins.filter((reply) => reply.status === 503);
      const hashed = logins.filter((reply) => reply.status === 401);
      // One hashing and two waiting at most: the rest refused, never hashed nor queued.
      expect(busy.length).toBeGreaterThan(0);
      expect(hashed.length).toBeGreaterThan(0);
      expect(busy.length + hashed.length).toBe(24);
      for (const reply of busy) expect(reply.headers.get('retry-after')).toBe('2');
      // A refusal waits for no hash: the last reply is a hashed one (a 503 is only given
      // while a hash runs, and that hash's 401 comes after it).
      expect(order.at(-1)).toBe('401');
      // A download while logins keep the gate full (they go on in waves, refused, until it is
      // back): it is answered, not held behind the hashes on the thread pool they share.
      let downloaded = false;
      let waves = 0;
      let resolveFull!: () => void;
      const full = new Promise<void>((resolve) => (resolveFull = resolve));
      const flood = (async () => {
        for (; !downloaded && waves < 200; waves++) {
          const wave = await Promise.all(
            Array.from({ length: 4 }, (_, i) => login(1000 + waves * 4 + i)),
          );
          if (wave.some((reply) => reply.status === 503)) resolveFull();
        }
      })();
      await full;
      const download = await fetch(`${base}/api/v2/workouts/${id}/fit/`, {
        headers: bearer(rider.access),
      });
      await download.arrayBuffer();
      downloaded = true;
      await flood;
      expect(download.status).toBe(200);
    });

    it('hashes at most PASSWORD_HASHES_PER_SECOND passwords a second, whatever the addresses, and refuses the rest at once', async () => {
      const h = await make({
        passwordHashConcurrency: 4,
        passwordHashQueue: 64,
        passwordHashesPerSecond: 2,
        trustProxy: 1,
      });
      const base = await listen(h);
      // Each guess from an address of its own: no address reaches its login limit.
      const replies = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          fetch(
            `${base}/api/v1/jwt-token/`,
            json(
              { email: `guess${i}@example.com`, password: 'wrong password' },
              { 'x-forwarded-for': `10.9.0.${i + 1}` },
            ),
          ),
        ),
      );
      const statuses = replies.map((reply) => reply.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(2);
      const busy = replies.filter((reply) => reply.status === 503);
      expect(busy).toHaveLength(10);
      for (const reply of busy) {
        expect(reply.headers.get('retry-after')).toBe('2');
        expect(((await reply.json()) as { code: number }).code).toBe(10503);
      }
    });
  });

  describe('token keys', () => {
    it('verifies a token signed with a previous key, and refuses one with an unknown kid', async () => {
      const h = await make({ jwtSecret: 'previous-secret-0123456789abcdef' });
      const rider = await h.user();
      const rotated = await buildServer({
        db: h.db,
        blobs: h.blobs,
        config: {
          ...h.config,
          jwtSecret: 'current-secret-0123456789abcdef',
          jwtPreviousSecrets: ['previous-secret-0123456789abcdef'],
        },
        now: () => h.clock,
      });
      const me = (server: typeof rotated, token: string) =>
        server.inject({
          method: 'GET',
          url: `/api/v2/athlete/${rider.id}/`,
          headers: bearer(token),
        });
      try {
        expect((await me(rotated, rider.access)).statusCode).toBe(200);
        const [header, payload] = rider.access.split('.') as [string, string];
        const parsed = JSON.parse(Buffer.from(header, 'base64url').toString()) as {
          kid?: string;
        };
        expect(typeof parsed.kid).toBe('string');
        // The same claims under a kid no key has, signed with the current secret.
        const unknownHeader = Buffer.from(
          JSON.stringify({ ...parsed, kid: 'no-such-key' }),
        ).toString('base64url');
        const unknown = `${unknownHeader}.${payload}.${createHmac('sha256', 'current-secret-0123456789abcdef').update(`${unknownHeader}.${payload}`).digest('base64url')}`;
        expect((await me(rotated, unknown)).statusCode).toBe(401);
        // Without the previous key, the old token is refused.
        const forgotten = await buildServer({
          db: h.db,
          blobs: h.blobs,
          config: { ...h.config, jwtSecret: 'current-secret-0123456789abcdef' },
          now: () => h.clock,
        });
        expect((await me(forgotten, rider.access)).statusCode).toBe(401);
        await forgotten.close();
      } finally {
        await rotated.close();
      }
    });
  });

  describe('passwords', () => {
    it('trims the password the same way at create-user and at login', async () => {
      const h = await make();
      await createUser(h.db, 'spaced@example.com', 'spaced', '  spaced secret  ');
      await createUser(h.db, 'plain@example.com', 'plain', 'plain secret');
      const login = (email: string, password: string) =>
        h.server.inject({
          method: 'POST',
          url: '/api/v1/jwt-token/',
          payload: { email, password },
        });
      expect((await login('spaced@example.com', 'spaced secret')).statusCode).toBe(200);
      expect((await login('spaced@example.com', '  spaced secret  ')).statusCode).toBe(200);
      expect((await login('plain@example.com', ' plain secret\t')).statusCode).toBe(200);
      expect((await login('plain@example.com', 'plain  secret')).statusCode).toBe(401);
      // Eight characters once trimmed, not counting the spaces around them.
      await expect(createUser(h.db, 'short@example.com', 'short', '   short   ')).rejects.toThrow(
        /at least 8/,
      );
    });
  });

  describe('request validation', () => {
    it('answers U+0000 in any text field with 400 naming the field', async () => {
      const h = await make();
      const rider = await h.user();
      const nul = 'before\u0000after';
      const imported = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'ride.fit',
        bytes: fitFile(300),
      });
      const workoutId = imported.json<{ data: { id: number } }>().data.id;
      const post = await h.server.inject({
        method: 'POST',
        url: '/api/v2/posts/',
        headers: bearer(rider.access),
        payload: { title: 'A post', body: 'Text' },
      });
      const postId = post.json<{ data: { id: number } }>().data.id;
      const gpx = new TextEncoder().encode(demoGpx(1, 50, false));
      const cases: [string, () => Promise<{ statusCode: number; json: () => unknown }>][] = [
        [
          'name',
          () =>
            h.server.inject({
              method: 'PATCH',
              url: `/api/v2/workouts/${workoutId}/`,
              headers: bearer(rider.access),
              payload: { name: nul },
            }),
        ],
        [
          'username',
          () =>
            h.server.inject({
              method: 'PATCH',
              url: `/api/v2/athlete/${rider.id}/`,
              headers: bearer(rider.access),
              payload: { username: nul },
            }),
        ],
        [
          'title',
          () =>
            h.server.inject({
              method: 'POST',
              url: '/api/v2/posts/',
              headers: bearer(rider.access),
              payload: { title: nul, body: 'Text' },
            }),
        ],
        [
          'body',
          () =>
            h.server.inject({
              method: 'POST',
              url: `/api/v2/posts/${postId}/comments/`,
              headers: bearer(rider.access),
              payload: { body: nul },
            }),
        ],
        [
          'title',
          () =>
            upload(
              h,
              '/api/v2/routebooks/',
              rider.access,
              { filename: 'route.gpx', bytes: gpx },
              { title: nul },
            ),
        ],
        [
          'name',
          () =>
            upload(
              h,
              '/api/v2/workouts/',
              rider.access,
              { filename: 'ride.fit', bytes: fitFile(300, 2) },
              { name: nul },
            ),
        ],
      ];
      for (const [index, [field, send]] of cases.entries()) {
        const reply = await send();
        expect(reply.statusCode, `case ${index}`).toBe(400);
        expect(reply.json(), `case ${index}`).toMatchObject({
          code: 10400,
          errors: [{ path: field, message: expect.stringContaining('U+0000') as string }],
        });
      }
    });
  });

  describe('uploads', () => {
    it('holds the storage quota against simultaneous uploads', async () => {
      const h = await make();
      const rider = await h.user();
      const files = Array.from({ length: 12 }, (_, i) => fitFile(600, 100 + i));
      const size = Math.max(...files.map((file) => file.length));
      const quota = Math.floor(size * 12);
      await h.db.query('UPDATE users SET quota_bytes = $1 WHERE id = $2', [quota, rider.id]);
      const base = await listen(h);
      const replies = await Promise.all(
        files.map((bytes, i) => {
          const { body, contentType } = multipartBody(
            {},
            { name: 'file', filename: `${i}.fit`, bytes },
          );
          return fetch(`${base}/api/v2/workouts/`, {
            method: 'POST',
            headers: { ...bearer(rider.access), 'content-type': contentType },
            body,
          });
        }),
      );
      const statuses = replies.map((reply) => reply.status);
      // Each ride stores its file and its streams (several times the file): at least one
      // fits, the rest are refused, and together they never overrun the quota.
      expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((status) => status === 201).length).toBeLessThanOrEqual(3);
      expect(statuses.every((status) => status === 201 || status === 413)).toBe(true);
      const [stored] = await h.db.query<{ bytes: number }>(
        `SELECT (SELECT coalesce(sum(file_bytes), 0) FROM workouts WHERE user_id = $1)::float8
              + (SELECT coalesce(sum(octet_length(s.data)), 0) FROM workout_streams s
                   JOIN workouts w ON w.id = s.workout_id WHERE w.user_id = $1)::float8 AS bytes`,
        [rider.id],
      );
      expect(stored!.bytes).toBeLessThanOrEqual(quota);
      // Reservations end with their requests: a small file fits in what is left.
      for (let i = 0; i < 50; i++) {
        const [left] = await h.db.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM quota_reservations',
        );
        if (left!.count === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const small = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'small.fit',
        bytes: fitFile(30, 200),
      });
      expect(small.statusCode).toBe(201);
    });

    it('answers an Idempotency-Key reused with a different file with 422, and a malformed key with 400', async () => {
      const h = await make();
      const rider = await h.user();
      const send = (bytes: Uint8Array, key: string) =>
        upload(
          h,
          '/api/v2/workouts/',
          rider.access,
          { filename: 'ride.fit', bytes },
          {},
          { 'idempotency-key': key },
        );
      const first = fitFile(300, 11);
      const created = await send(first, 'retry-key-0001');
      expect(created.statusCode).toBe(201);
      const again = await send(first, 'retry-key-0001');
      expect(again.statusCode).toBe(200);
      expect(again.json<{ data: { id: number } }>().data.id).toBe(
        created.json<{ data: { id: number } }>().data.id,
      );
      const other = await send(fitFile(300, 12), 'retry-key-0001');
      expect(other.statusCode).toBe(422);
      expect(other.json()).toMatchObject({ code: 10422, msg: 'idempotency_key_reused' });
      for (const bad of ['short', 'has spaces in it', 'x'.repeat(65), 'ünïcode-key']) {
        const reply = await send(first, bad);
        expect(reply.statusCode, bad).toBe(400);
        expect(reply.json(), bad).toMatchObject({
          code: 10400,
          errors: [{ path: 'Idempotency-Key' }],
        });
      }
      expect(await h.db.query('SELECT id FROM workouts')).toHaveLength(1);
    });
  });

  describe('smaller fixes', () => {
    it('answers a full database disk with 503 / 10503', async () => {
      const h = await make();
      const rider = await h.user();
      const original = h.db.transaction.bind(h.db);
      (h.db as { transaction: typeof h.db.transaction }).transaction = () =>
        Promise.reject(
          Object.assign(new Error('could not extend file "base/1/2": No space left on device'), {
            code: '53100',
          }),
        );
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'ride.fit',
        bytes: fitFile(300, 21),
      });
      (h.db as { transaction: typeof h.db.transaction }).transaction = original;
      expect(reply.statusCode).toBe(503);
      expect(reply.json()).toMatchObject({ code: 10503 });
      expect(reply.body).not.toContain('No space');
      expect(await h.blobs.list('workouts')).toEqual([]);
    });

    it('applies the 120-character name rule of PATCH to the import name', async () => {
      const h = await make();
      const rider = await h.user();
      const reply = await upload(
        h,
        '/api/v2/workouts/',
        rider.access,
        { filename: 'ride.fit', bytes: fitFile(300, 22) },
        { name: 'x'.repeat(121) },
      );
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ code: 10400, errors: [{ path: 'name' }] });
      const trimmed = await upload(
        h,
        '/api/v2/workouts/',
        rider.access,
        { filename: 'ride.fit', bytes: fitFile(300, 22) },
        { name: '  Evening loop  ' },
      );
      expect(trimmed.statusCode).toBe(201);
      expect(trimmed.json()).toMatchObject({ data: { name: 'Evening loop' } });
    });

    it('refuses a FIT file of empty 255-field definitions (no records) with 415', async () => {
      const h = await make();
      const rider = await h.user();
      // A record (global 20) definition of 255 fields: a timestamp (field 253) and 254 one-byte
      // fields, and records whose every other field holds the invalid value 0xFF: records
      // with nothing in them but a zero time (the FIT epoch, 31 December 1989).
      const definitions: number[] = [0x40, 0, 0, 20, 0, 255, 253, 4, 0x86];
      for (let field = 0; field < 254; field++) definitions.push(field, 1, 0x00);
      for (let record = 0; record < 3; record++)
        definitions.push(0x00, record, 0, 0, 0, ...new Array<number>(254).fill(0xff));
      const bytes = new Uint8Array(14 + definitions.length + 2);
      const view = new DataView(bytes.buffer);
      bytes.set([14, 0x20], 0);
      view.setUint16(2, 2132, true);
      view.setUint32(4, definitions.length, true);
      bytes.set([0x2e, 0x46, 0x49, 0x54], 8);
      view.setUint16(12, fitCrc16(bytes, 0, 12), true);
      bytes.set(definitions, 14);
      view.setUint16(14 + definitions.length, fitCrc16(bytes, 0, 14 + definitions.length), true);
      const reply = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'empty.fit',
        bytes,
      });
      expect(reply.statusCode).toBe(415);
      expect(reply.json()).toMatchObject({
        code: 10415,
        detail: expect.stringContaining('no records') as string,
      });
      expect(await h.db.query('SELECT id FROM workouts')).toEqual([]);
    });

    it('refuses a token whose signature is not in canonical base64url', async () => {
      const h = await make();
      const rider = await h.user();
      const me = (token: string) =>
        h.server.inject({
          method: 'GET',
          url: `/api/v2/athlete/${rider.id}/`,
          headers: bearer(token),
        });
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      // 32 bytes are 43 characters: the last carries 4 bits of data and 2 unused low bits.
      const last = rider.access.at(-1)!;
      const twin = alphabet[alphabet.indexOf(last) ^ 1]!;
      const forged = rider.access.slice(0, -1) + twin;
      const signature = forged.split('.')[2]!;
      expect(Buffer.from(signature, 'base64url')).toEqual(
        Buffer.from(rider.access.split('.')[2]!, 'base64url'),
      );
      expect((await me(rider.access)).statusCode).toBe(200);
      expect((await me(forged)).statusCode).toBe(401);
    });

    it('accepts the Bearer scheme in any case', async () => {
      const h = await make();
      const rider = await h.user();
      for (const scheme of ['bearer', 'BEARER', 'Bearer'])
        expect(
          (
            await h.server.inject({
              method: 'GET',
              url: `/api/v2/athlete/${rider.id}/`,
              headers: { authorization: `${scheme} ${rider.access}` },
            })
          ).statusCode,
          scheme,
        ).toBe(200);
    });

    it('refuses to bind a serial already bound to another account with 409', async () => {
      const h = await make();
      const first = await h.user();
      const second = await h.user();
      const bind = (access: string, serial: string) =>
        h.server.inject({
          method: 'POST',
          url: '/api/v2/devices/',
          headers: bearer(access),
          payload: { serial, model: 'NAV' },
        });
      expect((await bind(first.access, 'XN-100200')).statusCode).toBe(201);
      const taken = await bind(second.access, 'xn-100200');
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({
        code: 10409,
        detail: expect.stringContaining('another account') as string,
        errors: [{ path: 'serial' }],
      });
      expect(await h.db.query('SELECT id FROM devices')).toHaveLength(1);
    });
  });
}
