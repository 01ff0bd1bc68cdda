import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalBlobStore } from '../src/blobStore.ts';
import { configFromEnv } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/db.ts';
import { buildServer } from '../src/server.ts';
import { launchChromium } from './product.ts';

// Storybook as `pnpm start` serves it, under its sandboxing CSP, in Debian's Chromium.
// `pnpm test` builds it first (`pnpm build:storybook`).

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
}, 60_000);

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
    await preview.locator('#storybook-root svg').first().waitFor({ timeout: 30_000 });
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
}, 90_000);

// Visual regression: every story, drawn in Chromium at one size, against the picture
// committed in `.storybook/screenshots/`. `pnpm test:screenshots` rewrites the pictures after
// an intended change (review them in the diff); a missing picture fails here.
const screenshots = join(repoRoot, '.storybook', 'screenshots');
const updating = process.env.UPDATE_SCREENSHOTS === '1';
// Anti-aliased pixels are ignored; beyond them, at most this share of pixels may differ.
const TOLERATED_SHARE = 0.002;

it('draws every story as its committed picture', async () => {
  const index = JSON.parse(readFileSync(join(storybookDist, 'index.json'), 'utf8')) as {
    entries: Record<string, { id: string; type: string }>;
  };
  const stories = Object.values(index.entries).filter((entry) => entry.type === 'story');
  expect(stories.length).toBeGreaterThan(50);
  const browser = await launchChromium();
  const failures: string[] = [];
  try {
    const context = await browser.newContext({
      viewport: { width: 1024, height: 768 },
      deviceScaleFactor: 1,
      reducedMotion: 'reduce',
      locale: 'en-US',
      timezoneId: 'UTC',
    });
    const page = await context.newPage();
    mkdirSync(screenshots, { recursive: true });
    await page.goto(`${base}/storybook/iframe.html?id=${stories[0]!.id}&viewMode=story`);
    await page.waitForSelector('body.sb-show-main, body.sb-show-errordisplay', {
      state: 'attached',
      timeout: 30_000,
    });
    for (const story of stories) {
      // Storybook's own channel switches the story in place (no page load per story) and
      // says when it has rendered, or failed to.
      const outcome =
        story === stories[0]
          ? 'rendered'
          : await page.evaluate(
              `new Promise((resolve) => {
          setTimeout(() => resolve('did not render in 20 s'), 20000);
          const channel = window.__STORYBOOK_ADDONS_CHANNEL__;
          const done = (result) => () => {
            for (const [event, listener] of listeners) channel.off(event, listener);
            resolve(result);
          };
          const listeners = [
            ['storyRendered', done('rendered')],
            ['storyErrored', done('errored')],
            ['storyThrewException', done('threw')],
            ['storyMissing', done('missing')],
          ];
          for (const [event, listener] of listeners) channel.on(event, listener);
          channel.emit('setCurrentStory', { storyId: ${JSON.stringify(story.id)}, viewMode: 'story' });
        })`,
            );
      if (outcome !== 'rendered') {
        failures.push(`${story.id}: the story ${String(outcome)}`);
        continue;
      }
      await page.evaluate('document.fonts.ready.then(() => true)');
      // Two pictures in a row must agree: the story has finished drawing.
      let picture = await page.screenshot({ fullPage: true, animations: 'disabled' });
      for (let attempt = 0; attempt < 5; attempt++) {
        await page.waitForTimeout(150);
        const again = await page.screenshot({ fullPage: true, animations: 'disabled' });
        if (again.equals(picture)) break;
        picture = again;
      }
      const file = join(screenshots, `${story.id}.png`);
      if (updating) {
        writeFileSync(file, picture);
        continue;
      }
      if (!existsSync(file)) {
        failures.push(`${story.id}: no committed picture (run pnpm test:screenshots)`);
        continue;
      }
      const actual = PNG.sync.read(picture);
      const expected = PNG.sync.read(readFileSync(file));
      if (actual.width !== expected.width || actual.height !== expected.height) {
        failures.push(
          `${story.id}: ${actual.width}x${actual.height} drawn, ${expected.width}x${expected.height} committed`,
        );
        continue;
      }
      const differing = pixelmatch(
        actual.data,
        expected.data,
        undefined,
        actual.width,
        actual.height,
        { threshold: 0.1 },
      );
      const share = differing / (actual.width * actual.height);
      if (share > TOLERATED_SHARE)
        failures.push(`${story.id}: ${(share * 100).toFixed(2)} % of pixels differ`);
    }
  } finally {
    await browser.close();
  }
  expect(failures).toEqual([]);
}, 300_000);
