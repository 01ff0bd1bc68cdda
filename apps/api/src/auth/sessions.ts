// Over 300 lines: login, refresh with rotation and its grace window, logout and the password
// rules are one session model whose invariants are easiest to check side by side.
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@xoss/api-contract';
import type { ApiConfig } from '../config.ts';
import type { Database } from '../db/db.ts';
import { ApiError } from '../http.ts';
import { jwtKeys, signJwt, verifyJwt, type JwtKeys } from './jwt.ts';
import { HashingBusy, HashingGate } from './hashingGate.ts';
import { dummyHash, verifyPassword } from './passwords.ts';
import { SharedLimiter } from './rateLimit.ts';

export interface TokenPair {
  readonly access: string;
  readonly refresh: string;
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
const WRONG = 'Wrong username or password';

/** Login, access tokens, rotating refresh tokens with reuse detection, logout, revocation. */
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
    this.#hashing = new HashingGate(config.passwordHashConcurrency, config.passwordHashQueue);
  }

  /** Replaces the keys (read again from the database's shared keys). */
  useKeys(secret: string, previous: readonly string[]): void {
    this.#keys = jwtKeys(secret, previous);
  }

  private seconds(): number {
    return Math.floor(this.#now() / 1000);
  }

  /** E-mail + password → a token pair. Unknown e-mail and wrong password look the same. */
  async login(email: string, password: string, ip: string): Promise<TokenPair & { id: string }> {
    const account = email.trim().toLowerCase();
    // Both attempts are counted before the password is checked, in the same transaction as
    // the check (`SharedLimiter`): simultaneous guesses, on any process, cannot all pass the
    // check before the first is counted. A success takes its own attempt back; a failure
    // keeps it.
    const { waitS: wait, ids } = await this.#limits.attempt([
      { key: `account:${account}`, limit: this.#config.loginFailuresPerAccount },
      { key: `ip:${ip}`, limit: this.#config.loginAttemptsPerIp },
    ]);
    if (wait > 0) {
      this.#log('login.rateLimited', { email: account, ip });
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
      const check = await this.#hashing
        .run(async () => verifyPassword(user?.password_hash ?? (await dummyHash()), password))
        .catch((error: unknown) => {
          if (!(error instanceof HashingBusy)) throw error;
          this.#log('login.busy', { email: account, ip });
          throw new ApiError(
            ErrorCode.Unavailable,
            'Too many sign-ins at once; please try again in a few seconds',
            { headers: { 'retry-after': '2' } },
          );
        });
      if (!user || !check.matches || !user.active) {
        this.#log('login.failed', { email: account, ip, userId: user?.id });
        counts = true;
        throw new ApiError(ErrorCode.WrongCredentials, WRONG);
      }
      if (check.upgrade)
        await this.#db.query('UPDATE users SET password_hash = $1 WHERE id = $2', [
          check.upgrade,
          user.id,
        ]);
      return await this.signIn(user, ip);
    } finally {
      // Only a wrong password counts against the account; a success or our own failure does not.
      if (!counts) await this.#limits.refund(attempt);
    }
  }

  private async signIn(user: UserRow, ip: string): Promise<TokenPair & { id: string }> {
    const now = this.seconds();
    const pair = await this.issue(user.id, user.token_version, randomUUID(), now);
    this.#log('login.succeeded', { userId: user.id, ip });
    return { ...pair, id: String(user.id) };
  }

  private async issue(
    userId: number,
    version: number,
    family: string,
    authTime: number,
  ): Promise<TokenPair> {
    const ids = { refresh: randomUUID(), access: randomUUID(), iat: this.seconds() };
    await this.#db.query(
      'INSERT INTO refresh_tokens (jti, family, user_id, auth_time, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [ids.refresh, family, userId, authTime, this.refreshExpiry(ids.iat, authTime)],
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
   */
  async refresh(token: string, ip: string): Promise<TokenPair> {
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
      typeof claims.auth_time !== 'number'
    )
      throw tokenInvalid('Invalid refresh token');
    if (now - claims.auth_time > this.#config.sessionCapS)
      throw tokenInvalid('Session expired, please log in again');
    const expired = () => tokenInvalid('Session expired, please log in again');
    const next = { refresh: randomUUID(), access: randomUUID(), iat: now };
    const won = await this.#db.transaction(async (tx) => {
      const [row] = await tx.query<{ user_id: number; auth_time: string | number }>(
        `UPDATE refresh_tokens
         SET used_at = $2, successor = $3, successor_iat = $2, successor_access = $4
         WHERE jti = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2
         RETURNING user_id, auth_time`,
        [claims.jti, now, next.refresh, next.access],
      );
      if (row)
        await tx.query(
          `INSERT INTO refresh_tokens (jti, family, user_id, auth_time, expires_at)
           SELECT $1, family, user_id, auth_time, $3 FROM refresh_tokens WHERE jti = $2`,
          [next.refresh, claims.jti, this.refreshExpiry(now, Number(row.auth_time))],
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
    }>(
      `SELECT t.user_id, t.auth_time, t.used_at, t.revoked_at, t.successor, t.successor_iat,
              t.successor_access, s.used_at AS successor_used, s.revoked_at AS successor_revoked
       FROM refresh_tokens t LEFT JOIN refresh_tokens s ON s.jti = t.successor
       WHERE t.jti = $1`,
      [claims.jti],
    );
    if (!row || row.revoked_at !== null || row.used_at === null) throw expired();
    if (now - Number(row.used_at) > this.#config.refreshGraceS) {
      await this.#db.query(
        'UPDATE refresh_tokens SET revoked_at = $2 WHERE family = $1 AND revoked_at IS NULL',
        [claims.fam, now],
      );
      this.#log('refresh.reuse', { userId: Number(claims.sub), ip, family: claims.fam });
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

  /** Revokes the family of a refresh token. Unknown or bad tokens are ignored (idempotent). */
  async logout(token: string): Promise<void> {
    const check = await verifyJwt(token, this.#keys, this.seconds());
    if (!check.ok || typeof check.value.fam !== 'string') return;
    await this.#db.query(
      'UPDATE refresh_tokens SET revoked_at = $2 WHERE family = $1 AND revoked_at IS NULL',
      [check.value.fam, this.seconds()],
    );
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

  /** The user id of a bearer access token, or a 401 with code 10001. */
  async authenticate(header: string | undefined): Promise<number> {
    // The scheme is case-insensitive (RFC 9110 11.1).
    const match = /^Bearer +([A-Za-z0-9_.-]+)$/i.exec(header ?? '');
    if (!match) throw tokenInvalid('Authentication credentials were not provided');
    const check = await verifyJwt(match[1]!, this.#keys, this.seconds());
    if (!check.ok)
      throw tokenInvalid(check.error === 'expired' ? 'Token expired' : 'Token invalid');
    const claims = check.value;
    if (claims.token_type !== 'access' || typeof claims.tv !== 'number')
      throw tokenInvalid('Token invalid');
    const userId = Number(claims.sub);
    const [user] = await this.#db.query<UserRow>(
      'SELECT id, active, token_version FROM users WHERE id = $1',
      [userId],
    );
    if (!user?.active || user.token_version !== claims.tv) throw tokenInvalid('Token invalid');
    return userId;
  }
}
