import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalBlobStore } from '../src/platform/blobStore.ts';
import { configFromEnv } from '../src/platform/config.ts';
import { openDatabase, type Database } from '../src/platform/db/db.ts';
import { createUser } from '../src/commands/createUser.ts';
import { buildServer } from '../src/server.ts';
import { multipartBody } from '../src/testing/multipart.ts';
import { AnalysisPool } from '../src/imports/pool.ts';
import { fitFile } from './harness.ts';

// Security item 20 over real sockets: slow clients, slow handlers, bad framing, shutdown.

interface Running {
  server: FastifyInstance;
  port: number;
  dir: string;
}

const running: Running[] = [];

/** A gate: `entered` once something reached it, `release` lets everything through. */
function gate() {
  let enter!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { enter, entered, release, released };
}
/** The gate of the slow handler (and of the slow analysis), new for each test. */
let held = gate();
// One database for the file (creating one takes seconds); the servers only read health.
let db: Database;
beforeAll(async () => {
  db = await openDatabase();
});
afterAll(async () => {
  await db.close();
});

async function start(env: Record<string, string>, pool = new AnalysisPool(1)): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'xoss-timeouts-'));
  const server = await buildServer({
    db,
    blobs: new LocalBlobStore(join(dir, 'files')),
    config: configFromEnv(env),
    pool,
  });
  // A handler held until the test lets it go: stands in for a slow query. Whatever answers
  // it meanwhile is the server's deadline (no clock is raced).
  const slow = async () => {
    held.enter();
    await held.released;
    return { done: true };
  };
  server.get('/api/test/slow', slow);
  server.post('/api/test/slow', slow);
  await server.listen({ port: 0, host: '127.0.0.1' });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const handle = { server, port: address.port, dir };
  running.push(handle);
  return handle;
}

afterEach(async () => {
  held.release();
  held = gate();
  for (const { server, dir } of running.splice(0)) {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Opens a raw connection; `send` writes text, `received` is everything read so far. */
function rawClient(port: number) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  return {
    send: (text: string) => socket.write(text),
    /** Writes `text` and resolves once it is handed to the system (sent on loopback). */
    sent: (text: string) =>
      new Promise<void>((resolve, reject) =>
        socket.write(text, (error) => (error ? reject(error) : resolve())),
      ),
    get received() {
      return received;
    },
    closed,
    destroy: () => socket.destroy(),
  };
}

describe('server timeouts and shutdown (security 20)', () => {
  it('answers a client that never finishes its headers with 408 and closes', async () => {
    const { port } = await start({ HEADERS_TIMEOUT_MS: '300' });
    const client = rawClient(port);
    client.send('GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n');
    await client.closed;
    expect(client.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers a handler that overruns with 503 and code 10503, and keeps serving', async () => {
    const { port } = await start({ HANDLER_TIMEOUT_MS: '200' });
    // Held until after its reply: only the deadline can have answered it.
    const slow = await fetch(`http://127.0.0.1:${port}/api/test/slow`);
    expect(slow.status).toBe(503);
    expect(await slow.json()).toMatchObject({ code: 10503, msg: 'unavailable' });
    held.release();
    const quick = await fetch(`http://127.0.0.1:${port}/api/test/slow`);
    expect(quick.status).toBe(200);
  });

  it('answers a slow handler of a request with a body with 503 at its deadline', async () => {
    const { port } = await start({ HANDLER_TIMEOUT_MS: '500' });
    const slow = await fetch(`http://127.0.0.1:${port}/api/test/slow`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ some: 'body' }),
    });
    expect(slow.status).toBe(503);
    expect(await slow.json()).toMatchObject({ code: 10503 });
  });

  it('holds the upload deadline after the file is received, and stops the import behind it', async () => {
    const real = new AnalysisPool(1);
    // Analysis held until the request has its answer; then how it ended.
    let ended!: (how: 'analysed' | 'stopped') => void;
    const analysis = new Promise<'analysed' | 'stopped'>((resolve) => (ended = resolve));
    let entered = false;
    const slowPool = {
      analyse: async (...args: Parameters<AnalysisPool['analyse']>) => {
        entered = true;
        held.enter();
        await held.released;
        return real.analyse(...args).then(
          (result) => (ended('analysed'), result),
          (error: unknown) => {
            ended('stopped');
            throw error;
          },
        );
      },
      close: () => real.close(),
    } as unknown as AnalysisPool;
    const { port } = await start({ UPLOAD_TIMEOUT_MS: '400' }, slowPool);
    const email = `deadline${Date.now()}@example.com`;
    const userId = await createUser(db, email, 'deadline', 'deadline password');
    const login = await fetch(`http://127.0.0.1:${port}/api/v1/jwt-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'deadline password' }),
    });
    const { access } = ((await login.json()) as { data: { access: string } }).data;
    const { body, contentType } = multipartBody(
      {},
      { name: 'file', filename: 'ride.fit', bytes: fitFile(300) },
    );
    const reply = await fetch(`http://127.0.0.1:${port}/api/v2/workouts/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access}`, 'content-type': contentType },
      body,
    });
    // Answered while its analysis was held: the deadline's 503.
    expect(reply.status).toBe(503);
    // The import behind it was given up.
    await vi.waitFor(async () => {
      const [row] = await db.query<{ status: string }>(
        'SELECT status FROM imports WHERE user_id = $1',
        [userId],
      );
      expect(row?.status).toBe('given_up');
    });
    held.release();
    // Its job ends: cancelled before a worker took it (a loaded machine can leave it waiting
    // past the 400 ms deadline), or taken and ended.
    await vi.waitFor(async () => {
      const [job] = await db.query<{ state: string }>(
        'SELECT j.state FROM pgboss.job j JOIN imports i ON i.id = j.id WHERE i.user_id = $1',
        [userId],
      );
      expect(['cancelled', 'completed', 'failed']).toContain(job?.state);
    });
    // An analysis it started, let go, is stopped at once (the import's signal was aborted).
    if (entered) expect(await analysis).toBe('stopped');
    // Nothing comes of it either way.
    expect(await db.query('SELECT id FROM workouts WHERE user_id = $1', [userId])).toEqual([]);
  });

  it('refuses a malformed or contradictory Content-Length with 400', async () => {
    const { port } = await start({});
    for (const framing of [
      'Content-Length: ten\r\n',
      'Content-Length: 5\r\nContent-Length: 6\r\n',
      'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n',
    ]) {
      const client = rawClient(port);
      client.send(
        `POST /api/v1/jwt-token/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${framing}\r\n{"a":1}`,
      );
      await client.closed;
      expect(client.received, framing).toMatch(/^HTTP\/1\.1 400 /);
    }
  });

  it('refuses a body shorter than its Content-Length once the client stops sending (408, no hang)', async () => {
    const { port } = await start({ REQUEST_TIMEOUT_MS: '400', HEADERS_TIMEOUT_MS: '300' });
    const client = rawClient(port);
    client.send(
      'POST /api/v1/jwt-token/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":"a@b.c"}',
    );
    await client.closed;
    expect(client.received).toMatch(/^HTTP\/1\.1 (408|400) /);
  });

  it('finishes requests in flight on shutdown; new requests on open connections get 503 + Connection: close', async () => {
    const handle = await start({});
    const client = rawClient(handle.port);
    client.send('GET /api/test/slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await held.entered;
    const closing = handle.server.close();
    running.splice(running.indexOf(handle), 1);
    // A second request on the same connection while closing, then the first is let go.
    await client.sent('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    held.release();
    await closing;
    await client.closed;
    rmSync(handle.dir, { recursive: true, force: true });
    const replies = client.received.split(/(?=HTTP\/1\.1 )/);
    expect(replies[0]).toMatch(/^HTTP\/1\.1 200 /);
    expect(replies[0]).toContain('{"done":true}');
    expect(replies[1]).toMatch(/^HTTP\/1\.1 503 /);
    expect(replies[1]?.toLowerCase()).toContain('connection: close');
    // And nothing listens any more.
    await expect(fetch(`http://127.0.0.1:${handle.port}/api/health`)).rejects.toThrow();
  });
});
