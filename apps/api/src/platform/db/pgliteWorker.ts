// The embedded database's own thread. PGlite is PostgreSQL compiled to WebAssembly: every
// statement runs synchronously on the thread that holds it, so on the main thread a large
// statement (a ride's streams written or deleted, a rider's rides recomputed) froze every
// request for seconds. Here it runs beside the server; the main thread sends SQL and gets rows
// (`pgliteThread.ts` is the other side).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import type { Reply, Request, WireError } from './pgliteThread.ts';

/**
 * PGlite moves bytea as hex text and converts it in JavaScript one byte at a time: a ride's
 * streams (a few MB) took about 220 ms to read and 700 ms to write. Node's native hex codec
 * does the same in a tenth of that; the bytes are identical (a test round-trips all 256).
 */
const byteaInNode = {
  parsers: { [types.BYTEA]: (text: string) => Buffer.from(text.slice(2), 'hex') },
  serializers: {
    [types.BYTEA]: (bytes: Uint8Array) =>
      `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`,
  },
};

const port = parentPort!;
const options = workerData as {
  dataDir?: string;
  loadDataDir?: ArrayBuffer;
  /** PGlite's module and files, compiled and read once by the process (pgliteThread.ts). */
  module: WebAssembly.Module;
  bundle: Blob;
};

/** What the main thread needs of an error: PostgreSQL's fields (`code`, `constraint`, ...). */
function wireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error))
    if (['string', 'number', 'boolean'].includes(typeof value))
      fields[key] = value as string | number | boolean;
  return { message: error.message, name: error.name, fields };
}

const send = (reply: Reply) => port.postMessage(reply);

/** How a transaction the caller ended with a rollback settles. */
class RolledBack extends Error {}

async function main() {
  let db: PGlite;
  try {
    db = await PGlite.create({
      ...byteaInNode,
      pgliteWasmModule: options.module,
      fsBundle: options.bundle,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: new Blob([options.loadDataDir]) } : {}),
    });
  } catch (error) {
    send({ id: 0, ok: false, error: wireError(error) });
    return;
  }
  /** Open transactions: each waits for its end while the main thread sends its statements. */
  const open = new Map<
    number,
    { tx: Transaction; end: (commit: boolean) => void; settled: Promise<unknown> }
  >();
  const unlisten = new Map<string, () => Promise<void>>();
  let nextTx = 1;

  const handle = async (request: Request): Promise<unknown> => {
    switch (request.op) {
      case 'query': {
        const target = request.tx === undefined ? db : open.get(request.tx)?.tx;
        if (!target) throw new Error('The transaction has ended');
        return (await target.query(request.sql, request.params)).rows;
      }
      case 'exec':
        return (await db.exec(request.sql)).map((result) => ({ rows: result.rows }));
      case 'begin': {
        const tx = nextTx++;
        // Answers once PGlite has begun it: other statements wait behind it, as they would
        // behind PGlite's own `transaction` on one thread.
        return new Promise<number>((begun) => {
          const settled = db.transaction(
            (handle) =>
              new Promise<void>((commit, rollback) => {
                open.set(tx, {
                  tx: handle,
                  end: (ok) => (ok ? commit() : rollback(new RolledBack())),
                  settled,
                });
                begun(tx);
              }),
          );
          // Read by `end`; a begin that failed has nobody waiting for it.
          settled.catch(() => undefined);
        });
      }
      case 'end': {
        const entry = open.get(request.tx);
        if (!entry) return null;
        open.delete(request.tx);
        entry.end(request.commit);
        try {
          await entry.settled;
        } catch (error) {
          // A commit that failed (a deferred constraint) is the caller's error.
          if (!(error instanceof RolledBack)) throw error;
        }
        return null;
      }
      case 'listen': {
        if (!unlisten.has(request.channel))
          unlisten.set(
            request.channel,
            await db.listen(request.channel, (payload) =>
              send({ notify: request.channel, payload }),
            ),
          );
        return null;
      }
      case 'unlisten': {
        await unlisten.get(request.channel)?.();
        unlisten.delete(request.channel);
        return null;
      }
      case 'dump': {
        // PGlite's dump waits for the statement under way, not for a transaction between two
        // of its statements. Taken inside a transaction of its own, it waits for every other
        // one to end (PGlite runs one at a time): a backup holds whole transactions only.
        // Nothing else runs while the files are read, so the copy is what a power cut at that
        // instant would leave: whole, and opened with the usual crash recovery.
        const file = await db.transaction(() => db.dumpDataDir('none'));
        return await file.arrayBuffer();
      }
      case 'close':
        await db.close();
        return null;
    }
  };

  port.on('message', (request: Request) => {
    handle(request).then(
      (value) => {
        send({ id: request.id, ok: true, value });
        if (request.op === 'close') port.close();
      },
      (error: unknown) => send({ id: request.id, ok: false, error: wireError(error) }),
    );
  });
  send({ id: 0, ok: true, value: null });
}

void main();
