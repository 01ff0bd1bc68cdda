import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@xoss/api-contract';
import type { ApiConfig } from '../config.ts';
import type { Database } from '../db/db.ts';
import { ApiError } from '../http.ts';
import { jwtKeys, signJwt, verifyJwt, type JwtKeys } from './jwt.ts';
import { HashingBusy, HashingGate } from './hashingGate.ts';
import { dummyHash, verifyPassword } from './passwords.ts';
import { SlidingWindowLimiter } from './rateLimit.ts';

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
  readonly #perAccount: SlidingWindowLimiter;
  readonly #perIp: SlidingWindowLimiter;
  readonly #hashing: HashingGate;
  readonly #keys: JwtKeys;

  constructor(db: Database, config: ApiConfig, log: SecurityLog, now: () => number = Date.now) {
    this.#db = db;
    this.#config = config;
    this.#now = now;
    this.#log = log;
    const windowMs = config.loginWindowS * 1000;
    this.#perAccount = new SlidingWindowLimiter(config.loginFailuresPerAccount, windowMs, now);
    this.#perIp = new SlidingWindowLimiter(config.loginAttemptsPerIp, windowMs, now);
    this.#keys = jwtKeys(config.jwtSecret, config.jwtPreviousSecrets);
    this.#hashing = new HashingGate(config.passwordHashConcurrency, config.passwordHashQueue);
  }

  private seconds(): number {
    return Math.floor(this.#now() / 1000);
  }

  /** E-mail + password → a token pair. Unknown e-mail and wrong password look the same. */
  async login(email: string, password: string, ip: string): Promise<TokenPair & { id: string }> {
    const account = email.trim().toLowerCase();
    const wait = Math.max(this.#perAccount.retryAfterS(account), this.#perIp.retryAfterS(ip));
    if (wait > 0) {
      this.#log('login.rateLimited', { email: account, ip });
      throw new ApiError(
        ErrorCode.TooManyAttempts,
        `Too many login attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`,
        { headers: { 'retry-after': String(wait) } },
      );
    }
    // Both attempts are counted before any await: checking and counting in one synchronous
    // step means simultaneous guesses cannot all pass the check before the first is counted.
    // A success takes its own attempt back; a failure keeps it.
    this.#perIp.hit(ip);
    const attempt = this.#perAccount.hit(account);
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
      if (!user || !check.ok || !user.active) {
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
      if (!counts) this.#perAccount.refund(account, attempt);
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
    const now = this.seconds();
    const jti = randomUUID();
    const refreshExp = Math.min(
      now + this.#config.refreshTtlS,
      authTime + this.#config.sessionCapS,
    );
    await this.#db.query(
      'INSERT INTO refresh_tokens (jti, family, user_id, auth_time, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [jti, family, userId, authTime, refreshExp],
    );
    const keys = this.#keys;
    return {
      access: await signJwt(
        {
          token_type: 'access',
          sub: String(userId),
          jti: randomUUID(),
          iat: now,
          exp: now + this.#config.accessTtlS,
          tv: version,
        },
        keys,
      ),
      refresh: await signJwt(
        {
          token_type: 'refresh',
          sub: String(userId),
          jti,
          fam: family,
          iat: now,
          exp: refreshExp,
          auth_time: authTime,
        },
        keys,
      ),
    };
  }

  /**
   * Rotates a refresh token. One atomic UPDATE marks it used, so of N concurrent refreshes
   * exactly one wins; a token presented again after the grace window revokes its family.
   */
  async refresh(token: string, ip: string): Promise<TokenPair> {
    const now = this.seconds();
    const check = await verifyJwt(token, this.#keys, now);
    if (!check.ok)
      throw tokenInvalid(
        check.reason === 'expired'
          ? 'Session expired, please log in again'
          : 'Invalid refresh token',
      );
    const { claims } = check;
    if (
      claims.token_type !== 'refresh' ||
      typeof claims.fam !== 'string' ||
      typeof claims.auth_time !== 'number'
    )
      throw tokenInvalid('Invalid refresh token');
    if (now - claims.auth_time > this.#config.sessionCapS)
      throw tokenInvalid('Session expired, please log in again');
    const [won] = await this.#db.query<{ user_id: number; auth_time: string | number }>(
      `UPDATE refresh_tokens SET used_at = $2
       WHERE jti = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2
       RETURNING user_id, auth_time`,
      [claims.jti, now],
    );
    if (!won) {
      const [row] = await this.#db.query<{
        used_at: string | number | null;
        revoked_at: string | number | null;
      }>('SELECT used_at, revoked_at FROM refresh_tokens WHERE jti = $1', [claims.jti]);
      if (
        row &&
        row.revoked_at === null &&
        row.used_at !== null &&
        now - Number(row.used_at) > this.#config.refreshGraceS
      ) {
        await this.#db.query(
          'UPDATE refresh_tokens SET revoked_at = $2 WHERE family = $1 AND revoked_at IS NULL',
          [claims.fam, now],
        );
        this.#log('refresh.reuse', { userId: Number(claims.sub), ip, family: claims.fam });
      }
      throw tokenInvalid('Session expired, please log in again');
    }
    const [user] = await this.#db.query<UserRow>(
      'SELECT id, active, token_version FROM users WHERE id = $1',
      [won.user_id],
    );
    if (!user?.active) throw tokenInvalid('Session expired, please log in again');
    return this.issue(user.id, user.token_version, claims.fam, Number(won.auth_time));
  }

  /** Revokes the family of a refresh token. Unknown or bad tokens are ignored (idempotent). */
  async logout(token: string): Promise<void> {
    const check = await verifyJwt(token, this.#keys, this.seconds());
    if (!check.ok || typeof check.claims.fam !== 'string') return;
    await this.#db.query(
      'UPDATE refresh_tokens SET revoked_at = $2 WHERE family = $1 AND revoked_at IS NULL',
      [check.claims.fam, this.seconds()],
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
      throw tokenInvalid(check.reason === 'expired' ? 'Token expired' : 'Token invalid');
    const { claims } = check;
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
