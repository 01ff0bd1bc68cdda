import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Sessions } from '../src/auth/sessions.ts';
import { PASSWORD, bearer, suiteHarnesses, type DatabaseFactory, type Harness } from './harness.ts';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const NEW_PASSWORD = 'a brand new passphrase';

interface Pair {
  readonly access: string;
  readonly refresh: string;
}

interface Envelope<T = unknown> {
  readonly code: number;
  readonly msg: string;
  readonly detail?: string;
  readonly data: T;
}

interface SessionItem {
  readonly id: string;
  readonly browser: string;
  readonly created_at: string;
  readonly last_used_at: string;
  readonly ip: string | null;
  readonly current: boolean;
}

async function login(
  h: Harness,
  email: string,
  password: string,
  headers: Record<string, string> = {},
) {
  const reply = await h.server.inject({
    method: 'POST',
    url: '/api/v1/jwt-token/',
    payload: { email, password },
    headers,
  });
  return { status: reply.statusCode, body: reply.json<Envelope<Pair>>() };
}

async function signIn(h: Harness, email: string, headers: Record<string, string> = {}) {
  const { status, body } = await login(h, email, PASSWORD, headers);
  expect(status).toBe(200);
  return body.data;
}

/** Whether an access token is still accepted (a read of the rider's own profile). */
const accessWorks = async (h: Harness, id: number, access: string) =>
  (await h.server.inject({ url: `/api/v2/athlete/${id}/`, headers: bearer(access) })).statusCode ===
  200;

const refreshStatus = async (h: Harness, refresh: string) =>
  (
    await h.server.inject({
      method: 'POST',
      url: '/api/v1/jwt-token/refresh/',
      payload: { refresh },
    })
  ).statusCode;

const changePassword = (h: Harness, access: string, current: string, next: string) =>
  h.server.inject({
    method: 'POST',
    url: '/api/v2/athlete/password/',
    headers: bearer(access),
    payload: { current_password: current, new_password: next },
  });

const requestReset = (h: Harness, email: string, headers: Record<string, string> = {}) =>
  h.server.inject({ method: 'POST', url: '/api/v1/password-reset/', payload: { email }, headers });

const confirmReset = (h: Harness, token: string, password: string) =>
  h.server.inject({
    method: 'POST',
    url: '/api/v1/password-reset/confirm/',
    payload: { token, password },
  });

const listSessions = async (h: Harness, access: string) => {
  const reply = await h.server.inject({
    url: '/api/v2/athlete/sessions/',
    headers: bearer(access),
  });
  expect(reply.statusCode).toBe(200);
  return reply.json<Envelope<SessionItem[]>>().data;
};

/** The mails of the outbox: raw text, with quoted-printable soft breaks and escapes undone. */
function outbox(dir: string): { file: string; text: string }[] {
  let files: string[];
  try {
    // The mails, as a relay reads them: not a hidden one being written.
    files = readdirSync(dir)
      .filter((file) => file.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return files.map((file) => ({
    file,
    text: readFileSync(join(dir, file), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  }));
}

const linkIn = (text: string) => {
  const match = /https:\/\/xoss\.example\/login\/reset\?token=([A-Za-z0-9_-]{43})/.exec(text);
  expect(match, 'a reset link in the mail').not.toBeNull();
  return match![1]!;
};

/** Password change, password reset by e-mail and the rider's sessions, on both databases. */
export function defineAccountSuite(makeFactory: () => Promise<DatabaseFactory>): void {
  const make = suiteHarnesses(makeFactory);
  const folders: string[] = [];
  afterEach(() => {
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  /** A server whose mail goes to a fresh outbox folder, with links to xoss.example. */
  const withOutbox = async (overrides: Parameters<typeof make>[0] = {}) => {
    const outboxDir = mkdtempSync(join(tmpdir(), 'xoss-outbox-'));
    folders.push(outboxDir);
    const h = await make({
      mailOutboxDir: outboxDir,
      publicOrigin: 'https://xoss.example',
      ...overrides,
    });
    return { h, outboxDir };
  };

  describe('changing the password', () => {
    it('needs the current password, keeps the caller signed in and signs every other session out', async () => {
      const h = await make();
      const rider = await h.user('changer@example.com');
      const other = await signIn(h, rider.email, { 'user-agent': FIREFOX });

      const wrong = await changePassword(h, rider.access, 'not my password', NEW_PASSWORD);
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toMatchObject({ code: 10303, msg: 'wrong_password' });
      const weak = await changePassword(h, rider.access, PASSWORD, ' short  ');
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toMatchObject({ code: 10400 });
      // Neither refusal changed anything.
      expect(await accessWorks(h, rider.id, other.access)).toBe(true);

      const changed = await changePassword(h, rider.access, PASSWORD, NEW_PASSWORD);
      expect(changed.statusCode).toBe(200);
      // The caller's session goes on, access and refresh alike.
      expect(await accessWorks(h, rider.id, rider.access)).toBe(true);
      expect(await refreshStatus(h, rider.refresh)).toBe(200);
      // The other one ends at once: its access token is refused before it expires.
      expect(await accessWorks(h, rider.id, other.access)).toBe(false);
      expect(await refreshStatus(h, other.refresh)).toBe(401);
      expect((await login(h, rider.email, PASSWORD)).status).toBe(401);
      expect((await login(h, rider.email, NEW_PASSWORD)).status).toBe(200);
    });

    it('counts a wrong current password against the log-in limit of the account', async () => {
      const h = await make({ loginFailuresPerAccount: 3 });
      const rider = await h.user('guessed@example.com');
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await changePassword(h, rider.access, `guess ${i}`, NEW_PASSWORD)).statusCode,
        );
      expect(statuses).toEqual([403, 403, 403, 429]);
      // The same count as the log-in form: the right password is not even checked now.
      expect((await changePassword(h, rider.access, PASSWORD, NEW_PASSWORD)).statusCode).toBe(429);
      expect((await login(h, rider.email, PASSWORD)).status).toBe(429);
    });
  });

  describe('password reset by e-mail', () => {
    it('answers 202 with the same body for an unknown and a known address, and mails only the known one', async () => {
      const { h, outboxDir } = await withOutbox();
      await h.user('known@example.com');
      const unknown = await requestReset(h, 'nobody@example.com');
      const known = await requestReset(h, 'Known@Example.com');
      expect(unknown.statusCode).toBe(202);
      expect(known.statusCode).toBe(202);
      expect(known.body).toBe(unknown.body);
      expect(known.json()).toEqual({ code: 0, msg: 'success', data: {} });
      await h.server.mailer.idle();
      const mails = outbox(outboxDir);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.file).toMatch(/\.eml$/);
      expect(mails[0]!.text).toMatch(/^To: known@example\.com$/m);
      expect(mails[0]!.text).toMatch(/^Subject: Reset your XOSS password$/m);
      const token = linkIn(mails[0]!.text);
      // Only the token's hash is stored; the log names the file, never the token.
      const rows = await h.db.query<{ token_hash: string }>(
        'SELECT token_hash FROM password_resets',
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).not.toContain(token);
      const log = h.logs.join('');
      expect(log).toContain(mails[0]!.file);
      expect(log).not.toContain(token);
    });

    it('keeps a promised mail through a full disk, and refuses the request when it cannot be kept', async () => {
      const blocked = join(mkdtempSync(join(tmpdir(), 'xoss-outbox-')), 'outbox');
      folders.push(dirname(blocked));
      // The outbox cannot be written (a file stands where its folder goes), as on a full disk.
      writeFileSync(blocked, '');
      const h = await make({
        mailOutboxDir: blocked,
        publicOrigin: 'https://xoss.example',
        mailRetryDelayS: 1,
      });
      await h.user('patient@example.com');
      expect((await requestReset(h, 'patient@example.com')).statusCode).toBe(202);
      await vi.waitFor(() =>
        expect(h.logs.join('')).toContain('a mail job failed: it is tried again later'),
      );
      // Room again: the queue's next try writes it.
      rmSync(blocked);
      await vi.waitFor(() => expect(outbox(blocked)).toHaveLength(1), {
        interval: 250,
      });
      expect(outbox(blocked)[0]!.text).toMatch(/^To: patient@example\.com$/m);

      // The database cannot keep the job (its disk full): 503, not a 202 whose mail is lost.
      const send = vi.spyOn(h.server.importJobs.boss, 'send').mockRejectedValue(
        Object.assign(new Error('could not extend file: No space left on device'), {
          code: '53100',
        }),
      );
      try {
        const refused = await requestReset(h, 'patient@example.com');
        expect(refused.statusCode).toBe(503);
        expect(refused.headers['retry-after']).toBeDefined();
      } finally {
        send.mockRestore();
      }
    });

    it('sets the password with the link once and ends every session at once', async () => {
      const { h, outboxDir } = await withOutbox();
      const rider = await h.user('forgetful@example.com');
      const second = await signIn(h, rider.email, { 'user-agent': FIREFOX });
      await requestReset(h, rider.email);
      await h.server.mailer.idle();
      const token = linkIn(outbox(outboxDir)[0]!.text);

      const weak = await confirmReset(h, token, 'short');
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toMatchObject({ code: 10400 });
      // A refused new password did not use the link up.
      const done = await confirmReset(h, token, NEW_PASSWORD);
      expect(done.statusCode).toBe(200);
      for (const pair of [rider, second]) {
        expect(await accessWorks(h, rider.id, pair.access)).toBe(false);
        expect(await refreshStatus(h, pair.refresh)).toBe(401);
      }
      expect((await login(h, rider.email, PASSWORD)).status).toBe(401);
      const fresh = await login(h, rider.email, NEW_PASSWORD);
      expect(fresh.status).toBe(200);

      const again = await confirmReset(h, token, 'yet another passphrase');
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ code: 10304, msg: 'reset_token_invalid' });
      expect((await login(h, rider.email, NEW_PASSWORD)).status).toBe(200);
      expect(await accessWorks(h, rider.id, fresh.body.data.access)).toBe(true);
    });

    it('refuses an expired link, a made-up one and a malformed one', async () => {
      const { h, outboxDir } = await withOutbox();
      const rider = await h.user('late@example.com');
      await requestReset(h, rider.email);
      await h.server.mailer.idle();
      const token = linkIn(outbox(outboxDir)[0]!.text);
      h.clock += 31 * 60 * 1000;
      const expired = await confirmReset(h, token, NEW_PASSWORD);
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toMatchObject({ code: 10304 });
      const madeUp = await confirmReset(h, 'A'.repeat(43), NEW_PASSWORD);
      expect(madeUp.json()).toMatchObject({ code: 10304 });
      const malformed = await confirmReset(h, 'not a token', NEW_PASSWORD);
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ code: 10400 });
      expect((await login(h, rider.email, PASSWORD)).status).toBe(200);
    });

    it('lets exactly one of two concurrent confirms of one link set the password', async () => {
      const { h, outboxDir } = await withOutbox();
      const rider = await h.user('racer@example.com');
      await requestReset(h, rider.email);
      await h.server.mailer.idle();
      const token = linkIn(outbox(outboxDir)[0]!.text);
      const replies = await Promise.all([
        confirmReset(h, token, 'first new passphrase'),
        confirmReset(h, token, 'second new passphrase'),
      ]);
      expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 400]);
      const loser = replies.find((reply) => reply.statusCode === 400)!;
      expect(loser.json()).toMatchObject({ code: 10304 });
      const winner = replies[0].statusCode === 200 ? 'first' : 'second';
      const loserPassword = winner === 'first' ? 'second' : 'first';
      expect((await login(h, rider.email, `${winner} new passphrase`)).status).toBe(200);
      expect((await login(h, rider.email, `${loserPassword} new passphrase`)).status).toBe(401);
    });

    it('limits requests per e-mail, known or not, and per address', async () => {
      const { h, outboxDir } = await withOutbox({
        passwordResetsPerEmail: 2,
        passwordResetsPerIp: 5,
        trustProxy: 1,
      });
      await h.user('popular@example.com');
      const statuses = async (email: string, ip: string, times: number) => {
        const result: number[] = [];
        for (let i = 0; i < times; i++)
          result.push((await requestReset(h, email, { 'x-forwarded-for': ip })).statusCode);
        return result;
      };
      // Per e-mail, from different addresses: the same for an address with an account and
      // one without, so the limit tells nothing either.
      expect(await statuses('popular@example.com', '198.51.100.1', 3)).toEqual([202, 202, 429]);
      expect(await statuses('stranger@example.com', '198.51.100.2', 3)).toEqual([202, 202, 429]);
      // Per address, with a new e-mail each time.
      const perIp: number[] = [];
      for (let i = 0; i < 6; i++)
        perIp.push(
          (await requestReset(h, `someone${i}@example.com`, { 'x-forwarded-for': '198.51.100.9' }))
            .statusCode,
        );
      expect(perIp).toEqual([202, 202, 202, 202, 202, 429]);
      const limited = await requestReset(h, 'popular@example.com', {
        'x-forwarded-for': '198.51.100.3',
      });
      expect(limited.json()).toMatchObject({ code: 10302 });
      expect(limited.headers['retry-after']).toBeDefined();
      await h.server.mailer.idle();
      expect(outbox(outboxDir)).toHaveLength(2);
    });
  });

  describe("the rider's sessions", () => {
    it('lists each session with its browser, times and last address, and marks the caller', async () => {
      const h = await make({ trustProxy: 1 });
      const email = 'lister@example.com';
      await h.user(email);
      h.clock += 60_000;
      const phone = await signIn(h, email, {
        'user-agent': SAFARI_IPHONE,
        'x-forwarded-for': '203.0.113.7',
      });
      h.clock += 60_000;
      const laptop = await signIn(h, email, {
        'user-agent': FIREFOX,
        'x-forwarded-for': '203.0.113.8',
      });
      let sessions = await listSessions(h, laptop.access);
      expect(sessions).toHaveLength(3);
      expect(sessions[0]).toMatchObject({
        browser: 'Firefox on Linux',
        ip: '203.0.113.8',
        current: true,
      });
      expect(sessions[1]).toMatchObject({
        browser: 'Safari on iOS',
        ip: '203.0.113.7',
        current: false,
      });
      expect(sessions.filter((session) => session.current)).toHaveLength(1);
      // A refresh from elsewhere moves the phone's session to the top, with its new address.
      h.clock += 60_000;
      const refreshed = await h.server.inject({
        method: 'POST',
        url: '/api/v1/jwt-token/refresh/',
        payload: { refresh: phone.refresh },
        headers: { 'user-agent': SAFARI_IPHONE, 'x-forwarded-for': '203.0.113.70' },
      });
      expect(refreshed.statusCode).toBe(200);
      sessions = await listSessions(h, laptop.access);
      expect(sessions).toHaveLength(3);
      expect(sessions[0]).toMatchObject({ browser: 'Safari on iOS', ip: '203.0.113.70' });
      expect(sessions[0]!.last_used_at).toBe(new Date(h.clock).toISOString());
      expect(sessions[0]!.created_at).toBe(new Date(h.clock - 120_000).toISOString());
    });

    it('signs one session out, or all but the caller, at once', async () => {
      const h = await make();
      const rider = await h.user('tidy@example.com');
      const second = await signIn(h, rider.email, { 'user-agent': FIREFOX });
      const third = await signIn(h, rider.email, { 'user-agent': SAFARI_IPHONE });
      const sessions = await listSessions(h, rider.access);
      const secondId = sessions.find((session) => session.browser === 'Firefox on Linux')!.id;
      const one = await h.server.inject({
        method: 'DELETE',
        url: `/api/v2/athlete/sessions/${secondId}/`,
        headers: bearer(rider.access),
      });
      expect(one.statusCode).toBe(200);
      expect(one.json<Envelope>().data).toEqual({ signed_out: 1 });
      expect(await accessWorks(h, rider.id, second.access)).toBe(false);
      expect(await refreshStatus(h, second.refresh)).toBe(401);
      expect(await accessWorks(h, rider.id, third.access)).toBe(true);
      const gone = await h.server.inject({
        method: 'DELETE',
        url: `/api/v2/athlete/sessions/${secondId}/`,
        headers: bearer(rider.access),
      });
      expect(gone.statusCode).toBe(404);

      const others = await h.server.inject({
        method: 'POST',
        url: '/api/v2/athlete/sessions/sign-out-others/',
        headers: bearer(rider.access),
      });
      expect(others.json<Envelope>().data).toEqual({ signed_out: 1 });
      expect(await accessWorks(h, rider.id, third.access)).toBe(false);
      expect(await accessWorks(h, rider.id, rider.access)).toBe(true);
      expect((await listSessions(h, rider.access)).map((session) => session.current)).toEqual([
        true,
      ]);
      const malformed = await h.server.inject({
        method: 'DELETE',
        url: '/api/v2/athlete/sessions/12/',
        headers: bearer(rider.access),
      });
      expect(malformed.statusCode).toBe(400);
    });

    it("keeps the caller's session when its access token expires while the request runs", async () => {
      const h = await make();
      const rider = await h.user('boundary@example.com');
      const other = await signIn(h, rider.email, { 'user-agent': FIREFOX });
      // Forced: the clock passes the access token's life between its check and the handler
      // (a loaded machine, a token a second from its end). A second check of the token in the
      // handler found it expired, named no session, and signed the caller out with the rest.
      // Called below with the instance as `this`.
      // eslint-disable-next-line @typescript-eslint/unbound-method
      const verify = Sessions.prototype.verify;
      const spy = vi.spyOn(Sessions.prototype, 'verify').mockImplementation(async function (
        this: Sessions,
        header,
      ) {
        const verified = await verify.call(this, header);
        h.clock += 11 * 60_000;
        return verified;
      });
      try {
        const listed = await listSessions(h, rider.access);
        expect(listed.filter((session) => session.current)).toHaveLength(1);
        h.clock -= 11 * 60_000;
        const others = await h.server.inject({
          method: 'POST',
          url: '/api/v2/athlete/sessions/sign-out-others/',
          headers: bearer(rider.access),
        });
        expect(others.json<Envelope>().data).toEqual({ signed_out: 1 });
      } finally {
        spy.mockRestore();
      }
      expect(await refreshStatus(h, other.refresh)).toBe(401);
      expect(await refreshStatus(h, rider.refresh)).toBe(200);
    });

    it("never shows or ends another rider's sessions", async () => {
      const h = await make();
      const alice = await h.user('alice@example.com');
      const bob = await h.user('bob@example.com');
      const aliceSessions = await listSessions(h, alice.access);
      const bobSessions = await listSessions(h, bob.access);
      expect(aliceSessions).toHaveLength(1);
      expect(bobSessions).toHaveLength(1);
      expect(bobSessions[0]!.id).not.toBe(aliceSessions[0]!.id);
      const attack = await h.server.inject({
        method: 'DELETE',
        url: `/api/v2/athlete/sessions/${aliceSessions[0]!.id}/`,
        headers: bearer(bob.access),
      });
      expect(attack.statusCode).toBe(404);
      const sweep = await h.server.inject({
        method: 'POST',
        url: '/api/v2/athlete/sessions/sign-out-others/',
        headers: bearer(bob.access),
      });
      expect(sweep.json<Envelope>().data).toEqual({ signed_out: 0 });
      expect(await accessWorks(h, alice.id, alice.access)).toBe(true);
      expect(await refreshStatus(h, alice.refresh)).toBe(200);
      const anonymous = await h.server.inject({ url: '/api/v2/athlete/sessions/' });
      expect(anonymous.statusCode).toBe(401);
    });
  });
}
