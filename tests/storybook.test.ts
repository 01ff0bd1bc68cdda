import {
  createReadStream,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WAIT_GUARD_MS } from '../vitest.guards.ts';
import { launchChromium } from './product.ts';

// Storybook as designers see it: the built Storybook (`pnpm test` builds it first with
// `pnpm build:storybook`) served as plain files on a loopback port and drawn in Debian's
// Chromium. How the API serves it (its sandboxing CSP) is the API's own test.

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const storybookDist = join(repoRoot, 'storybook-static');
const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
let server: Server;
let base: string;

beforeAll(async () => {
  if (!existsSync(join(storybookDist, 'index.html')))
    throw new Error(`${storybookDist} is missing: run \`pnpm build:storybook\` (pnpm test does)`);
  server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    const file = join(storybookDist, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(storybookDist) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

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
    await page.goto(`${base}/iframe.html?id=${stories[0]!.id}&viewMode=story`);
    await page.waitForSelector('body.sb-show-main, body.sb-show-errordisplay', {
      state: 'attached',
    });
    for (const story of stories) {
      // Storybook's own channel switches the story in place (no page load per story) and
      // says when it has rendered, or failed to; the wait guard only turns a hang into a
      // failure that names the story.
      const outcome =
        story === stories[0]
          ? 'rendered'
          : await page.evaluate(
              `new Promise((resolve) => {
          setTimeout(() => resolve('did not render in ${WAIT_GUARD_MS / 1000} s'), ${WAIT_GUARD_MS});
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
      // As many as it takes: on a loaded machine a chart may still be drawing after five.
      for (;;) {
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
});
