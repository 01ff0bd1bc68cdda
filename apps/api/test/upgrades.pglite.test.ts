import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import {
  dumpEmbedded,
  migrateDatabase,
  openDatabase,
  type Database,
} from '../src/platform/db/db.ts';
import { defineUpgradesSuite } from './upgradesSuite.ts';

describe('upgrades on the embedded database (PGlite)', () => {
  defineUpgradesSuite(() => {
    const folders: string[] = [];
    /** In-memory instances a test closed, kept to be migrated in place; closed at the end. */
    const opened: Database[] = [];
    /**
     * The schema at each version, each made from the one before (one migration each), by
     * one instance migrated a version at a time and dumped at each.
     */
    const dumps = new Map<number, Blob>();
    let builder: { db: Database; version: number } | undefined;
    const dumpAt = async (version: number): Promise<Blob | undefined> => {
      if (version === 0) return undefined;
      const ready = dumps.get(version);
      if (ready) return ready;
      if (!builder || builder.version > version) {
        await builder?.db.close();
        builder = { db: await openDatabase({ migrations: 1 }), version: 1 };
      }
      for (;;) {
        if (!dumps.has(builder.version)) dumps.set(builder.version, await dumpEmbedded(builder.db));
        if (builder.version === version) return dumps.get(version);
        builder.version++;
        await migrateDatabase(builder.db, builder.version);
      }
    };
    return Promise.resolve({
      kind: 'pglite' as const,
      storage(options?: { kept?: boolean }) {
        if (!options?.kept) {
          // In memory (faster): the instance a close leaves is the one the next open
          // migrates in place, as a start on its folder would.
          let kept: Database | undefined;
          return Promise.resolve({
            async open(m?: number | readonly string[]) {
              if (kept && m === undefined) {
                const db = kept;
                kept = undefined;
                // The test's harness closes it from here on.
                opened.splice(opened.indexOf(db), 1);
                await migrateDatabase(db);
                return db;
              }
              const start = typeof m === 'number' ? await dumpAt(m) : undefined;
              const db = await openDatabase({
                ...(start ? { loadDataDir: start } : {}),
                ...(m === undefined ? {} : { migrations: m }),
              });
              const close = db.close.bind(db);
              return Object.assign(db, {
                close() {
                  // Closed for good once opened again, or at the end of the suite.
                  kept = Object.assign(db, { close });
                  opened.push(db);
                  return Promise.resolve();
                },
              });
            },
          });
        }
        const dir = mkdtempSync(join(tmpdir(), 'xoss-upgrade-'));
        folders.push(dir);
        let created = false;
        return Promise.resolve({
          async open(m?: number | readonly string[]) {
            // The first open starts from the dump of its version (when it names one).
            const start = !created && typeof m === 'number' ? await dumpAt(m) : undefined;
            created = true;
            return openDatabase({
              dataDir: join(dir, 'db'),
              ...(start ? { loadDataDir: start } : {}),
              ...(m === undefined ? {} : { migrations: m }),
            });
          },
        });
      },
      async close() {
        await builder?.db.close();
        for (const db of opened.splice(0)) await db.close().catch(() => undefined);
        for (const dir of folders) rmSync(dir, { recursive: true, force: true });
      },
    });
  });
});
