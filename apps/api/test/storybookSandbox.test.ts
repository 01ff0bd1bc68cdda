import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalBlobStore } from '../src/platform/blobStore.ts';
import { configFromEnv } from '../src/platform/config.ts';
import { openDatabase, type Database } from '../src/platform/db/db.ts';
import { buildServer } from '../src/server.ts';
import { launchChromium } from './product.ts';

// Storybook as `pnpm start` serves it, under its sandboxing CSP, in Debian's Chromium.
// `pnpm test` builds it first (`pnpm build:storybook`). The stories' visual regression check
// is the repository's (tests/storybook.test.ts).

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const storybookDist = join(repoRoot, 'storybook-static');
let db: Database;
let server: FastifyInstance;
let base: string;
let dir: string;

beforeAll(async () => {
  if (!existsSync(join(storybookDist, 'index.html')))
    throw new Error(`${storybookDist} is missing: run \`pnpm build:storybook\` (pnpm test does)`);
  dir = mkdtempSync(join(tmpdir(), 'xoss-storybook-'));
  db = await openDatabase();
  server = await buildServer({
    db,
    blobs: new LocalBlobStore(join(dir, 'files')),
    config: configFromEnv({}),
    staticRoots: { storybook: storybookDist },
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await server?.close();
  await db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("renders a story under the sandbox, which keeps it from the site's localStorage", async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${base}/storybook/?path=/story/charts-stream-charts--two-hours`);
    const preview = page.frameLocator('iframe[src*="iframe.html"]');
    await preview.locator('#storybook-root svg').first().waitFor();
    const storage = await page.evaluate(() => {
      try {
        return `readable (${localStorage.length})`;
      } catch (error) {
        return (error as Error).name;
      }
    });
    expect(storage).toBe('SecurityError');
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});
