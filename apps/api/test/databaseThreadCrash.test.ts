import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createUser } from '../src/commands/createUser.ts';
import { LocalBlobStore } from '../src/platform/blobStore.ts';
import { configFromEnv } from '../src/platform/config.ts';
import { crashEmbeddedThread, openDatabase } from '../src/platform/db/db.ts';
import { buildServer } from '../src/server.ts';

// The embedded database's thread dies under a request (README, the V8 fault: can it reach a
// running server?): the request is answered 503 with Retry-After, the thread is started
// again on its folder, and the same request a moment later is answered as if nothing had
// happened. The process, the rider's data and the session stay.

it('answers 503 + Retry-After to the request the database thread died under, and serves the next', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'xoss-db-thread-'));
  const db = await openDatabase({ dataDir: join(dir, 'db') });
  const server = await buildServer({
    db,
    blobs: new LocalBlobStore(join(dir, 'files')),
    config: configFromEnv({}),
  });
  try {
    await createUser(db, 'steady@example.com', 'steady', 'steady password');
    const login = await server.inject({
      method: 'POST',
      url: '/api/v1/jwt-token/',
      payload: { email: 'steady@example.com', password: 'steady password' },
    });
    const { access } = login.json<{ data: { access: string } }>().data;
    const list = () =>
      server.inject({ url: '/api/v2/workouts/', headers: { authorization: `Bearer ${access}` } });
    expect((await list()).statusCode).toBe(200);

    // Forced: the thread dies while the list's query is on it.
    const query = db.query.bind(db);
    let armed = true;
    db.query = (async (sql: string, params?: readonly unknown[]) => {
      if (!armed || !/FROM workouts/.test(sql)) return query(sql, params);
      armed = false;
      const running = query(sql, params);
      await crashEmbeddedThread(db);
      return running;
    }) as typeof db.query;
    const cut = await list();
    expect(cut.statusCode).toBe(503);
    expect(cut.headers['retry-after']).toBe('2');
    expect(cut.json()).toMatchObject({ code: 10503 });

    const again = await list();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ data: { count: 0 } });
  } finally {
    await server.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
