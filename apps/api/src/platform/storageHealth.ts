import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@xoss/api-contract';
import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from './blobStore.ts';
import type { Database } from './db/db.ts';
import { ApiError } from '../http/envelope.ts';

/** The parts of the server that store things: the database and the file (blob) store. */
export type StoragePart = 'database' | 'files';

/**
 * Which part a write failed for lack of space, if it did: a full disk or quota of the file
 * store (ENOSPC, EDQUOT from Node's fs) or of the database (SQLSTATE 53100 disk_full, which
 * PostgreSQL also uses for a quota).
 */
export function storageFullPart(error: unknown): StoragePart | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (code === '53100') return 'database';
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'files';
  return undefined;
}

/** How long a part stays "not ready" after a real write of it failed for space. */
const HOLD_MS = 15_000;
/** How long one probe's answer is reused: `/api/ready` polled often costs one probe a second or so. */
const CACHE_MS = 1_500;

/** What the file probe writes: one disk block. */
const PROBE_BYTES = new Uint8Array(4096);

/** How a part is named in logs and replies. */
const partNames: Record<StoragePart, string> = {
  database: 'the database',
  files: 'the file store',
};

/** The 503 a rider gets when a write failed for space: the server's trouble, retried later. */
export function storageFullError(part: StoragePart): ApiError {
  return new ApiError(
    ErrorCode.Unavailable,
    `The server's storage is full (${partNames[part]} cannot store more); please try again later`,
    { headers: { 'retry-after': '60' } },
  );
}

interface PartState {
  ok: boolean;
  /** Why it is not ok (logged, never sent). */
  reason?: string;
  /** When a real write last failed for space (ms), or 0. */
  failedAt: number;
}

/**
 * Whether the database and the file store can write, for `/api/ready` and the import queue.
 * A probe writes a little (one small file written and deleted; one write transaction) at most
 * once per `CACHE_MS`. A tiny probe can pass on a disk with a few kilobytes left (PostgreSQL
 * preallocates its log), so a real write that failed for space (`failed`) also keeps its part
 * not ready for `HOLD_MS`; after that the probes decide again. A part going bad and coming
 * back is logged once each, not at every probe.
 */
export class StorageHealth {
  readonly #db: Database;
  readonly #blobs: BlobStore;
  readonly #log: FastifyBaseLogger;
  readonly #now: () => number;
  readonly #parts: Record<StoragePart, PartState> = {
    database: { ok: true, failedAt: 0 },
    files: { ok: true, failedAt: 0 },
  };
  #probed: { at: number; result: Promise<Record<StoragePart, string | undefined>> } | undefined;

  constructor(options: {
    db: Database;
    blobs: BlobStore;
    log: FastifyBaseLogger;
    now?: () => number;
  }) {
    this.#db = options.db;
    this.#blobs = options.blobs;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
  }

  /** A real write of `part` failed for space: it is not ready for a while. */
  failed(part: StoragePart, error: unknown): void {
    this.#parts[part].failedAt = this.#now();
    this.#set(part, false, error instanceof Error ? error.message : String(error));
  }

  /** Whether a real write of `part` failed for space lately (no probe). */
  failing(part: StoragePart): boolean {
    const state = this.#parts[part];
    return state.failedAt > 0 && this.#now() - state.failedAt < HOLD_MS;
  }

  /** The parts that cannot write now, with why (probed at most once per `CACHE_MS`). */
  async check(): Promise<{ part: StoragePart; message: string }[]> {
    const now = this.#now();
    if (!this.#probed || now - this.#probed.at >= CACHE_MS || now < this.#probed.at)
      this.#probed = { at: now, result: this.#probe() };
    const probed = await this.#probed.result;
    const bad: { part: StoragePart; message: string }[] = [];
    for (const part of ['database', 'files'] as const) {
      const held = this.failing(part);
      const problem = probed[part] ?? (held ? 'a write failed for lack of space' : undefined);
      this.#set(part, problem === undefined, problem);
      if (problem !== undefined) bad.push({ part, message: `${partNames[part]} cannot write` });
    }
    return bad;
  }

  async #probe(): Promise<Record<StoragePart, string | undefined>> {
    const why = (error: unknown) => (error instanceof Error ? error.message : String(error));
    const [database, files] = await Promise.all([
      // A write transaction that commits (a transaction id is assigned and logged).
      this.#db.transaction((tx) => tx.query('SELECT txid_current()')).then(() => undefined, why),
      // One small file written in full (the local store syncs it to disk) and deleted.
      this.#probeFile().then(() => undefined, why),
    ]);
    return { database, files };
  }

  async #probeFile(): Promise<void> {
    const key = `health/probe-${randomUUID()}.tmp`;
    try {
      await this.#blobs.put(key, PROBE_BYTES);
    } finally {
      await this.#blobs.delete(key).catch(() => undefined);
    }
  }

  #set(part: StoragePart, ok: boolean, reason: string | undefined): void {
    const state = this.#parts[part];
    if (state.ok === ok) return;
    state.ok = ok;
    if (ok) this.#log.info({ storage: part }, `${partNames[part]} can write again`);
    else this.#log.error({ storage: part, reason }, `${partNames[part]} cannot write`);
  }
}
