import { createHash, randomBytes } from 'node:crypto';
import { ErrorCode } from '@xoss/api-contract';
import type { ApiConfig } from '../platform/config.ts';
import type { Database } from '../platform/db/db.ts';
import { ApiError } from '../http/envelope.ts';
import type { Mailer } from '../platform/mail.ts';
import { SharedLimiter } from './rateLimit.ts';
import type { SecurityLog, Sessions } from './sessions.ts';

/** The mail job of a reset request. */
const RESET_MAIL = 'passwordReset';

/** How long a reset link works. */
const RESET_TTL_S = 30 * 60;

/** The public site's page that reads a reset link's token and asks for the new password. */
const RESET_PATH = '/login/reset';

/** Only the hash of a token is stored: a copy of the database cannot reset a password. */
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

const invalid = () =>
  new ApiError(
    ErrorCode.ResetTokenInvalid,
    'This password reset link is not valid: it was used already, has expired, or was replaced by a newer password. Ask for a new one.',
  );

/**
 * Password reset by e-mail. A request answers the same (202, nothing in it) whatever the
 * address, and does the same work before answering, a rate-limit count: looking the account
 * up, making the token and sending the mail happen after the reply (`Mailer.later`), so
 * neither the answer nor its time tells whether the address has an account. The link's
 * token is 32 random bytes; only its SHA-256 is stored, with a 30-minute expiry. Confirming
 * claims the token with one conditional UPDATE, so of two concurrent confirms exactly one
 * sets the password; it ends every session of the rider.
 */
export class PasswordResets {
  readonly #db: Database;
  readonly #config: ApiConfig;
  readonly #sessions: Sessions;
  readonly #mailer: Mailer;
  readonly #log: SecurityLog;
  readonly #now: () => number;
  readonly #linkOrigin: () => string;
  /**
   * Requests per e-mail and per address, in the log-in attempts' table and window (one
   * window for every key there: the table's clean-up drops rows older than it).
   */
  readonly #limits: SharedLimiter;

  constructor(options: {
    db: Database;
    config: ApiConfig;
    sessions: Sessions;
    mailer: Mailer;
    log: SecurityLog;
    now: () => number;
    /** The origin the link points at (`PUBLIC_ORIGIN`, else the server's own address). */
    linkOrigin: () => string;
  }) {
    this.#db = options.db;
    this.#config = options.config;
    this.#sessions = options.sessions;
    this.#mailer = options.mailer;
    this.#log = options.log;
    this.#now = options.now;
    this.#linkOrigin = options.linkOrigin;
    this.#limits = new SharedLimiter(options.db, options.config.loginWindowS * 1000, options.now);
    this.#mailer.handle(RESET_MAIL, (data) =>
      this.#mail(String(data.account), typeof data.ip === 'string' ? data.ip : ''),
    );
  }

  #seconds(): number {
    return Math.floor(this.#now() / 1000);
  }

  /** Counts the request against the address and the e-mail, then mails a link after the reply. */
  async request(email: string, ip: string): Promise<void> {
    const account = email.trim().toLowerCase();
    const { waitS } = await this.#limits.attempt([
      { key: `reset-email:${account}`, limit: this.#config.passwordResetsPerEmail },
      { key: `reset-ip:${ip}`, limit: this.#config.passwordResetsPerIp },
    ]);
    if (waitS > 0) {
      this.#log('passwordReset.rateLimited', { email: account, ip });
      throw new ApiError(
        ErrorCode.TooManyAttempts,
        `Too many password reset requests. Try again in ${Math.ceil(waitS / 60)} minute(s).`,
        { headers: { 'retry-after': String(waitS) } },
      );
    }
    // Queued in the request (refused with 503 when it cannot be kept), mailed by the queue.
    await this.#mailer.enqueue(RESET_MAIL, { account, ip });
  }

  async #mail(account: string, ip: string): Promise<void> {
    const [user] = await this.#db.query<{ id: number; email: string; active: boolean }>(
      'SELECT id, email, active FROM users WHERE lower(email) = $1',
      [account],
    );
    if (!user?.active) {
      this.#log('passwordReset.noAccount', { email: account, ip });
      return;
    }
    const token = randomBytes(32).toString('base64url');
    await this.#db.query(
      'INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, $3)',
      [tokenHash(token), user.id, this.#seconds() + RESET_TTL_S],
    );
    const link = `${this.#linkOrigin()}${RESET_PATH}?token=${token}`;
    // English only: riders' language is kept in their browser, not in the users table.
    await this.#mailer.send({
      to: user.email,
      subject: 'Reset your XOSS password',
      text: [
        'Someone, hopefully you, asked to reset the password of your XOSS account.',
        '',
        'To choose a new password, open this link within 30 minutes:',
        link,
        '',
        'The link works once. Setting a new password signs you out everywhere.',
        'If you did not ask for this, ignore this mail: your password stays as it is.',
      ].join('\n'),
    });
    this.#log('passwordReset.sent', { userId: user.id, ip });
  }

  /** Sets the password of the token's rider and ends all their sessions; the token dies. */
  async confirm(token: string, password: string, ip: string): Promise<void> {
    const hash = tokenHash(token);
    const now = this.#seconds();
    const valid = 'token_hash = $1 AND used_at IS NULL AND expires_at > $2';
    // A look first, so a made-up token costs no argon2 run; the claim below decides.
    const [found] = await this.#db.query(`SELECT 1 FROM password_resets WHERE ${valid}`, [
      hash,
      now,
    ]);
    if (!found) throw invalid();
    const passwordHash = await this.#sessions.hashNew(password);
    const userId = await this.#db.transaction(async (tx) => {
      // Of concurrent confirms, one finds the row unused; the others wait on its lock, then
      // find it used and match nothing.
      const [claimed] = await tx.query<{ user_id: number }>(
        `UPDATE password_resets SET used_at = $2 WHERE ${valid} RETURNING user_id`,
        [hash, now],
      );
      if (!claimed) return undefined;
      await this.#sessions.setPasswordAndEndSessions(tx, claimed.user_id, passwordHash);
      // Other links of the rider were asked for before this password: they die too.
      await tx.query('DELETE FROM password_resets WHERE user_id = $1 AND token_hash <> $2', [
        claimed.user_id,
        hash,
      ]);
      return claimed.user_id;
    });
    if (userId === undefined) throw invalid();
    this.#log('passwordReset.completed', { userId, ip });
  }
}
