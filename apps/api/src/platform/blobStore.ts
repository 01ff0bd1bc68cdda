import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type Dirent } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where uploaded and served files live. Keys are ours (`workouts/<uuid>.fit`), never a
 * user-supplied name. A local folder by default; S3-compatible storage implements the same.
 */
export interface BlobStore {
  /** Writes the whole value or nothing: readers never see a half-written file. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /**
   * Writes a stream of unknown length (an archive of up to gigabytes) without holding it in
   * memory, all or nothing like `put`; more than `maxBytes` is refused with `BlobTooLarge`
   * and nothing is kept. Resolves to the bytes written.
   */
  putStream(key: string, source: Readable, options: { maxBytes: number }): Promise<number>;
  get(key: string): Promise<Buffer>;
  /** A stream of bytes `start..end` (inclusive), for downloads and range requests. */
  stream(key: string, range?: { start: number; end: number }): Readable;
  size(key: string): Promise<number | undefined>;
  delete(key: string): Promise<void>;
  /** Every key under a prefix (for the orphan sweep at start). */
  list(prefix: string): Promise<string[]>;
  /** When a key was last written (ms since the epoch), or undefined when it is missing. */
  modifiedAt(key: string): Promise<number | undefined>;
}

const KEY = /^[a-z0-9-]+(\/[A-Za-z0-9._-]+)+$/;

/** Refuses a key that is not ours (`workouts/<uuid>.fit`): every store checks with this. */
export function checkBlobKey(key: string): void {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`Bad blob key ${key}`);
}

/** A stream written to the store ran past its limit (nothing was kept). */
export class BlobTooLarge extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`More than ${maxBytes} bytes`);
    this.name = 'BlobTooLarge';
    this.maxBytes = maxBytes;
  }
}

/** Passes bytes through, failing with `BlobTooLarge` past `maxBytes`; `bytes()` says how many. */
export function byteLimit(maxBytes: number): Transform & { bytes(): number } {
  let seen = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(new BlobTooLarge(maxBytes));
      else done(null, chunk);
    },
  });
  return Object.assign(limit, { bytes: () => seen });
}

/** A `BlobStore` in a local folder; writes go to a temporary file renamed into place. */
export class LocalBlobStore implements BlobStore {
  readonly root: string;
  readonly #write: typeof writeFile;
  /** `write` replaces `fs.writeFile` for fault-injection tests (disk full). */
  constructor(root: string, options: { write?: typeof writeFile } = {}) {
    this.root = resolve(root);
    this.#write = options.write ?? writeFile;
  }

  private path(key: string): string {
    checkBlobKey(key);
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`Bad blob key ${key}`);
    return path;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = join(this.root, '.tmp', `${randomUUID()}.part`);
    await mkdir(dirname(temporary), { recursive: true });
    try {
      await this.#write(temporary, bytes, { flush: true });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async putStream(key: string, source: Readable, options: { maxBytes: number }): Promise<number> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = join(this.root, '.tmp', `${randomUUID()}.part`);
    await mkdir(dirname(temporary), { recursive: true });
    const limit = byteLimit(options.maxBytes);
    try {
      await pipeline(source, limit, createWriteStream(temporary, { flush: true }));
      await rename(temporary, path);
      return limit.bytes();
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.path(key));
  }

  stream(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.path(key), range);
  }

  async size(key: string): Promise<number | undefined> {
    try {
      return (await stat(this.path(key))).size;
    } catch {
      return undefined;
    }
  }

  async modifiedAt(key: string): Promise<number | undefined> {
    try {
      return (await stat(this.path(key))).mtimeMs;
    } catch {
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async list(prefix: string): Promise<string[]> {
    try {
      const names = await readdir(join(this.root, prefix));
      return names.map((name) => `${prefix}/${name}`);
    } catch {
      return [];
    }
  }

  /**
   * Removes temporary files a crash left behind. Those written to within `graceMs` are kept:
   * beside other processes sharing the folder they are writes in flight (removing them made
   * another process's upload fail as it renamed its file into place, during a rolling
   * restart). A lone process passes 0.
   */
  async sweepTemporary(options: { graceMs: number; now?: number }): Promise<string[]> {
    const folder = join(this.root, '.tmp');
    const now = options.now ?? Date.now();
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const removed: string[] = [];
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (options.graceMs > 0) {
        // Only our own temporary files, judged by their last write (a folder's time says
        // nothing of the files in it); one renamed into place meanwhile is not ours to judge.
        if (!entry.isFile()) continue;
        const modified = (await stat(path).catch(() => undefined))?.mtimeMs;
        if (modified === undefined || now - modified < options.graceMs) continue;
      }
      await rm(path, { recursive: true, force: true });
      removed.push(entry.name);
    }
    return removed;
  }
}
