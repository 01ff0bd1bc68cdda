import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './db.ts';

describe('the embedded database on its own thread', { timeout: 60_000 }, () => {
  it('runs a large statement while the event loop keeps turning, and returns the same bytes', async () => {
    const db = await openDatabase();
    try {
      await db.query('CREATE TABLE blobs (id int PRIMARY KEY, data bytea NOT NULL)');
      const bytes = randomBytes(24 * 1024 * 1024);
      let turns = 0;
      let running = true;
      const turn = () => {
        turns++;
        if (running) setImmediate(turn);
      };
      setImmediate(turn);
      await db.query('INSERT INTO blobs (id, data) VALUES (1, $1)', [bytes]);
      running = false;
      // On the server's thread the statement ran in one piece: a turn or two at most.
      expect(turns).toBeGreaterThan(10);
      const [row] = await db.query<{ data: Uint8Array }>('SELECT data FROM blobs WHERE id = 1');
      expect(Buffer.compare(Buffer.from(row!.data), bytes)).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('keeps transactions whole, with PostgreSQL error fields', async () => {
    const db = await openDatabase();
    try {
      await db.query('CREATE TABLE t (id int PRIMARY KEY)');
      const failed = await db
        .transaction(async (tx) => {
          await tx.query('INSERT INTO t (id) VALUES (1)');
          await tx.query('INSERT INTO t (id) VALUES (1)');
        })
        .catch((error: unknown) => error as { code?: string; constraint?: string });
      expect(failed).toMatchObject({ code: '23505', constraint: 't_pkey' });
      // Rolled back: neither row is there, and the next statements run.
      expect(await db.query('SELECT id FROM t')).toEqual([]);
      // Statements outside a transaction wait for it rather than join it.
      let outside: Promise<unknown> | undefined;
      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (2)');
        outside = db.query('SELECT count(*)::int AS n FROM t');
        await tx.query('INSERT INTO t (id) VALUES (3)');
      });
      expect(await outside).toEqual([{ n: 2 }]);
    } finally {
      await db.close();
    }
    // Closed: a statement fails plainly instead of hanging.
    await expect(db.query('SELECT 1')).rejects.toThrow(/closed/);
  });
});
