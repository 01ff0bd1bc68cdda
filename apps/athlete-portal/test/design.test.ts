import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPage, watchErrors } from '../../../tests/audit.ts';
import { launchChromium, startProduct, type RunningProduct } from '../../../tests/product.ts';

// The portal as a picture (issue: a portal designed as a whole): the pages of figures at a
// wide screen, a laptop and a phone, in English, German (long words) and Japanese (no spaces).
// No figure splits from its unit on any of them, the audit of every screen passes, and the
// rides list shows at least 12 rides in a 1440 x 900 window (Strava's list shows about 20;
// it showed three). Each page is kept as a picture for review in test-results/screens/.

const WIDTHS = [1440, 1024, 390] as const;
const LANGUAGES = ['en-US', 'de', 'ja'] as const;
const screens = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-results', 'screens');

describe('the portal at 1440, 1024 and 390 px in en, de and ja (Chromium)', () => {
  let product: RunningProduct;
  let browser: Browser;
  let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;
  let paths: Record<string, string>;
  let everyPage: string[];

  beforeAll(async () => {
    mkdirSync(screens, { recursive: true });
    product = await startProduct();
    browser = await launchChromium();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${product.base}/login`);
    await page.getByLabel('E-mail').fill(product.demo.email);
    await page.getByLabel('Password').fill(product.demo.password);
    await page.getByRole('checkbox', { name: 'Remember me' }).check();
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/dashboard\/main$/);
    signedIn = await context.storageState();
    // The demo's ten-hour ride: the longest list of figures and the densest charts.
    await page.goto(`${product.base}/dashboard/workouts/list`);
    const ride = await page
      .getByRole('link', { name: /Ten-hour/ })
      .first()
      .getAttribute('href');
    const id = ride!.split('/').at(-1)!;
    paths = {
      list: '/dashboard/workouts/list',
      ride: `/dashboard/workouts/share/${id}`,
      curve: `/dashboard/workouts/powerCurve/${id}`,
      bests: '/dashboard/training/bests',
      fitness: '/dashboard/training/fitness',
    };
    everyPage = [
      ...Object.values(paths),
      '/dashboard/main',
      '/dashboard/workouts/archive',
      '/dashboard/workouts/shared',
      '/dashboard/training/log',
      '/dashboard/device/list',
      '/dashboard/device/add',
      '/dashboard/settings',
      '/dashboard/settings/account',
      '/upload/gpxFile',
    ];
    await context.close();
  });

  it('gives every control of every portal page a 44 px target on a phone, 24 px in its navbar and footer', async () => {
    // WCAG 2.2's 24 px is the floor; 44 px (Apple's and Material's guidelines) wherever the
    // page lays out its own controls. The navbar's phone menu and the footer's site map are
    // dense lists of 24 px or more (public-site e2e). A link inside a sentence is text
    // (WCAG's exception), a checkbox's target is its label row, and what is hidden on
    // purpose (the skip link until focused, a file input behind its button) is not a target.
    const problems: string[] = [];
    for (const language of ['en-US', 'de'] as const) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        storageState: signedIn,
      });
      await context.addInitScript({
        content: `localStorage.setItem('xoss_language', JSON.stringify({ v: ${JSON.stringify(language)}, e: null }))`,
      });
      const page = await context.newPage();
      try {
        for (const path of everyPage) {
          await page.goto(`${product.base}${path}`);
          await page.locator('main h1').first().waitFor();
          await page.waitForLoadState('networkidle');
          await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
          const small = await page.evaluate<string[]>(`(() => {
            const controls = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [role=button], [role=tab]')];
            const found = [];
            for (const control of controls) {
              if (control.getClientRects().length === 0) continue;
              if (control.type === 'hidden' || control.closest('.xoss-visually-hidden')) continue;
              const box = control.getBoundingClientRect();
              if (box.width <= 1 && box.height <= 1) continue;
              const block = control.closest('p, li, dd');
              if (control.tagName === 'A' && block && block.textContent.trim() !== control.textContent.trim()) continue;
              const target = control.type === 'checkbox' || control.type === 'radio' ? (control.closest('label') ?? control) : control;
              const rect = target.getBoundingClientRect();
              const size = Math.min(rect.width, rect.height);
              const least = control.closest('main') ? 44 : 24;
              if (size < least - 0.5)
                found.push(control.tagName.toLowerCase() + ' "' + (control.getAttribute('aria-label') || control.textContent || control.name || '').trim().slice(0, 40) + '" ' + Math.round(rect.width) + 'x' + Math.round(rect.height) + ' (at least ' + least + ')');
            }
            return found;
          })()`);
          for (const control of small) problems.push(`${language} ${path}: ${control}`);
        }
        // The training log's calendar starts on the first screen of a small phone in German
        // (its three tabs and the Back/Today/Next row pushed it to y = 470 of 740).
        await page.setViewportSize({ width: 360, height: 740 });
        await page.goto(`${product.base}/dashboard/training/log`);
        const firstWeek = page.locator('main table.xoss-calendar tbody tr').first();
        await firstWeek.waitFor();
        const box = await firstWeek.boundingBox();
        if (!box || box.y + Math.min(box.height, 60) > 740)
          problems.push(
            `${language}: the calendar's first week starts at y = ${box?.y} of 740 at 360 px`,
          );
        await page.screenshot({ path: join(screens, `log-${language}-360.png`) });
      } finally {
        await context.close();
      }
    }
    expect(problems).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await product?.close();
  });

  it.for(LANGUAGES)(
    'in %s: every figure beside its unit, the audit passes, 12 rides a screen at 1440 x 900',
    async (language) => {
      const problems: string[] = [];
      for (const width of WIDTHS) {
        const context = await browser.newContext({
          viewport: { width, height: 900 },
          storageState: signedIn,
        });
        await context.addInitScript({
          content: `localStorage.setItem('xoss_language', JSON.stringify({ v: ${JSON.stringify(language)}, e: null }))`,
        });
        const page = await context.newPage();
        const errors = watchErrors(page);
        try {
          for (const [name, path] of Object.entries(paths)) {
            await page.goto(`${product.base}${path}`);
            await page.locator('main h1').first().waitFor();
            await page.waitForLoadState('networkidle');
            // A locator, not waitForFunction: the CSP refuses a function evaluated by string.
            await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
            for (const problem of [...(await auditPage(page)), ...errors()])
              problems.push(`${name} at ${width} px: ${problem}`);
            if (name === 'list' && width === 1440) {
              const inView = await page.evaluate<number>(
                `[...document.querySelectorAll('main tbody tr')].filter((row) => row.getBoundingClientRect().bottom <= innerHeight).length`,
              );
              if (inView < 12) problems.push(`list at 1440 x 900: ${inView} rides in view`);
            }
            await page.screenshot({ path: join(screens, `${name}-${language}-${width}.png`) });
          }
        } finally {
          await context.close();
        }
      }
      expect(problems).toEqual([]);
    },
  );
});
