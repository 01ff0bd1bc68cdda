import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { createTransport, type Transporter } from 'nodemailer';
import type { ApiConfig } from './config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The mails of this process (tests wait for them with `idle()`; closing does too). */
    readonly mailer: Mailer;
  }
}

/** One plain-text mail. */
export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/**
 * Sends mail: to `SMTP_URL` when it is set, else into `mailOutboxDir` as .eml files (a local
 * run, a test, a server whose operator has not set up mail yet): the message is built by the
 * same library either way, so what lands in the outbox is what would have been sent.
 *
 * Mail that a request causes is sent after its reply (`later`): the request's answer and its
 * time do not depend on what the mail job finds (a password reset for an unknown address
 * does no less in the request than for a known one), and a slow mail server holds no one.
 */
export class Mailer {
  readonly #config: Pick<ApiConfig, 'smtpUrl' | 'mailFrom' | 'mailOutboxDir'>;
  readonly #log: FastifyBaseLogger;
  readonly #pending = new Set<Promise<void>>();
  #smtp: Transporter | undefined;

  constructor(
    config: Pick<ApiConfig, 'smtpUrl' | 'mailFrom' | 'mailOutboxDir'>,
    log: FastifyBaseLogger,
  ) {
    this.#config = config;
    this.#log = log;
  }

  /** Sends one mail now; without `SMTP_URL`, writes it to the outbox and answers its file. */
  async send(mail: Mail): Promise<string | undefined> {
    const message = { from: this.#config.mailFrom, ...mail };
    if (this.#config.smtpUrl) {
      // One transport (and connection handling) for the process, made on first use.
      this.#smtp ??= createTransport(this.#config.smtpUrl);
      await this.#smtp.sendMail(message);
      return undefined;
    }
    const dir = this.#config.mailOutboxDir;
    if (!dir) throw new Error('Neither SMTP_URL nor an outbox folder is set: the mail is lost');
    const built = await createTransport({
      streamTransport: true,
      buffer: true,
      newline: 'windows',
    }).sendMail(message);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // The time first, so a listing is in the order they were sent; the random part keeps
    // two mails of one millisecond apart. Owner-only: a reset mail holds a live link.
    const file = join(
      dir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`,
    );
    await writeFile(file, built.message as Buffer, { mode: 0o600, flag: 'wx' });
    this.#log.info({ file }, `SMTP_URL is not set: mail written to ${file}`);
    return file;
  }

  /** Runs a mail job after the caller's reply; a failure is logged, never thrown. */
  later(job: () => Promise<void>): void {
    const run = (async () => {
      // A turn of the event loop first, so the request's reply goes out before the job runs.
      await new Promise((resolve) => setImmediate(resolve));
      await job();
    })()
      .catch((error: unknown) => this.#log.error({ err: error }, 'a mail job failed'))
      .finally(() => this.#pending.delete(run));
    this.#pending.add(run);
  }

  /** Resolves once every job started so far has finished (closing waits for them). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  close(): void {
    this.#smtp?.close();
  }
}
