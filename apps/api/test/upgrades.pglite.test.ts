import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { dumpEmbedded, openDatabase } from '../src/platform/db/db.ts';
import { defineUpgradesSuite } from './upgradesSuite.ts';

describe('upgrades on the embedded database (PGlite)', () => {
  defineUpgradesSuite(() => {
    const folders: string[] = [];
    /** The schema at each version, each made from the one before (one migration each). */
    const dumps = new Map<number, Blob>();
    const dumpAt = async (version: number): Promise<Blob | undefined> => {
      if (version === 0) return undefined;
      const ready = dumps.get(version);
      if (ready) return ready;
      const before = await dumpAt(version - 1);
      const db = await openDatabase({
        migrations: version,
        ...(before ? { loadDataDir: before } : {}),
      });
      const dump = await dumpEmbedded(db);
      await db.close();
      dumps.set(version, dump);
      return dump;
    };
    return Promise.resolve({
      kind: 'pglite' as const,
      storage(options?: { kept?: boolean }) {
        if (!options?.kept) {
          // In memory (faster): each close leaves a dump the next open starts from.
          let last: Blob | undefined;
          return Promise.resolve({
            async open(m?: number | readonly string[]) {
              const start = last ?? (typeof m === 'number' ? await dumpAt(m) : undefined);
              const db = await openDatabase({
                ...(start ? { loadDataDir: start } : {}),
                ...(m === undefined ? {} : { migrations: m }),
              });
              const close = db.close.bind(db);
              return Object.assign(db, {
                async close() {
                  last = await dumpEmbedded(db);
                  await close();
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
      close() {
        for (const dir of folders) rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    });
  });
});
