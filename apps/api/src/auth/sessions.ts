// Over 300 lines: login, refresh with rotation and its grace window, logout, the password
// rules, password changes and the rider's list of sessions are one session model whose
// invariants (which tokens still work after which event) are easiest to check side by side.
import { createHash, randomUUID } from 'node:crypto';
import { ErrorCode } from '@xoss/api-contract';
import type { ApiConfig } from '../platform/config.ts';
import type { Database, Queryable } from '../platform/db/db.ts';
import { ApiError } from '../http/envelope.ts';
import { bearerRider, bearerToken, jwtKeys, signJwt, verifyJwt, type JwtKeys } from './jwt.ts';
import { HashingBusy, HashingGate, type Reservation } from './hashingGate.ts';
import { dummyHash, hashPassword, verifyPassword } from './passwords.ts';
import { SharedLimiter } from './rateLimit.ts';

export interface TokenPair {
  readonly access: string;
  readonly refresh: string;
}

/** Who presents a refresh token: the address the request came from and its User-Agent. */
export interface Caller {
  readonly ip: string;
  readonly userAgent: string | undefined;
}

/** Security events go to the log with user, IP and UTC time; never tokens or passwords. */
export type SecurityLog = (event: string, fields: Record<string, unknown>) => void;

interface UserRow {
  id: number;
  password_hash: string;
  active: boolean;
  token_version: number;
}

const tokenInvalid = (detail: string) => new ApiError(ErrorCode.TokenInvalid, detail);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The fingerprint of the caller that rotated a refresh token: SHA-256 of the token's id, the
 * client address and the User-Agent. The token's id salts it, so equal callers do not give
 * equal values across rows; it is compared, never read back.
 */
const fingerprint = (jti: string, caller: Caller) =>
  createHash('sha256')
    .update(JSON.stringify([jti, caller.ip, caller.userAgent ?? '']))
    .digest('base64url');
const WRONG = 'Wrong username or password';
/** The longest User-Agent kept with a token: enough to name a browser, no more. */
const USER_AGENT_MAX = 512;

/** A signed-in session of a rider (a live refresh-token family), for the rider's list. */
export interface SessionRow {
  readonly family: string;
  readonly authTime: number;
  readonly lastUsed: number;
  readonly ip: string | null;
  readonly userAgent: string | null;
}

/** Login, access tokens, rotating refresh tokens with reuse detection, logout, revocation. */
/** What a password is checked for (the security log's event names). */
type PasswordEvent = 'login' | 'password.change' | 'account.delete';

export class Sessions {
  readonly #db: Database;
  readonly #config: ApiConfig;
  readonly #now: () => number;
  readonly #log: SecurityLog;
  /** Login attempts per account and per IP, counted in the database for every process. */
  readonly #limits: SharedLimiter;
  readonly #hashing: HashingGate;
  #keys: JwtKeys;

  constructor(db: Database, config: ApiConfig, log: SecurityLog, now: () => number = Date.now) {
    this.#db = db;
    this.#config = config;
    this.#now = now;
    this.#log = log;
    const windowMs = config.loginWindowS * 1000;
    this.#limits = new SharedLimiter(db, windowMs, now);
    this.#keys = jwtKeys(config.jwtSecret, config.jwtPreviousSecrets);
    // On the server's clock (a test's fake one), so a burst is counted in its second whatever
    // the machine's load spreads it over.
    this.#hashing = new HashingGate(
      config.passwordHashConcurrency,
      config.passwordHashQueue,
      config.passwordHashesPerSecond,
      now,
    );
  }

  /** Replaces the keys (read again from the database's shared keys). */
  useKeys(secret: string, previous: readonly string[]): void {
    this.#keys = jwtKeys(secret, previous);
  }

  private seconds(): number {
    return Math.floor(this.#now() / 1000);
  }

  /** E-mail + password → a token pair. Unknown e-mail and wrong password look the same. */
  async login(
    email: string,
    password: string,
    caller: Caller,
  ): Promise<TokenPair & { id: string }> {
    const account = email.trim().toLowerCase();
    return this.#withPassword(account, password, caller.ip, 'login', WRONG, async (user, check) => {
      if (check.upgrade)
        await this.#db.query('UPDATE users SET password_hash = $1 WHERE id = $2', [
          check.upgrade,
          user.id,
        ]);
      return this.signIn(user, caller);
    });
  }

  /**
   * Checks a rider's password under the log-in limits and the hashing gate, then runs `then`
   * with the rider (a log-in, or a password change). A wrong password, or an unknown or
   * inactive account, is a 10301 (log-in) or 10303 (`event` 'password.change') with
   * `wrong` as its detail, and counts against the account's and the address's log-in
   * limits: a password change cannot be used to guess a password faster than a log-in.
   */
  async #withPassword<T>(
    account: string,
    password: string,
    ip: string,
    event: PasswordEvent,
    wrong: string,
    then: (user: UserRow, check: { readonly upgrade?: string }) => Promise<T>,
  ): Promise<T> {
    // A burst beyond what the hashing can take is refused before its attempt is counted: the
    // count is a database transaction, and hundreds of them a second held up other riders.
    let hashing: Reservation;
    try {
      hashing = this.#hashing.reserve();
    } catch (error) {
      if (error instanceof HashingBusy) throw this.#busy(account, ip);
      throw error;
    }
    try {
      return await this.#checked(account, password, ip, hashing, event, wrong, then);
    } finally {
      // A login refused by its limit (or failed) before its hash gives its place back.
      hashing.release();
    }
  }

  async #checked<T>(
    account: string,
    password: string,
    ip: string,
    hashing: Reservation,
    event: PasswordEvent,
    wrong: string,
    then: (user: UserRow, check: { readonly upgrade?: string }) => Promise<T>,
  ): Promise<T> {
    // Both attempts are counted before the password is checked, in the same transaction as
    // the check (`SharedLimiter`): simultaneous guesses, on any process, cannot all pass the
    // check before the first is counted. A success takes its own attempt back; a failure
    // keeps it.
    const { waitS: wait, ids } = await this.#limits.attempt([
      { key: `account:${account}`, limit: this.#config.loginFailuresPerAccount },
      { key: `ip:${ip}`, limit: this.#config.loginAttemptsPerIp },
    ]);
    if (wait > 0) {
      this.#log(`${event}.rateLimited`, { email: account, ip });
      throw new ApiError(
        ErrorCode.TooManyAttempts,
        `Too many login attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`,
        { headers: { 'retry-after': String(wait) } },
      );
    }
    const attempt = ids[0]!;
    let counts = false;
    try {
      const [user] = await this.#db.query<UserRow>(
        'SELECT id, password_hash, active, token_version FROM users WHERE lower(email) = $1',
        [account],
      );
      // The same argon2 work runs for an unknown e-mail, so timing does not tell them apart.
      const check = await hashing.run(async () =>
        verifyPassword(user?.password_hash ?? (await dummyHash()), password),
      );
      if (!user || !check.matches || !user.active) {
        this.#log(`${event}.failed`, { email: account, ip, userId: user?.id });
        counts = true;
        throw new ApiError(
          event === 'login' ? ErrorCode.WrongCredentials : ErrorCode.WrongPassword,
          wrong,
        );
      }
      return await then(user, check);
    } finally {
      // Only a wrong password counts against the account; a success or our own failure does not.
      if (!counts) await this.#limits.refund(attempt);
    }
  }

  #busy(account: string, ip: string): ApiError {
    this.#log('login.busy', { email: account, ip });
    return new ApiError(
      ErrorCode.Unavailable,
      'Too many sign-ins at once; please try again in a few seconds',
      { headers: { 'retry-after': '2' } },
    );
  }

  private async signIn(user: UserRow, caller: Caller): Promise<TokenPair & { id: string }> {
    const now = this.seconds();
    const pair = await this.issue(user.id, user.token_version, randomUUID(), now, caller);
    this.#log('login.succeeded', { userId: user.id, ip: caller.ip });
    return { ...pair, id: String(user.id) };
  }

  private async issue(
    userId: number,
    version: number,
    family: string,
    authTime: number,
    caller: Caller,
  ): Promise<TokenPair> {
    const ids = { refresh: randomUUID(), access: randomUUID(), iat: this.seconds() };
    // When, where from and with what each token was issued: the rider's list of sessions.
    await this.#db.query(
      `INSERT INTO refresh_tokens (jti, family, user_id, auth_time, expires_at, issued_at, ip, user_agent)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        ids.refresh,
        family,
        userId,
        authTime,
        this.refreshExpiry(ids.iat, authTime),
        ids.iat,
        caller.ip,
        caller.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      ],
    );
    return this.sign(userId, version, family, authTime, ids);
  }

  private refreshExpiry(iat: number, authTime: number): number {
    return Math.min(iat + this.#config.refreshTtlS, authTime + this.#config.sessionCapS);
  }

  /** Signs a pair from its ids and issue time: the same inputs give the same bytes (HS256). */
  private async sign(
    userId: number,
    version: number,
    family: string,
    authTime: number,
    ids: { readonly refresh: string; readonly access: string; readonly iat: number },
  ): Promise<TokenPair> {
    const keys = this.#keys;
    return {
      access: await signJwt(
        {
          token_type: 'access',
          sub: String(userId),
          jti: ids.access,
          iat: ids.iat,
          exp: ids.iat + this.#config.accessTtlS,
          tv: version,
          // The session (refresh family) it belongs to: log-out and theft end it at once.
          fam: family,
        },
        keys,
      ),
      refresh: await signJwt(
        {
          token_type: 'refresh',
          sub: String(userId),
          jti: ids.refresh,
          fam: family,
          iat: ids.iat,
          exp: this.refreshExpiry(ids.iat, authTime),
          auth_time: authTime,
        },
        keys,
      ),
    };
  }

  /**
   * Rotates a refresh token. One atomic UPDATE marks it used and names its successor, so of N
   * concurrent refreshes exactly one makes a new pair. Within the grace window the same token
   * gets that same pair again (byte for byte): the other racers, and a client whose answer
   * was lost (a tab closed or navigated mid-refresh), recover instead of being logged out.
   * Never two live pairs from one token. Presented after the window, it revokes its family.
   *
   * The window is bound to the caller that rotated the token: the rotation records a
   * fingerprint of it (`fingerprint`: address and User-Agent), and only a replay with the same
   * fingerprint gets the pair again. Any other caller presenting the token within the window
   * holds a copy of it: that is theft, as after the window, and revokes the family (whose
   * access tokens then stop at once, see `authenticate`), whichever of the two came first.
   * Binding rather than shortening the window: a thief's replay is scripted and lands in any
   * window, however short, while the rider's own recovery (a tab closed mid-refresh, a phone
   * retrying a lost answer) needs seconds. What binding cannot catch: a thief behind the same
   * address (the same NAT, café or office proxy) who also sends the rider's User-Agent gets
   * the same pair within the window, never a second one; the two then share one family, and
   * the first rotation by either makes the other's next refresh a reuse, which revokes it. A
   * rider whose address changes between a lost answer and the retry (Wi-Fi to mobile data) is
   * logged out: a log-in again is the price of not handing the pair to anyone else. Tokens
   * rotated before the fingerprint was recorded (`rotated_by` null: before migration 14, or by
   * a process of the previous version during a rolling deploy) keep the old rule for their
   * 30 s.
   */
  async refresh(token: string, caller: Caller): Promise<TokenPair> {
    const { ip } = caller;
    const now = this.seconds();
    const check = await verifyJwt(token, this.#keys, now);
    if (!check.ok)
      throw tokenInvalid(
        check.error === 'expired'
          ? 'Session expired, please log in again'
          : 'Invalid refresh token',
      );
    const claims = check.value;
    if (
      claims.token_type !== 'refresh' ||
      typeof claims.fam !== 'string' ||
      !UUID.test(claims.fam) ||
      typeof claims.auth_time !== 'number'
    )
      throw tokenInvalid('Invalid refresh token');
    if (now - claims.auth_time > this.#config.sessionCapS)
      throw tokenInvalid('Session expired, please log in again');
    const expired = () => tokenInvalid('Session expired, please log in again');
    const next = { refresh: randomUUID(), access: randomUUID(), iat: now };
    const presenter = fingerprint(String(claims.jti), caller);
    const won = await this.#db.transaction(async (tx) => {
      const [row] = await tx.query<{ user_id: number; auth_time: string | number }>(
        `UPDATE refresh_tokens
         SET used_at = $2, successor = $3, successor_iat = $2, successor_access = $4,
             rotated_by = $5
         WHERE jti = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2
         RETURNING user_id, auth_time`,
        [claims.jti, now, next.refresh, next.access, presenter],
      );
      if (row)
        await tx.query(
          `INSERT INTO refresh_tokens
             (jti, family, user_id, auth_time, expires_at, issued_at, ip, user_agent)
           SELECT $1, family, user_id, auth_time, $3, $4, $5, $6 FROM refresh_tokens WHERE jti = $2`,
          [
            next.refresh,
            claims.jti,
            this.refreshExpiry(now, Number(row.auth_time)),
            now,
            ip,
            caller.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
          ],
        );
      return row;
    });
    if (won) {
      const user = await this.activeUser(won.user_id);
      if (!user) throw expired();
      return this.sign(user.id, user.token_version, claims.fam, Number(won.auth_time), next);
    }
    const [row] = await this.#db.query<{
      user_id: number;
      auth_time: string | number;
      used_at: string | number | null;
      revoked_at: string | number | null;
      successor: string | null;
      successor_iat: string | number | null;
      successor_access: string | null;
      successor_used: string | number | null;
      successor_revoked: string | number | null;
      rotated_by: string | null;
    }>(
      `SELECT t.user_id, t.auth_time, t.used_at, t.revoked_at, t.successor, t.successor_iat,
              t.successor_access, s.used_at AS successor_used, s.revoked_at AS successor_revoked,
              t.rotated_by
       FROM refresh_tokens t LEFT JOIN refresh_tokens s ON s.jti = t.successor
       WHERE t.jti = $1`,
      [claims.jti],
    );
    if (!row || row.revoked_at !== null || row.used_at === null) throw expired();
    if (now - Number(row.used_at) > this.#config.refreshGraceS) {
      await this.revokeFamily(claims.fam, now);
      this.#log('refresh.reuse', { userId: Number(claims.sub), ip, family: claims.fam });
      throw expired();
    }
    // Within the window, from another caller than the one that rotated it: a copy (above).
    if (row.rotated_by !== null && row.rotated_by !== presenter) {
      await this.revokeFamily(claims.fam, now);
      this.#log('refresh.theft', { userId: Number(row.user_id), ip, family: claims.fam });
      throw expired();
    }
    // Within the window: the pair this token already made, while it is still unused.
    if (
      row.successor === null ||
      row.successor_access === null ||
      row.successor_iat === null ||
      row.successor_used !== null ||
      row.successor_revoked !== null
    )
      throw expired();
    const user = await this.activeUser(row.user_id);
    if (!user) throw expired();
    this.#log('refresh.replayed', { userId: user.id, ip, family: claims.fam });
    return this.sign(user.id, user.token_version, claims.fam, Number(row.auth_time), {
      refresh: row.successor,
      access: row.successor_access,
      iat: Number(row.successor_iat),
    });
  }

  private async activeUser(id: number): Promise<UserRow | undefined> {
    const [user] = await this.#db.query<UserRow>(
      'SELECT id, active, token_version FROM users WHERE id = $1',
      [id],
    );
    return user?.active ? user : undefined;
  }

  /**
   * Ends a session: every refresh token of the family, and with them its access tokens (they
   * name the family, and `authenticate` asks whether it is revoked).
   */
  private async revokeFamily(family: string, now: number): Promise<void> {
    await this.#db.query(
      'UPDATE refresh_tokens SET revoked_at = $2 WHERE family = $1 AND revoked_at IS NULL',
      [family, now],
    );
  }

  /**
   * Revokes the family of a refresh token, which ends its access tokens at once too. Unknown
   * or bad tokens are ignored (idempotent).
   */
  async logout(token: string): Promise<void> {
    const check = await verifyJwt(token, this.#keys, this.seconds());
    if (
      !check.ok ||
      check.value.token_type !== 'refresh' ||
      typeof check.value.fam !== 'string' ||
      !UUID.test(check.value.fam)
    )
      return;
    await this.revokeFamily(check.value.fam, this.seconds());
  }

  /** Ends every session of a user: refresh tokens at once, access tokens by the version check. */
  async revokeUser(userId: number): Promise<void> {
    await this.#db.transaction(async (tx) => {
      await tx.query('UPDATE users SET token_version = token_version + 1 WHERE id = $1', [userId]);
      await tx.query(
        'UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL',
        [userId, this.seconds()],
      );
    });
  }

  /**
   * The user id of a bearer access token, or a 401 with code 10001. One query per request
   * answers both questions: the user is active with the token's version (a password change or
   * revocation ends every session), and the token's session (`fam`) is not revoked (log-out,
   * reuse or theft end that session's access tokens at once, not at their expiry). It runs
   * against the database every process shares, so it holds across processes. The session
   * check reads a partial index of revoked rows (migration 14): nothing to read for a live
   * session, however many rotations it has made.
   *
   * Access tokens signed before they named their session carry no `fam`: they are accepted
   * with the version check alone until they expire (at most `ACCESS_TOKEN_TTL_S` after
   * signing). Refusing them would send every signed-in client through a refresh at the
   * deploy, and in a rolling deploy, while processes of the previous version still sign
   * such tokens, back and forth between old and new processes; accepting them keeps the old
   * exposure (a log-out ends them at expiry) for one access lifetime after the last old
   * process stops, and no longer.
   */
  async authenticate(header: string | undefined): Promise<number> {
    return (await this.verify(header)).userId;
  }

  /**
   * The rider an access token names and its session (refresh family; none for a token signed
   * before sessions were named), checked as `authenticate` does. A route reads the session
   * from this one check: checked again later, a token that expired meanwhile named none, and
   * "sign out every other session" signed out the caller's own with the rest.
   */
  async verify(
    header: string | undefined,
  ): Promise<{ readonly userId: number; readonly session: string | undefined }> {
    const token = bearerToken(header);
    if (!token) throw tokenInvalid('Authentication credentials were not provided');
    const check = await verifyJwt(token, this.#keys, this.seconds());
    if (!check.ok)
      throw tokenInvalid(check.error === 'expired' ? 'Token expired' : 'Token invalid');
    const claims = check.value;
    if (claims.token_type !== 'access' || typeof claims.tv !== 'number')
      throw tokenInvalid('Token invalid');
    const family = claims.fam;
    if (family !== undefined && (typeof family !== 'string' || !UUID.test(family)))
      throw tokenInvalid('Token invalid');
    const userId = Number(claims.sub);
    const [user] = await this.#db.query<UserRow & { ended: boolean }>(
      `SELECT id, active, token_version,
              EXISTS (SELECT 1 FROM refresh_tokens
                      WHERE family = $2 AND revoked_at IS NOT NULL) AS ended
       FROM users WHERE id = $1`,
      [userId, family ?? null],
    );
    if (!user?.active || user.token_version !== claims.tv || user.ended)
      throw tokenInvalid('Token invalid');
    return { userId, session: family };
  }

  /**
   * The rider a bearer access token's signature vouches for (ours, not expired), or none: where the request waits its turn (`http/admission.ts`), so a forged token naming a
   * rider queues under its address and never takes that rider's places. The route still
   * checks the token whole (`verify`).
   */
  signedRider(header: string | undefined): string | undefined {
    return bearerRider(header, this.#keys, this.seconds());
  }

  /**
   * The session (refresh family) a refresh token names, if its signature is ours, it has not
   * expired and it is a refresh token (used or not): what a refresh or a log-out
   * is counted against (`http/requestLimits.ts`), so strangers sharing the rider's address
   * never spend the rider's allowance, and a forged token counts against its address.
   */
  async refreshFamily(token: unknown): Promise<string | undefined> {
    if (typeof token !== 'string' || token.length > 4096) return undefined;
    const check = await verifyJwt(token, this.#keys, this.seconds());
    if (!check.ok || check.value.token_type !== 'refresh') return undefined;
    const family = check.value.fam;
    return typeof family === 'string' && UUID.test(family) ? family : undefined;
  }

  /**
   * The hash of a new password, made under the hashing gate like every other argon2 run: a
   * burst of password changes or resets cannot take the thread pool from file I/O.
   */
  async hashNew(password: string): Promise<string> {
    try {
      return await this.#hashing.run(() => hashPassword(password));
    } catch (error) {
      if (error instanceof HashingBusy)
        throw new ApiError(
          ErrorCode.Unavailable,
          'Too many password changes at once; please try again in a few seconds',
          { headers: { 'retry-after': '2' } },
        );
      throw error;
    }
  }

  /**
   * Changes a signed-in rider's password. The current one is checked as a log-in is, under
   * the same per-account and per-address limits (`#withPassword`), so a stolen access token
   * cannot guess it any faster than the log-in form. Every other session of the rider ends
   * at once (its refresh tokens revoked, its access tokens refused by `authenticate`); the
   * caller's own (`current`) stays signed in. A caller whose access token names no session
   * (signed before tokens did) cannot be told apart, so every session ends. Pending reset
   * links die too: they were asked for under the old password.
   */
  async changePassword(
    userId: number,
    current: string | undefined,
    passwords: { readonly current: string; readonly next: string },
    ip: string,
  ): Promise<void> {
    const [row] = await this.#db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [
      userId,
    ]);
    if (!row) throw tokenInvalid('Token invalid');
    await this.#withPassword(
      row.email.trim().toLowerCase(),
      passwords.current,
      ip,
      'password.change',
      'The current password is wrong',
      async (user) => {
        const hash = await this.hashNew(passwords.next);
        const now = this.seconds();
        await this.#db.transaction(async (tx) => {
          await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1', [user.id, hash]);
          await tx.query(
            `UPDATE refresh_tokens SET revoked_at = $2
             WHERE user_id = $1 AND revoked_at IS NULL AND family IS DISTINCT FROM $3`,
            [user.id, now, current ?? null],
          );
          await tx.query('DELETE FROM password_resets WHERE user_id = $1', [user.id]);
        });
        this.#log('password.changed', { userId: user.id, ip });
      },
    );
  }

  /**
   * Checks the rider's current password as a login does (the same limits, hashing gate and
   * log), for an action that asks for it again (deleting the account); 10303 when wrong.
   */
  async confirmPassword(userId: number, password: string, ip: string): Promise<void> {
    const [row] = await this.#db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [
      userId,
    ]);
    if (!row) throw tokenInvalid('Token invalid');
    await this.#withPassword(
      row.email.trim().toLowerCase(),
      password,
      ip,
      'account.delete',
      'The password is wrong',
      () => Promise.resolve(),
    );
  }

  /**
   * The rider's signed-in sessions, last used first: each live family's newest refresh
   * token (unused, unrevoked, unexpired; the partial index of migration 16 holds only those).
   */
  async listSessions(userId: number): Promise<SessionRow[]> {
    const rows = await this.#db.query<{
      family: string;
      auth_time: string | number;
      issued_at: string | number | null;
      ip: string | null;
      user_agent: string | null;
    }>(
      `SELECT family, auth_time, issued_at, ip, user_agent FROM refresh_tokens
       WHERE user_id = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2
       ORDER BY coalesce(issued_at, auth_time) DESC, jti`,
      [userId, this.seconds()],
    );
    const seen = new Set<string>();
    const sessions: SessionRow[] = [];
    for (const row of rows) {
      if (seen.has(row.family)) continue;
      seen.add(row.family);
      sessions.push({
        family: row.family,
        authTime: Number(row.auth_time),
        lastUsed: Number(row.issued_at ?? row.auth_time),
        ip: row.ip,
        userAgent: row.user_agent,
      });
    }
    return sessions;
  }

  /**
   * Signs out the sessions of a rider that `which` names (one family, or every family but
   * one) and answers how many of them were live. Only the rider's own rows are touched: a
   * family of another rider matches nothing, so it is a 404 to the caller, like an unknown one.
   */
  async signOut(
    userId: number,
    which: { readonly only: string } | { readonly except: string | undefined },
  ): Promise<number> {
    const now = this.seconds();
    const only = 'only' in which;
    const rows = await this.#db.query<{
      family: string;
      used_at: string | number | null;
      expires_at: string | number;
    }>(
      `UPDATE refresh_tokens SET revoked_at = $2
       WHERE user_id = $1 AND revoked_at IS NULL
         AND ${only ? 'family = $3' : 'family IS DISTINCT FROM $3'}
       RETURNING family, used_at, expires_at`,
      [userId, now, only ? which.only : (which.except ?? null)],
    );
    const live = new Set(
      rows
        .filter((row) => row.used_at === null && Number(row.expires_at) > now)
        .map((row) => row.family),
    );
    this.#log(only ? 'session.signedOut' : 'sessions.signedOutOthers', {
      userId,
      sessions: live.size,
    });
    return live.size;
  }

  /**
   * Sets a new password (already hashed, `hashNew`) and ends every session of the rider, in
   * the caller's transaction: the version bump refuses every access token at once, the
   * revoked families every refresh token.
   */
  async setPasswordAndEndSessions(tx: Queryable, userId: number, hash: string): Promise<void> {
    await tx.query(
      'UPDATE users SET password_hash = $2, token_version = token_version + 1 WHERE id = $1',
      [userId, hash],
    );
    await tx.query(
      'UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL',
      [userId, this.seconds()],
    );
  }
}
