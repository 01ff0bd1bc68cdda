// Backups of the embedded setup (PGlite in DATA_DIR/db, files in DATA_DIR/files), taken while
// the product runs, and their restore into an empty data folder. PostgreSQL with S3 is backed
// up with the tools of those (docs/deploy.md).
//
// A running server is the only process that may open its database, so the backup command asks
// it, over a socket in the data folder, for a snapshot (`dumpEmbedded`: whole transactions
// only). While that connection stays open the server defers deleting files, and the command
// copies the file folder. Why this order gives a consistent backup:
// - every file a row names was written before that row committed (the upload stores the file,
//   then commits), so every file the snapshot's rows name exists when the copy starts;
// - files are never rewritten (keys are new ids) and none is deleted until the copy ends, so
//   every one of them is copied whole;
// - files written after the snapshot are copied too, with no row naming them: the start on the
//   restored folder deletes them (the orphan sweep, as after a crash).
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore } from './blobStore.ts';
import { PgliteThread } from './db/pgliteThread.ts';

/** The socket a running server answers backups on, in its data folder (owner-only). */
const adminSocket = (dataDir: string) => join(dataDir, 'admin.sock');

/** What a backup folder holds, written last: a folder without it is an unfinished backup. */
const MANIFEST = 'backup.json';
const FORMAT = 1;

interface Manifest {
  format: number;
  createdAt: string;
  /** The server answered (a snapshot of a running product) or the folder was read directly. */
  online: boolean;
  files: number;
}

/**
 * A blob store whose deletes wait while a backup copies the files: deferred, and done when
 * the last hold ends (a backup that dies ends its hold when its connection closes).
 */
export class DeletionHold implements BlobStore {
  readonly #store: BlobStore;
  #holds = 0;
  readonly #deferred = new Set<string>();
  constructor(store: BlobStore) {
    this.#store = store;
  }

  /** Defers deletes until the returned function is called. */
  hold(): () => Promise<void> {
    this.#holds++;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      if (--this.#holds > 0) return;
      const keys = [...this.#deferred];
      this.#deferred.clear();
      for (const key of keys) await this.#store.delete(key).catch(() => undefined);
    };
  }

  put(key: string, bytes: Uint8Array): Promise<void> {
    this.#deferred.delete(key);
    return this.#store.put(key, bytes);
  }
  putStream(key: string, source: Readable, options: { maxBytes: number }): Promise<number> {
    this.#deferred.delete(key);
    return this.#store.putStream(key, source, options);
  }
  get(key: string): Promise<Buffer> {
    return this.#store.get(key);
  }
  stream(key: string, range?: { start: number; end: number }): Readable {
    return this.#store.stream(key, range);
  }
  size(key: string): Promise<number | undefined> {
    return this.#store.size(key);
  }
  modifiedAt(key: string): Promise<number | undefined> {
    return this.#store.modifiedAt(key);
  }
  list(prefix: string): Promise<string[]> {
    return this.#store.list(prefix);
  }
  async delete(key: string): Promise<void> {
    // Held: the file stays until the copy ends. Readers find its row gone already.
    if (this.#holds > 0) this.#deferred.add(key);
    else await this.#store.delete(key);
  }
}

export interface BackupService {
  close(): Promise<void>;
}

/**
 * Answers backups on the data folder's socket: `dump()` makes the database snapshot, `hold()`
 * defers file deletes until the client hangs up. Refuses to start when another live server
 * answers there (two processes on one embedded database would corrupt it).
 */
export async function serveBackups(options: {
  dataDir: string;
  dump: () => Promise<Blob>;
  hold: () => () => Promise<void>;
  log: {
    error(object: object, message: string): void;
    warn(object: object, message: string): void;
  };
}): Promise<BackupService> {
  const path = adminSocket(options.dataDir);
  const clients = new Set<Socket>();
  const server: Server = createServer((socket) => {
    clients.add(socket);
    const release = options.hold();
    socket.once('close', () => {
      clients.delete(socket);
      void release();
    });
    socket.on('error', () => socket.destroy());
    let asked = '';
    socket.on('data', (chunk: Buffer) => {
      if (asked.includes('\n')) return;
      asked += chunk.toString('latin1');
      if (!asked.includes('\n')) return;
      if (asked.trim() !== 'backup') {
        socket.end('error unknown request\n');
        return;
      }
      options.dump().then(
        async (dump) => {
          socket.write(`ok ${dump.size}\n`);
          // Streamed: the snapshot can be hundreds of MB.
          for await (const part of Readable.fromWeb(dump.stream()))
            if (!socket.write(part as Buffer))
              await new Promise((resolve) => socket.once('drain', resolve));
          // The hold lasts until the client hangs up, after its copy of the files.
        },
        (error: unknown) => {
          options.log.error({ err: error }, 'backup snapshot failed');
          socket.end(`error ${String(error).replace(/\n/g, ' ')}\n`);
        },
      );
    });
  });
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A data folder whose path is too long for a socket (about 100 characters): the server
    // runs, backed up offline only.
    if (code !== 'EADDRINUSE') {
      options.log.warn(
        { err: error },
        `backups of the running server are unavailable: no socket at ${path}`,
      );
      return { close: () => Promise.resolve() };
    }
    if (await answers(path))
      throw new Error(`Another server runs on ${options.dataDir}: stop it first`, {
        cause: error,
      });
    // Left by a process that died: nobody listens there.
    await rm(path, { force: true });
    await listen();
  }
  await chmod(path, 0o600);
  return {
    async close() {
      for (const socket of clients) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(path, { force: true });
    },
  };
}

/** Whether a live process answers on the socket. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Asks the running server for a snapshot, written to `file`. Resolves to a function ending the
 * hold on file deletes (call it after the files are copied), or undefined when no server runs.
 */
async function snapshotFromServer(
  dataDir: string,
  file: string,
): Promise<(() => void) | undefined> {
  const socket = connect(adminSocket(dataDir));
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
  } catch (error) {
    // No socket, or one left by a process that died: nobody holds the database.
    if (['ENOENT', 'ECONNREFUSED'].includes((error as NodeJS.ErrnoException).code ?? ''))
      return undefined;
    throw error;
  }
  socket.write('backup\n');
  const out = createWriteStream(file, { mode: 0o600 });
  await new Promise<void>((resolve, reject) => {
    let header = Buffer.alloc(0);
    let remaining = -1;
    const fail = (error: Error) => {
      socket.destroy();
      out.destroy();
      reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => {
      if (remaining !== 0) fail(new Error('The server hung up during the backup'));
    });
    socket.on('data', (chunk: Buffer) => {
      if (remaining < 0) {
        header = Buffer.concat([header, chunk]);
        const end = header.indexOf(10);
        if (end < 0) return;
        const line = header.subarray(0, end).toString();
        const match = /^ok (\d+)$/.exec(line);
        if (!match) {
          fail(new Error(`The server refused the backup: ${line}`));
          return;
        }
        remaining = Number(match[1]);
        chunk = header.subarray(end + 1);
      }
      if (chunk.length > remaining) {
        fail(new Error('The server sent more than it announced'));
        return;
      }
      remaining -= chunk.length;
      if (!out.write(chunk)) {
        socket.pause();
        out.once('drain', () => socket.resume());
      }
      if (remaining === 0) out.end(() => resolve());
    });
  });
  // The hold ends when the connection does: a server that stopped during the copy may have
  // deleted files the snapshot names, so that backup is refused.
  let cut = false;
  socket.once('close', () => (cut = true));
  return () => {
    if (cut) throw new Error('The server stopped during the backup: take it again');
    socket.end();
  };
}

/** Files and folders of the data folder a backup keeps, beside the database. */
const KEPT_FILE = 'jwt-secret';

/** Counts the files under a folder. */
async function countFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

async function emptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/**
 * Backs up the data folder `dataDir` into `target` (empty or missing): the database snapshot
 * (`database.tar`), the files (`files/`), the signing key kept without JWT_SECRET, and last
 * the manifest. With a server running, the snapshot is its; without, the folder is read.
 */
export async function backup(dataDir: string, target: string): Promise<Manifest> {
  if (!(await emptyOrMissing(target)))
    throw new Error(`${target} is not empty: back up into a new folder`);
  await mkdir(target, { recursive: true, mode: 0o700 });
  const database = join(target, 'database.tar');
  const release = await snapshotFromServer(dataDir, database);
  const online = release !== undefined;
  try {
    if (!release) {
      // No server: the command holds the socket while it reads the folder, so a server
      // started meanwhile refuses to start (another server runs) rather than open the
      // database beside it.
      const guard = createServer((socket) => socket.destroy());
      const hold = () =>
        new Promise<void>((resolve, reject) => {
          guard.once('error', reject);
          guard.listen(adminSocket(dataDir), () => resolve());
        });
      await hold().catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EADDRINUSE') throw error;
        // A socket a dead process left: nobody answered a moment ago.
        await rm(adminSocket(dataDir), { force: true });
        await hold();
      });
      const unguard = () => new Promise((resolve) => guard.close(resolve));
      const thread = await PgliteThread.start({ dataDir: join(dataDir, 'db') }).catch(
        async (error: unknown) => {
          await unguard();
          throw error;
        },
      );
      try {
        await pipeline(
          Readable.fromWeb((await thread.dump()).stream()),
          createWriteStream(database, { mode: 0o600 }),
        );
      } finally {
        await thread.close();
        await unguard();
      }
    }
    // After the snapshot, under the server's hold on deletes (see the top of this file).
    await cp(join(dataDir, 'files'), join(target, 'files'), {
      recursive: true,
      // Uploads being written: never named by a committed row.
      filter: (source) => !source.split(/[\\/]/).includes('.tmp'),
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  } catch (error) {
    // The first failure is the one to report; the connection goes either way.
    try {
      release?.();
    } catch {
      // Cut already.
    }
    throw error;
  }
  release?.();
  await cp(join(dataDir, KEPT_FILE), join(target, KEPT_FILE)).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    },
  );
  const manifest: Manifest = {
    format: FORMAT,
    createdAt: new Date().toISOString(),
    online,
    files: await countFiles(join(target, 'files')),
  };
  await writeFile(join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Restores the backup in `source` into `dataDir`, which must be empty or missing (a restore
 * never mixes with data already there). The database is unpacked through PGlite itself and
 * closed cleanly; files are copied into a temporary folder and renamed into place last.
 */
export async function restore(source: string, dataDir: string): Promise<Manifest> {
  const manifest = JSON.parse(
    await readFile(join(source, MANIFEST), 'utf8').catch(() => {
      throw new Error(`${source} holds no finished backup (no ${MANIFEST})`);
    }),
  ) as Manifest;
  if (manifest.format !== FORMAT)
    throw new Error(
      `${source} is a backup of format ${manifest.format}; this version reads ${FORMAT}`,
    );
  if (!(await emptyOrMissing(dataDir)))
    throw new Error(`${dataDir} is not empty: restore into an empty folder`);
  await mkdir(dataDir, { recursive: true });
  const staging = join(dataDir, `.restore-${randomUUID()}`);
  await mkdir(staging);
  const tar = await readFile(join(source, 'database.tar'));
  const thread = await PgliteThread.start({
    dataDir: join(staging, 'db'),
    loadDataDir: new Blob([tar]),
  });
  // Opened once: crash recovery runs now, and the database is closed cleanly.
  await thread.query('SELECT 1');
  await thread.close();
  if ((await stat(join(source, 'files')).catch(() => undefined))?.isDirectory())
    await cp(join(source, 'files'), join(staging, 'files'), { recursive: true });
  await cp(join(source, KEPT_FILE), join(staging, KEPT_FILE)).then(
    () => chmod(join(staging, KEPT_FILE), 0o600),
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    },
  );
  // Into place together: a restore cut short leaves only the staging folder.
  for (const name of await readdir(staging)) await rename(join(staging, name), join(dataDir, name));
  await rm(staging, { recursive: true, force: true });
  return manifest;
}
