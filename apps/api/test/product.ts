import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../src/app.ts';
import type { ApiConfig } from '../src/platform/config.ts';
import type { Database } from '../src/platform/db/db.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const portalDist = join(repo, 'apps', 'athlete-portal', 'dist');
const siteDist = join(repo, 'apps', 'public-site', 'dist');

/** The whole product as `pnpm start` serves it, on a loopback port, with its own data. */
export interface RunningProduct {
  readonly server: FastifyInstance;
  /** Its database (benches create riders in it). */
  readonly db: Database;
  readonly base: string;
  close(): Promise<void>;
}

/**
 * Starts the real server with both built apps (`pnpm build` first; `pnpm test` does), on the
 * embedded database in a fresh folder, with the demo data unless told otherwise.
 */
export async function startProduct(
  options: { demo?: boolean; config?: ApiConfig } = {},
): Promise<RunningProduct> {
  for (const dist of [portalDist, siteDist])
    if (!existsSync(join(dist, 'index.html')))
      throw new Error(`${dist} is missing: run \`pnpm build\` (pnpm test does)`);
  const dir = mkdtempSync(join(tmpdir(), 'xoss-product-'));
  const { server, db } = await createApp({
    dataDir: dir,
    demo: options.demo ?? true,
    logger: false,
    ...(options.config ? { config: options.config } : {}),
    staticRoots: { athletePortal: portalDist, publicSite: siteDist },
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    server,
    db,
    base: `http://127.0.0.1:${address.port}`,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// The same browser as the apps' end-to-end tests.
export { launchChromium } from '../../../tests/product.ts';
