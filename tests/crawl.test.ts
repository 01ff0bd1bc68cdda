import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ownerOfPath } from '@xoss/api-contract';
import { DEFAULT_LANGUAGE, textLanguages } from '@xoss/i18n';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPage, watchErrors } from './audit.ts';
import { launchChromium, startProduct, type RunningProduct } from './product.ts';

// Finding the product as a new rider does: by following links only, on a phone 360 px wide.
// A crawler starts from one page, opens every link it finds (never a typed URL), and records
// how many clicks away each page is. Every screen of the product's route table (docs/) must be
// reached within two clicks, logged out from the home page and logged in from the
// dashboard, and no page it reaches may scroll sideways.

/** The screens, as patterns over paths; ids and names are any one segment. */
const visitorScreens = [
  '/',
  '/login',
  '/product/manuals',
  '/product/download',
  // The app page in the visitor's language: product and map pages link to it.
  '/product/download/{lang}',
  '/product/xossnav',
  '/product/xossg2',
  '/product/xossG',
  '/product/xossSprint',
  '/product/xossHeartRate',
  '/product/xossCadence',
  '/product/xossSpeed',
  '/product/xossLights',
  '/product/contact',
  '/download/globalMaps',
  '/download/globalMapsRegion',
  '/download/gpxHow',
  '/download/maps',
  '/post/content',
  '/post/content/{id}',
  '/copyright/terms',
  '/copyright/protocol',
  '/copyright/termsLocal',
  '/copyright/policy',
  '/copyright/cookies',
];

const riderScreens = [
  '/dashboard/main',
  '/dashboard/workouts/list',
  '/dashboard/workouts/share/{id}',
  '/dashboard/workouts/shared',
  '/dashboard/workouts/archive',
  '/dashboard/workouts/powerCurve/{id}',
  '/dashboard/workouts/indoor/model/{id}',
  '/dashboard/device/list',
  '/dashboard/device/list/settings/{id}',
  '/dashboard/device/list/manager',
  '/dashboard/device/add',
  '/dashboard/routebooks/{id}',
  '/dashboard/settings',
  '/dashboard/settings/account',
  '/dashboard/training/log',
  '/dashboard/training/fitness',
  '/dashboard/training/bests',
  '/upload/gpxFile',
  '/developer/mydevices/',
  '/post/create',
  '/download/maps',
  '/download/globalMaps',
];

/**
 * A path's screen: numeric segments become `{id}`, the app page's language `{lang}`, so each
 * screen is crawled once.
 */
const screenOf = (path: string) =>
  path
    .replace(/\/\d+(?=\/|$)/g, '/{id}')
    .replace(/^\/product\/download\/[^/]+$/, '/product/download/{lang}');

/** Links not to follow: files to download, the API, and signing out. */
const skip = (url: URL) =>
  url.pathname.startsWith('/api/') ||
  url.pathname.startsWith('/storybook') ||
  /\.(pdf|zip|fit|gpx|json|img|exe|dmg)$/i.test(url.pathname);

interface Reached {
  readonly depth: number;
  readonly from: string;
}

/**
 * Breadth-first over the links of each page, one page per screen. Returns each screen's
 * depth (clicks from the start) and the screens whose page is wider than the window.
 */
async function crawl(
  page: Page,
  base: string,
  start: string,
  maxDepth: number,
  options: { audit?: boolean } = {},
) {
  const reached = new Map<string, Reached>();
  const landedOn: string[] = [];
  const wide: string[] = [];
  const problems: string[] = [];
  const errors = watchErrors(page);
  let frontier: { path: string; from: string }[] = [{ path: start, from: '(start)' }];
  for (let depth = 0; depth <= maxDepth && frontier.length > 0; depth += 1) {
    const next: { path: string; from: string }[] = [];
    for (const { path, from } of frontier) {
      const screen = screenOf(new URL(path, base).pathname);
      if (reached.has(screen)) continue;
      reached.set(screen, { depth, from });
      await page.goto(`${base}${path}`);
      await page.locator('main h1').first().waitFor();
      // Pages fill in as their data arrives: measure once it has.
      await page.waitForLoadState('networkidle');
      const landed = new URL(page.url());
      // A redirect (a guarded page) counts as reaching where it lands, not what was asked.
      const landedScreen = screenOf(landed.pathname);
      landedOn.push(`${landed.pathname}${landed.search}`);
      if (landedScreen !== screen) {
        reached.delete(screen);
        if (!reached.has(landedScreen)) reached.set(landedScreen, { depth, from });
      }
      const widths = await page.evaluate<[number, number]>(
        '[document.documentElement.scrollWidth, window.innerWidth]',
      );
      if (widths[0] > widths[1]) wide.push(`${landed.pathname} (${widths[0]} px)`);
      // The crawl's own language (English) is audited here, on the page it loaded anyway.
      if (options.audit)
        for (const problem of [...(await auditPage(page)), ...errors()])
          if (!problem.startsWith('the page scrolls sideways'))
            problems.push(`${landed.pathname}: ${problem}`);
      const hrefs = await page.evaluate<string[]>(
        `[...document.querySelectorAll('a[href]')].map((a) => a.href)`,
      );
      for (const href of hrefs) {
        const url = new URL(href);
        if (url.origin !== new URL(base).origin || skip(url)) continue;
        next.push({ path: `${url.pathname}${url.search}`, from: landed.pathname });
      }
    }
    frontier = next;
  }
  return { reached, wide, landedOn, problems };
}

/**
 * What is wrong with the pages at `paths` in `language`: wider than the window, not in that
 * language, or failing the state matrix's audit (script errors, blank charts, words wider
 * than their column, crowded touch targets).
 *
 * Each app's first page is loaded in full (a prerendered page arrives in English and must
 * switch once its script has run); its other pages are reached inside the app, as a rider's
 * clicks do (the router follows the history), which costs half the CPU of a full load: nine
 * languages of some 45 screens were a sixth of CI's time.
 */
async function pageProblems(page: Page, base: string, paths: readonly string[], language: string) {
  const errors = watchErrors(page);
  await page.evaluate(
    `localStorage.setItem('xoss_language', JSON.stringify({ v: ${JSON.stringify(language)}, e: null }))`,
  );
  const wide: string[] = [];
  // One app's pages after the other's, so each app is loaded once.
  const owners = [...new Set(paths.map((path) => ownerOfPath(path)))];
  const ordered = owners.flatMap((owner) => paths.filter((path) => ownerOfPath(path) === owner));
  let loaded: string | undefined;
  for (const path of ordered) {
    const owner = ownerOfPath(path);
    const current = ownerOfPath(new URL(page.url()).pathname);
    if (loaded === owner && current === owner) {
      await page.evaluate(
        `history.pushState({}, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`,
      );
      await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
    } else {
      await page.goto(`${base}${path}`);
      loaded = owner;
    }
    await page.locator('main h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    // A prerendered page arrives in English and switches once its script has run. A locator,
    // not waitForFunction: that evaluates its string in the page, which our CSP (no
    // 'unsafe-eval') refuses, so it used to fail at once and the check raced the switch.
    await page
      .locator(`html[lang="${language}"]`)
      .waitFor({ state: 'attached' })
      .catch(() => undefined);
    const [scroll, inner, lang] = await page.evaluate<[number, number, string]>(
      '[document.documentElement.scrollWidth, window.innerWidth, document.documentElement.lang]',
    );
    if (lang !== language) wide.push(`${path} is in ${lang}, not ${language}`);
    if (new URL(page.url()).pathname === '/login' && !path.startsWith('/login'))
      wide.push(`${path} sent the rider to /login`);
    if (scroll > inner) wide.push(`${path} in ${language} (${scroll} px)`);
    for (const problem of [...(await auditPage(page)), ...errors()])
      if (!problem.startsWith('the page scrolls sideways'))
        wide.push(`${path} in ${language}: ${problem}`);
  }
  return wide;
}

describe('every screen by following links, on a 360 px phone (Chromium)', () => {
  let product: RunningProduct;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let demo: RunningProduct['demo'];

  beforeAll(async () => {
    product = await startProduct();
    base = product.base;
    demo = product.demo;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await product?.close();
  });

  const missing = (reached: Map<string, Reached>, screens: readonly string[], maxDepth: number) =>
    screens.filter((screen) => (reached.get(screen)?.depth ?? Infinity) > maxDepth);

  it('reaches every visitor screen from the home page within two clicks', async () => {
    const { reached, wide } = await crawl(page, base, '/', 2);
    expect(missing(reached, visitorScreens, 2)).toEqual([]);
    expect(wide).toEqual([]);
  });

  it('reaches every rider screen from the dashboard within two clicks once logged in', async () => {
    await page.goto(`${base}/login`);
    await page.getByLabel('E-mail').fill(demo.email);
    await page.getByLabel('Password').fill(demo.password);
    // Remembered, so the other languages' tabs start signed in from the stored session.
    await page.getByRole('checkbox', { name: 'Remember me' }).check();
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/dashboard\/main$/);
    await page.waitForLoadState('networkidle');
    const { reached, wide, landedOn, problems } = await crawl(page, base, '/dashboard/main', 2, {
      audit: true,
    });
    screensToRead.push(...new Set(landedOn));
    expect(missing(reached, riderScreens, 2)).toEqual([]);
    expect(wide).toEqual([]);
    // Every screen it reached, audited in English (the other languages follow).
    expect(problems).toEqual([]);
  });

  // What the two crawls reached (visitor pages too: the rider's crawl leaves through the footer).
  const screensToRead: string[] = [];

  // Each of the other eight languages in its own tab with the rider's session, a few at a
  // time (much of a page's time here is waiting for the network to go quiet); English is
  // audited by the crawl above.
  it.concurrent.for(textLanguages.filter((language) => language !== DEFAULT_LANGUAGE))(
    'lays out every screen it reached in %s: no sideways scrolling, and the audit passes',
    async (language, { expect: expectHere }) => {
      expectHere(screensToRead.length).toBeGreaterThan(riderScreens.length);
      const tab = await browser.newContext({
        viewport: { width: 360, height: 740 },
        storageState: await context.storageState(),
      });
      try {
        const own = await tab.newPage();
        await own.goto(`${base}/product/contact`);
        await own.waitForLoadState('networkidle');
        expectHere(await pageProblems(own, base, screensToRead, language)).toEqual([]);
      } finally {
        await tab.close();
      }
    },
  );
});
