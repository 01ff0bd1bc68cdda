import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { createTransport, type Transporter } from 'nodemailer';
import type { Job, PgBoss } from 'pg-boss';
import type { ApiConfig } from './config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The mails of this process (tests wait for them with `idle()`; closing does too). */
    readonly mailer: Mailer;
  }
}

/** The queue of mail jobs, in the database beside the import queue. */
const MAIL_QUEUE = 'mail';

/** A queued mail job: what to do (a registered handler) with what. */
interface MailJob {
  readonly kind: string;
  readonly data: Record<string, unknown>;
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
    // Whole or not at all: written beside it under a hidden name, then renamed, so whoever
    // reads the outbox (a relay, a test) never finds a mail half written, and a full disk
    // leaves no stub of one.
    const partial = join(dir, `.${basename(file)}.partial`);
    try {
      await writeFile(partial, built.message as Buffer, { mode: 0o600, flag: 'wx' });
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    this.#log.info({ file }, `SMTP_URL is not set: mail written to ${file}`);
    return file;
  }

  readonly #handlers = new Map<string, (data: Record<string, unknown>) => Promise<void>>();
  #boss: PgBoss | undefined;
  #worker: string | undefined;

  /**
   * Sends queued mail jobs from the database (`enqueue`): a job that fails (the mail server
   * down, the outbox's disk full) is tried again with a growing delay, for about a day, so
   * a mail a rider was promised is not lost. Every process sends them.
   */
  async useQueue(boss: PgBoss, options: { retryDelayS?: number } = {}): Promise<void> {
    const retryDelay = Math.max(1, Math.round(options.retryDelayS ?? 10));
    if (!(await boss.getQueue(MAIL_QUEUE)))
      await boss
        .createQueue(MAIL_QUEUE, {
          notify: true,
          retryLimit: 20,
          retryDelay,
          retryBackoff: true,
          retryDelayMax: 3600,
          expireInSeconds: 300,
          deleteAfterSeconds: 7 * 86_400,
        })
        .catch(async (error: unknown) => {
          if (!(await boss.getQueue(MAIL_QUEUE))) throw error;
        });
    this.#boss = boss;
    this.#worker = await boss.work<MailJob>(
      MAIL_QUEUE,
      // A job waiting to be tried again is not announced: polled for, as often as it waits.
      { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: Math.min(5, retryDelay) },
      async (jobs: Job<MailJob>[]) => {
        for (const job of jobs) {
          const handler = this.#handlers.get(job.data.kind);
          if (!handler) {
            this.#log.error({ kind: job.data.kind }, 'a mail job of an unknown kind: dropped');
            continue;
          }
          const run = handler(job.data.data);
          const tracked = run.catch(() => undefined);
          this.#pending.add(tracked);
          try {
            await run;
          } catch (error) {
            this.#log.warn(
              { err: error, jobId: job.id },
              'a mail job failed: it is tried again later',
            );
            throw error;
          } finally {
            this.#pending.delete(tracked);
          }
        }
      },
    );
  }

  /** What a job of `kind` does (registered before jobs are sent). */
  handle(kind: string, handler: (data: Record<string, unknown>) => Promise<void>): void {
    this.#handlers.set(kind, handler);
  }

  /**
   * Queues a mail job in the database, inside the caller's request: when it cannot be kept
   * (the database's disk full), the request fails (503) instead of promising a mail that is
   * then lost. Without a queue (a test's bare server), it runs after the reply.
   */
  async enqueue(kind: string, data: Record<string, unknown>): Promise<void> {
    if (!this.#boss) {
      const handler = this.#handlers.get(kind);
      if (handler) this.later(() => handler(data));
      return;
    }
    await this.#boss.send(MAIL_QUEUE, { kind, data } satisfies MailJob);
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

  /**
   * Resolves once every job started so far has finished, queued ones included while the
   * queue runs (tests wait for their mail; closing waits for jobs under way).
   */
  async idle(options: { queued?: boolean } = { queued: true }): Promise<void> {
    for (let round = 0; round < 400; round++) {
      while (this.#pending.size > 0) await Promise.all([...this.#pending]);
      if (!options.queued || !this.#boss || this.#worker === undefined) return;
      // Waiting to be taken, or taken and not done (a job is active in the database before
      // its handler runs here); one waiting out a retry's delay is not waited for.
      const waiting = await this.#boss
        .findJobs(MAIL_QUEUE)
        .then((jobs) => jobs.filter((job) => job.state === 'created' || job.state === 'active'))
        .catch(() => []);
      if (waiting.length === 0 && this.#pending.size === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Stops taking queued jobs (before the database closes); jobs under way finish. */
  async stop(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker && this.#boss)
      await this.#boss.offWork(MAIL_QUEUE, { id: worker, wait: true }).catch(() => undefined);
    await this.idle({ queued: false });
  }

  close(): void {
    this.#smtp?.close();
  }
}
