// @vitest-environment node
/// <reference types="node" />
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startProduct, type RunningProduct } from '../../../tests/product.ts';
import { CHAT_RETRY_MS } from '../src/helpWidget.ts';

// The visitor site as served by the real server (built apps, demo data, production CSP),
// driven in Debian's Chromium. `pnpm test` builds the apps first; the product runs as its own
// process (tests/product.ts).

describe('public site end to end (Chromium, CSP enforced)', () => {
  let product: RunningProduct;
  let browser: Browser;
  let page: Page;
  let base: string;
  let demo: RunningProduct['demo'];
  const problems: string[] = [];

  beforeAll(async () => {
    product = await startProduct();
    base = product.base;
    demo = product.demo;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (message) => {
      if (
        message.type() === 'error' &&
        /Content Security Policy|Refused to|hydrat|did not match/i.test(message.text())
      )
        problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await product?.close();
  });

  it('renders every visitor route, and the redirects hold', async () => {
    const routes: [path: string, heading: string | RegExp, landsOn?: string][] = [
      ['/', 'XOSS — GPS bike computers and sensors'],
      ['/product', 'Manuals', '/product/manuals'],
      ['/product/manuals', 'Manuals'],
      ['/product/download', 'XOSS app'],
      ['/product/download/ja', 'XOSS app'],
      ['/product/xossSprint', 'XOSS SPRINT'],
      ['/product/xossG', 'XOSS G'],
      ['/product/xossg2', 'XOSS G 2nd generation'],
      ['/product/xossnav', 'XOSS NAV'],
      ['/product/xossHeartRate', 'XOSS Heart Rate Monitor'],
      ['/product/xossCadence', 'XOSS Cadence Sensor'],
      ['/product/xossSpeed', 'XOSS Speed Sensor'],
      ['/product/xossLights', 'XOSS Bike Lights'],
      ['/product/contact', 'Contact'],
      ['/download', 'SPRINT global maps', '/download/globalMaps'],
      ['/download/globalMapsRegion', 'Choose your region'],
      ['/download/gpxHow', 'How to import a GPX route'],
      ['/download/maps', 'NAV+ maps'],
      ['/post', 'Community', '/post/content'],
      ['/copyright', 'Terms of Use', '/copyright/terms'],
      ['/copyright/protocol', 'User Agreement'],
      ['/copyright/termsLocal', 'Local terms'],
      ['/copyright/policy', 'Privacy Policy'],
      ['/copyright/cookies', 'Cookie Policy'],
      ['/login', 'Log In'],
      ['/no/such/page', 'This page does not exist.'],
    ];
    for (const [path, heading, landsOn] of routes) {
      await page.goto(`${base}${path}`);
      await page
        .getByRole('heading', { name: heading, level: typeof heading === 'string' ? 1 : undefined })
        .first()
        .waitFor();
      if (landsOn) expect(new URL(page.url()).pathname, path).toBe(landsOn);
      expect(await page.title(), path).toBe('XOSS — GPS bike computers and sensors');
    }
  });

  it('serves product pages as prerendered HTML that paints before scripts, then hydrates', async () => {
    for (const [path, text] of [
      ['/', 'Buy Now'],
      ['/product/xossnav', '33+ hours'],
      ['/product/xossg2', '28 hours'],
      ['/product/xossHeartRate', 'Heart rate (bpm)'],
      ['/product/xossCadence', 'Cadence (rpm)'],
      ['/product/xossSpeed', 'Wheel hub'],
      ['/product/xossLights', 'Up to 400 lumens'],
      ['/product/manuals', 'xossSprint-pt.pdf'],
      ['/copyright/policy', 'What we collect'],
    ] as const) {
      const html = await (await fetch(`${base}${path}`)).text();
      expect(html, path).toContain(`data-prerendered="${path}"`);
      expect(html, path).toContain(text);
    }
    // Scripts travel compressed; a manual (already compressed) as it is.
    const home = await fetch(`${base}/`);
    const script = /src="(\/assets\/site\/[^"]+\.js)"/.exec(await home.text())![1]!;
    const js = await fetch(`${base}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(js.headers.get('content-encoding')).toBe('gzip');
    // Pages and scripts go as the build compressed them (a stored length, no per-request work).
    for (const path of [script, '/product/xossnav', '/product/xossnav?lang=ja']) {
      const reply = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(reply.headers.get('content-encoding'), path).toBe('br');
      expect(Number(reply.headers.get('content-length')), path).toBeGreaterThan(500);
      expect(await reply.text(), path).toMatch(path === script ? /\S{200}/ : /<html lang=/);
    }
    const pdf = await fetch(`${base}/manuals/xossnav-en.pdf`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(pdf.headers.get('content-encoding')).toBeNull();
    // A missing hashed file is a 404, not a page.
    expect((await fetch(`${base}/assets/site/gone-1234.js`)).status).toBe(404);
    // A page the browser renders gets the empty shell, not the home page's HTML.
    const shell = await (await fetch(`${base}/download/maps`)).text();
    expect(shell).toContain('<div id="root"></div>');
    // Every language has its copy, named by the hreflang alternates; `?lang=` serves it.
    const japanese = await (await fetch(`${base}/product/xossnav?lang=ja`)).text();
    expect(japanese).toContain('<html lang="ja"');
    expect(japanese).toContain('33時間以上');
    const alternates = [...japanese.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)];
    expect(alternates.map((match) => match[1])).toEqual([
      'en-US',
      'ja',
      'ko',
      'de',
      'it',
      'pt-BR',
      'es',
      'zh-CN',
      'zh-TW',
      'x-default',
    ]);
    expect(alternates[3]![2]).toMatch(/\/product\/xossnav\?lang=de$/);
    // The German copy hydrates in German, and the link's language sticks.
    await page.goto(`${base}/product/xossnav?lang=de`);
    await page.getByRole('table', { name: 'Technische Daten NAV' }).waitFor();
    await page.goto(`${base}/product/contact`);
    await page.getByRole('heading', { name: 'Kontakt', level: 1 }).waitFor();
    await page.goto(`${base}/product/contact?lang=en-US`);
    await page.getByRole('heading', { name: 'Contact', level: 1 }).waitFor();
    // Hydrated: the prerendered page reacts (the language menu works), without mismatches.
    await page.goto(`${base}/product/xossG`);
    await page.getByRole('heading', { name: 'XOSS G', level: 1 }).waitFor();
    await page.getByLabel('Language').selectOption('zh-TW');
    await page.getByRole('table', { name: 'G 規格' }).waitFor();
    await page.getByLabel('語言').selectOption('en-US');
    await page.getByRole('table', { name: 'G specifications' }).waitFor();
    // A prerendered page whose code is a chunk of its own (the legal documents) hydrates
    // once the chunk is loaded: its links then navigate in the page, without a reload.
    await page.goto(`${base}/copyright/policy`);
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate('window.__samePage = true');
    await page
      .getByRole('navigation', { name: 'Legal' })
      .getByRole('link', { name: 'Cookie Policy' })
      .click();
    await page.getByRole('heading', { name: 'Cookie Policy', level: 1 }).waitFor();
    expect(await page.evaluate('window.__samePage')).toBe(true);
    // A page's own chunk and messages load before hydration, so React adopts the server's
    // nodes rather than dropping them for a fallback (no blank moment, no layout shift).
    await page.addInitScript(
      "document.addEventListener('DOMContentLoaded', () => { window.firstHeading = document.querySelector('main h1'); })",
    );
    for (const path of ['/product/xossnav', '/product/manuals', '/download/gpxHow']) {
      await page.goto(`${base}${path}`);
      await page.waitForLoadState('networkidle');
      const kept = await page.evaluate(
        "document.querySelector('main h1') !== null && document.querySelector('main h1') === window.firstHeading",
      );
      expect(kept, path).toBe(true);
    }
    // ...and hydrated: the language menu works on it.
    await page.getByLabel('Language').selectOption('zh-TW');
    await page.getByRole('heading', { name: '如何匯入 GPX 路線', level: 1 }).waitFor();
    await page.getByLabel('語言').selectOption('en-US');
    expect(problems).toEqual([]);
  });

  it('serves robots.txt, a sitemap of the public pages, and the favicon', async () => {
    const robots = await (await fetch(`${base}/robots.txt`)).text();
    expect(robots).toContain('Disallow: /dashboard/');
    expect(robots).toMatch(/^Sitemap: https?:\/\/.+\/sitemap\.xml$/m);
    const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
    const urls = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!));
    // Each prerendered page in every language, with its alternates; the others once.
    const nav = urls.filter((url) => url.pathname === '/product/xossnav');
    expect(nav.map((url) => url.searchParams.get('lang'))).toEqual([
      null,
      'ja',
      'ko',
      'de',
      'it',
      'pt-BR',
      'es',
      'zh-CN',
      'zh-TW',
    ]);
    expect(sitemap).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    expect(sitemap).toMatch(
      /<xhtml:link rel="alternate" hreflang="ja" href="[^"]+\/product\/xossnav\?lang=ja"\/>/,
    );
    expect(urls.filter((url) => url.pathname === '/download/maps')).toHaveLength(1);
    const japanese = await (await fetch(`${base}/product/xossnav?lang=ja`)).text();
    expect(japanese).toContain('<html lang="ja"');
    const locs = [...new Set(urls.map((url) => url.pathname))];
    expect(locs).toContain('/product/xossnav');
    expect(locs).toContain('/download/maps');
    expect(locs.some((path) => path.startsWith('/dashboard'))).toBe(false);
    // Every page the sitemap lists renders here.
    for (const path of locs) {
      await page.goto(`${base}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(
        await page.getByRole('heading', { name: 'This page does not exist.' }).count(),
        path,
      ).toBe(0);
    }
    const favicon = await fetch(`${base}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    await page.goto(`${base}/`);
    expect(await page.locator('link[rel=icon]').getAttribute('href')).toBe('/favicon.svg');
    expect(await page.locator('meta[name=description]').getAttribute('content')).toMatch(/XOSS/);
  });

  it('serves every manual it links to', async () => {
    await page.goto(`${base}/product/manuals`);
    await page.locator('a[href^="/manuals/"]').first().waitFor();
    const links = await page.locator('a[href^="/manuals/"]').all();
    const hrefs = await Promise.all(links.map((link) => link.getAttribute('href')));
    // Every product (bike computers, sensors and lights) in each of the nine languages.
    expect(hrefs).toHaveLength(8 * 9);
    for (const href of hrefs) {
      const reply = await fetch(`${base}${href}`);
      expect(reply.status, String(href)).toBe(200);
      expect(reply.headers.get('content-type'), String(href)).toMatch(/^application\/pdf/);
      const pdf = new Uint8Array(await reply.arrayBuffer());
      expect(new TextDecoder().decode(pdf.slice(0, 5)), String(href)).toBe('%PDF-');
      // A printed manual, not the 712-byte placeholder of old.
      expect(pdf.byteLength, String(href)).toBeGreaterThan(4000);
    }
    // A sensor's page leads to its manuals.
    await page.goto(`${base}/product/xossCadence`);
    await page.getByRole('link', { name: 'Manuals for Cadence Sensor' }).click();
    await page.getByRole('table', { name: 'Cadence Sensor manual' }).waitFor();
  });

  it('offers sensors and lights from home, names products alike in German, and links the app page', async () => {
    // Home lists the sensors and lights after the bike computers; a card leads to the page.
    await page.goto(`${base}/`);
    const sensors = page.getByRole('region', { name: 'Sensors and lights' });
    for (const name of ['Heart Rate Monitor', 'Cadence Sensor', 'Speed Sensor', 'Bike Lights'])
      await sensors.getByRole('heading', { name, level: 3 }).waitFor();
    await sensors.getByRole('link', { name: 'Cadence Sensor', exact: true }).click();
    await page.getByRole('heading', { name: 'XOSS Cadence Sensor', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Cadence Sensor specifications' }).waitFor();
    // The app page in the visitor's language, by a link (not a typed address).
    await page.getByRole('link', { name: 'Get the XOSS app' }).click();
    await page.getByRole('heading', { name: 'XOSS app', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/product/download/en-US');
    // The map pages lead there too.
    await page.goto(`${base}/download/globalMaps`);
    expect(await page.getByRole('link', { name: 'Get the XOSS app' }).getAttribute('href')).toBe(
      '/product/download/en-US',
    );

    // German: one name per product, the same in the card, the heading and the table.
    const german = await (await fetch(`${base}/product/xossg2?lang=de`)).text();
    expect(german).toContain('XOSS G 2. Generation');
    expect(german).not.toContain('2nd generation');
    const germanHome = await (await fetch(`${base}/?lang=de`)).text();
    expect(germanHome).toContain('Herzfrequenzmesser');
    expect(germanHome).not.toContain('2nd generation');
    await page.goto(`${base}/product/xossHeartRate?lang=de`);
    await page.getByRole('table', { name: 'Technische Daten Herzfrequenzmesser' }).waitFor();
    await page.goto(`${base}/product/xossnav?lang=de`);
    await page.getByRole('table', { name: 'Technische Daten NAV' }).waitFor();
    await page.getByLabel('Sprache').selectOption('en-US');
    await page.getByRole('table', { name: 'NAV specifications' }).waitFor();
  });

  it('lists articles in the site language by default, in another or in all on request', async () => {
    await page.goto(`${base}/post/content`);
    const filter = page.getByLabel('Articles in');
    const titles = async () => {
      await page.waitForLoadState('networkidle');
      return page.locator('.site__posts h2').allTextContents();
    };
    expect(await filter.inputValue()).toBe('en-US');
    await expect.poll(titles).toContain('Winter riding: battery tips');
    expect(await titles()).not.toContain('パワーカーブの見方');
    await filter.selectOption('ja');
    await expect.poll(titles).toEqual(['パワーカーブの見方']);
    expect(new URL(page.url()).searchParams.get('language')).toBe('ja');
    await filter.selectOption('all');
    await expect
      .poll(titles)
      .toEqual(
        expect.arrayContaining([
          'Winter riding: battery tips',
          'パワーカーブの見方',
          '如何设置码表数据页',
        ]),
      );
  });

  it('asks for a region before a map download, then offers the files with the import time', async () => {
    await page.goto(`${base}/download/maps`);
    // Nothing picked yet: no size (it once read "No region selected, 0 byte").
    await page.getByText('No region selected', { exact: true }).waitFor();
    expect(await page.getByText(/\b0 byte/).count()).toBe(0);
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Please select a region to download' })
      .waitFor();
    await page.getByRole('checkbox').first().check();
    await page.getByText(/^1 region selected, \d+(\.\d+)?\skB$/).waitFor();
    await page.getByText(/Estimated import time: \d+\sh \d+\smin/).waitFor();
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const link = page.getByRole('link', { name: /^Download / }).first();
    const href = await link.getAttribute('href');
    const reply = await fetch(`${base}${href}`);
    expect(reply.status).toBe(200);
  });

  it('keeps the cookie answer, switches language, and folds the menu on a phone', async () => {
    await page.goto(`${base}/product/contact`);
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.reload();
    await page.getByRole('heading', { name: 'Contact', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Accept' }).count()).toBe(0);

    await page.getByLabel('Language').selectOption('zh-CN');
    await page.getByRole('heading', { name: '联系我们', level: 1 }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    await page.reload();
    await page.getByRole('heading', { name: '联系我们', level: 1 }).waitFor();
    await page.getByLabel('语言').selectOption('en-US');
    await page.getByRole('heading', { name: 'Contact', level: 1 }).waitFor();

    // The help bubble loads on its own schedule and shows here, not on a product page.
    await page.getByRole('complementary', { name: 'XOSS support' }).waitFor();
    await page.goto(`${base}/product/xossnav`);
    // Waits for what decides it, not for a time: the widget loads, then the page's next
    // show/hide retry (a timer set now fires after the retry set before it) and two frames
    // for React to draw what that retry asked for.
    await page.locator('#xoss-chat').waitFor({ state: 'attached' });
    await page.evaluate(
      (retryMs) =>
        new Promise((drawn) =>
          setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(drawn)), retryMs),
        ),
      CHAT_RETRY_MS,
    );
    expect(await page.getByRole('complementary', { name: 'XOSS support' }).count()).toBe(0);

    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${base}/`);
    await page.getByRole('button', { name: 'Menu' }).waitFor();
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('gives the open phone menu touch targets 24 px tall or more, 8 px apart (WCAG 2.2)', async () => {
    const tab = await browser.newContext({ viewport: { width: 360, height: 800 } });
    try {
      const own = await tab.newPage();
      await own.goto(`${base}/`);
      await own.getByRole('button', { name: 'Menu' }).click();
      const nav = own.getByRole('navigation', { name: 'Main navigation' });
      await nav.getByRole('link', { name: 'Resources' }).waitFor();
      const boxes = (
        await Promise.all(
          (await nav.locator('a, select, button:not([aria-expanded])').all()).map(
            async (target) => ({
              name: (await target.textContent())?.trim() ?? '',
              box: (await target.boundingBox())!,
            }),
          ),
        )
      )
        .filter(({ name }) => name !== 'XOSS')
        .sort((a, b) => a.box.y - b.box.y);
      expect(boxes.map(({ name }) => name)).toEqual(
        expect.arrayContaining(['Products', 'Download', 'Resources', 'Shop', 'Sign Up', 'Log In']),
      );
      for (const { name, box } of boxes) expect(box.height, name).toBeGreaterThanOrEqual(24);
      for (const [index, { name, box }] of boxes.slice(1).entries()) {
        const above = boxes[index]!.box;
        expect(box.y - (above.y + above.height), name).toBeGreaterThanOrEqual(8);
      }
    } finally {
      await tab.close();
    }
  });

  it('names the language a ?lang= link chose in the menu, and English switches back', async () => {
    await page.goto(`${base}/product/contact?lang=de`);
    await page.getByRole('heading', { name: 'Kontakt', level: 1 }).waitFor();
    const menu = page.getByLabel('Sprache');
    expect(await menu.inputValue()).toBe('de');
    await menu.selectOption('en-US');
    await page.getByRole('heading', { name: 'Contact', level: 1 }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en-US');
  });

  it('keeps a session 7 days only when remembered and cookies are not declined, and remembers the e-mail', async () => {
    const tab = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const own = await tab.newPage();
    const signIn = async (remember: boolean) => {
      await own.goto(`${base}/login`);
      await own.getByLabel('E-mail').fill(demo.email);
      await own.getByLabel('Password').fill(demo.password);
      await own.getByRole('checkbox', { name: 'Remember me' }).setChecked(remember);
      await own.getByRole('button', { name: 'Log In' }).click();
      // The login leaves for the portal with a full page load: wait until it has arrived.
      await own.waitForURL(/\/dashboard\/main$/);
      await own.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    };
    const kept = () =>
      own.evaluate<[boolean, boolean]>(
        `[localStorage.getItem('xoss_refresh_token') !== null, sessionStorage.getItem('xoss_refresh_token') !== null]`,
      );
    try {
      // Not remembered: this browser session only; a browser opened later is signed out.
      await signIn(false);
      expect(await kept()).toEqual([false, true]);
      const later = await browser.newContext({ storageState: await tab.storageState() });
      const page2 = await later.newPage();
      await page2.goto(`${base}/dashboard/main`);
      await page2.waitForURL(/\/login\?redirect=/);
      await later.close();
      expect(await own.evaluate(`localStorage.getItem('xoss_remembered_email')`)).toBeNull();
      await own.getByRole('button', { name: /Log Out/ }).click();
      await own.getByRole('link', { name: 'Log In' }).first().waitFor();

      // Remembered: 7 days, and the form starts with the e-mail next time.
      await signIn(true);
      expect(await kept()).toEqual([true, false]);
      await own.getByRole('button', { name: /Log Out/ }).click();
      await own.getByRole('link', { name: 'Log In' }).first().waitFor();
      await own.goto(`${base}/login`);
      expect(await own.getByLabel('E-mail').inputValue()).toBe(demo.email);
      expect(await own.getByRole('checkbox', { name: 'Remember me' }).isChecked()).toBe(true);
      await signIn(true);

      // Declining cookies afterwards: nothing of the rider outlives the browser session.
      await own.goto(`${base}/product/contact`);
      await own.getByRole('button', { name: 'Decline' }).click();
      expect(await kept()).toEqual([false, true]);
      expect(await own.evaluate(`localStorage.getItem('xoss_remembered_email')`)).toBeNull();
      expect(await own.evaluate(`localStorage.getItem('xoss_user_info')`)).toBeNull();
      // Still signed in for now.
      await own.goto(`${base}/dashboard/main`);
      await own.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    } finally {
      await tab.close();
    }
  });

  it('answers a bad article id with the spec message, then likes and comments once signed in', async () => {
    for (const bad of ['abc', '0', '99999999'] as const) {
      await page.goto(`${base}/post/content/${bad}`);
      await page.getByRole('alert').filter({ hasText: 'Article id parameter error' }).waitFor();
    }
    await page.goto(`${base}/post/content`);
    const first = page.getByRole('heading', { level: 2 }).first().getByRole('link');
    const title = (await first.textContent())!;
    await first.click();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Like' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Log in to like and comment.' }).click();
    await page.waitForURL(/\/login\?redirect=/);
    await page.getByLabel('E-mail').fill(demo.email);
    await page.getByLabel('Password').fill(demo.password);
    // Logging in is the agreement: a line says so, and no box has to be ticked first.
    await page
      .getByText('By logging in, you agree to the Terms of Use and the Privacy Policy.')
      .waitFor();
    expect(await page.getByRole('checkbox').count()).toBe(1);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();

    const likes = page.getByText(/^\d+ likes?$/);
    const before = Number((await likes.textContent())!.split(' ')[0]);
    await page.getByRole('button', { name: 'Like' }).click();
    await expect.poll(async () => likes.textContent()).toMatch(new RegExp(`^${before + 1} like`));
    expect(await page.getByRole('button', { name: 'Unlike' }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Please check required fields' }).waitFor();
    await page.getByLabel('Write a comment').fill('Rode this loop on Sunday, lovely climb.');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    // In the list of comments (the text box holds the same words until it is cleared).
    await page
      .locator('#comments li')
      .filter({ hasText: 'Rode this loop on Sunday, lovely climb.' })
      .waitFor();
    await expect.poll(() => page.getByLabel('Write a comment').inputValue()).toBe('');

    // A signed-in rider writes an article.
    await page.goto(`${base}/post/create`);
    await page.getByLabel('Title').fill('Gravel near the bay');
    await page.getByLabel('Text').fill('Fifty kilometres of dust.\n\nBring wide tyres.');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('heading', { name: 'Gravel near the bay', level: 1 }).waitFor();
    await page.getByText('Bring wide tyres.').waitFor();
  });

  it('shows a page that could not load in the frame, and Try again brings it', async () => {
    const chunk = /\/assets\/site\/Posts-[\w-]+\.js$/;
    const offline = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    offline.on('pageerror', (error) => errors.push(error.message));
    await offline.route(chunk, (route) => route.abort('internetdisconnected'));
    await offline.goto(`${base}/post/content`);
    await offline
      .getByRole('alert')
      .filter({ hasText: 'This page could not be loaded. Check your connection and try again.' })
      .waitFor();
    // The frame stays, and another page opens from it.
    await offline
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Products' })
      .click();
    await offline
      .getByRole('heading', { name: 'XOSS — GPS bike computers and sensors', level: 1 })
      .waitFor();
    await offline.goBack();
    await offline.getByRole('alert').waitFor();
    await offline.unroute(chunk);
    await offline.getByRole('button', { name: 'Try again' }).click();
    await offline.getByRole('heading', { name: 'Community', level: 1 }).waitFor();
    expect(errors).toEqual([]);
    await offline.close();
  });

  // Near the end: it gives the demo rider a new password.
  it('resets a forgotten password: the form, the mailed link, a new password, and a login with it', async () => {
    const tab = await browser.newContext({ viewport: { width: 360, height: 800 } });
    const own = await tab.newPage();
    const fits = () =>
      own.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');
    try {
      await own.goto(`${base}/login`);
      await own.getByRole('button', { name: 'Forgot password?' }).click();
      await own.getByLabel("Your account's e-mail").fill(demo.email);
      await own.getByRole('button', { name: 'Send the link' }).click();
      await own
        .getByRole('status')
        .filter({ hasText: /^If an account exists/ })
        .waitFor();
      expect(await fits()).toBe(true);

      // Without SMTP the mail is a file in the data folder's outbox, written after the reply.
      const outbox = join(product.dataDir, 'outbox');
      const written = async () =>
        (await readdir(outbox).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
      await expect.poll(written, { interval: 100 }).toHaveLength(1);
      const mails = await written();
      // Quoted-printable soft breaks and escapes undone.
      const mail = (await readFile(join(outbox, mails.sort().at(-1)!), 'utf8'))
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      const token = /\/login\/reset\?token=([A-Za-z0-9_-]{43})/.exec(mail)?.[1];
      expect(token, 'a reset link in the mail').toBeDefined();

      await own.goto(`${base}/login/reset?token=${token}`);
      await own.getByRole('heading', { name: 'Set a new password', level: 1 }).waitFor();
      expect(await fits()).toBe(true);
      const newPassword = 'reset by mail 2031';
      await own.getByLabel('New password', { exact: true }).fill(newPassword);
      await own.getByLabel('Repeat the new password').fill(newPassword);
      await own.getByRole('button', { name: 'Save the new password' }).click();
      await own
        .getByRole('status')
        .filter({ hasText: /^Your new password is set/ })
        .waitFor();
      await own.getByRole('link', { name: 'Log in with the new password' }).click();
      await own.waitForURL(/\/login$/);

      // The link worked once: opened again, it says so and leads to the form for a new one.
      await own.goto(`${base}/login/reset?token=${token}`);
      await own.getByLabel('New password', { exact: true }).fill('another secret');
      await own.getByLabel('Repeat the new password').fill('another secret');
      await own.getByRole('button', { name: 'Save the new password' }).click();
      await own.getByRole('alert').filter({ hasText: 'no longer valid' }).waitFor();
      await own.getByRole('link', { name: 'Ask for a new link' }).click();
      await own.getByLabel("Your account's e-mail").waitFor();

      // The old password is refused; the new one lets the rider in.
      await own.getByLabel('E-mail', { exact: true }).fill(demo.email);
      await own.getByLabel('Password', { exact: true }).fill(demo.password);
      await own.getByRole('button', { name: 'Log In' }).click();
      await own.getByText('Wrong username or password').waitFor();
      await own.getByLabel('Password', { exact: true }).fill(newPassword);
      await own.getByRole('button', { name: 'Log In' }).click();
      await own.waitForURL(/\/dashboard\/main$/);
    } finally {
      await tab.close();
    }
  });

  it('ran every page with zero CSP violations and no script errors', () => {
    expect(problems).toEqual([]);
  });
});
