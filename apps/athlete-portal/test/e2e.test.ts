// @vitest-environment node
/// <reference types="node" />
import { readFile } from 'node:fs/promises';
import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { simulateRide } from '@xoss/workout-stats';
import { ZipFile } from 'yazl';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startProduct, type RunningProduct } from '../../../tests/product.ts';

// The portal as a rider meets it: the built apps served by the real API on the embedded
// database with the demo data, driven in Debian's Chromium with the production CSP
// enforced. `pnpm test` builds the apps first. Access tokens live a few seconds here, so the
// whole run also rides through many expiries and refreshes, as a long session would.

const ACCESS_TTL_S = 4;

/**
 * A ride page scrolled down past its charts, where the analysis panels, laps and best
 * efforts load (they are not fetched for the first screen).
 */
async function scrollBelowTheCharts(page: Page) {
  await page.getByRole('slider', { name: 'Ride charts' }).waitFor();
  await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
}

describe('athlete portal end to end (Chromium, CSP enforced)', () => {
  let product: RunningProduct;
  let browser: Browser;
  let page: Page;
  let base: string;
  let demo: RunningProduct['demo'];
  const violations: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    product = await startProduct({ ACCESS_TOKEN_TTL_S: String(ACCESS_TTL_S) });
    base = product.base;
    demo = product.demo;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Runs in the page (a string: this package has no DOM types).
    await page.addInitScript({
      content: `document.addEventListener('securitypolicyviolation', (event) => {
        (window.__csp ??= []).push(event.violatedDirective + ' ' + event.blockedURI + ' at ' +
          event.sourceFile + ':' + event.lineNumber + ':' + event.columnNumber);
      });`,
    });
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
        violations.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await product?.close();
  });

  const cspReports = () => page.evaluate<string[]>('window.__csp ?? []');

  it('sends a visitor to /login, logs in through the form, and returns where they were going', async () => {
    await page.goto(`${base}/dashboard/workouts/list`);
    await page.waitForURL(/\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard/workouts/list');
    await page.getByLabel('E-mail').fill(demo.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Wrong username or password').waitFor();
    // Spec 5: the password is trimmed before login.
    await page.getByLabel('Password').fill(`  ${demo.password} `);
    // Remembered: the tokens stay 7 days (the refresh steps below edit them there).
    await page.getByRole('checkbox', { name: 'Remember me' }).check();
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/dashboard\/workouts\/list$/);
    await page.getByText('30 workouts').waitFor();
  });

  it('shows the dashboard, the workouts, a ride with map and charts, curves and zones', async () => {
    await page.goto(`${base}/dashboard/main`);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Recent workouts' }).waitFor();

    await page.goto(`${base}/dashboard/workouts/list`);
    await page.getByText('30 workouts').waitFor();
    // The latest demo ride is the ten-hour audax.
    const first = page.getByRole('rowheader').first().getByRole('link');
    const name = await first.textContent();
    expect(name).toMatch(/^Ten-hour audax/);
    await first.click();
    await page.getByRole('heading', { name: name!, level: 1 }).waitFor();
    await page.locator('.xoss-map__canvas canvas.xoss-map__track').waitFor();
    await page.getByRole('slider', { name: 'Ride charts' }).waitFor();
    expect(await page.locator('.xoss-streams__panel').count()).toBeGreaterThanOrEqual(4);
    await expect.poll(() => page.title()).toBe('XOSS — GPS bike computers and sensors');
    // The audax holds every best effort (power 5 s-60 min, 10-40 km), each with its ranks.
    await scrollBelowTheCharts(page);
    const rideBests = page.getByRole('table', { name: 'Best efforts of this ride' });
    await rideBests.waitFor();
    expect(await rideBests.getByRole('row').count()).toBe(9);

    // Drag across the speed chart: the statistics switch to the selected range.
    const hit = page.locator('.xoss-streams__hit').first();
    await hit.scrollIntoViewIfNeeded();
    const drag = async (from: number, to: number) => {
      const box = (await hit.boundingBox())!;
      await page.mouse.move(box.x + box.width * from, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * to, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
    };
    // The first figure of the statistics is the time of the range.
    const movingTime = () =>
      page.locator('section[aria-labelledby="range-stats"] dd').first().textContent();
    const whole = await movingTime();
    expect(whole).toMatch(/^(9:59:5\d|10:00:0\d)$/);
    await drag(0.2, 0.6);
    await page.getByRole('heading', { name: 'Statistics of the selected range' }).waitFor();
    const zoomed = await movingTime();
    expect(zoomed).not.toBe(whole);
    // A second zoom inside the first, then Undo zoom goes back to the first range.
    await drag(0.3, 0.5);
    await expect.poll(movingTime).not.toBe(zoomed);
    await page.getByRole('button', { name: 'Undo zoom' }).click();
    await expect.poll(movingTime).toBe(zoomed);
    await page.getByRole('button', { name: 'Reset zoom' }).click();
    await page.getByRole('heading', { name: 'Statistics of the whole ride' }).waitFor();
    expect(await movingTime()).toBe(whole);

    await page.getByRole('link', { name: 'Power curve' }).click();
    await page.getByRole('img', { name: /Power curve/ }).waitFor();
    // Compared with the last 6 weeks by default; this year on request.
    const legend = page.locator('.xoss-curve__legend').first();
    await legend.getByText('Last 6 weeks').waitFor();
    // The ride's own curve is named as such, and the past years offered are the ridden ones.
    await legend.getByText('This ride').first().waitFor();
    const options = await page.getByLabel('Compare with').locator('option').all();
    const years = await Promise.all(
      options.map(async (option) => (await option.getAttribute('value')) ?? ''),
    );
    const thisYear = new Date().getUTCFullYear();
    for (const value of years.filter((option) => option.startsWith('year:')))
      expect(Number(value.slice(5))).toBeLessThan(thisYear);
    // The curves come at log-spaced durations; pointing anywhere shows the exact values
    // there, fetched for that duration (`at=`).
    const asked: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (/\/power-curve\/\?.*\bat=\d+/.test(request.url())) asked.push(request.url());
    };
    page.on('request', onRequest);
    const chart = page.locator('.xoss-curve svg[role="img"] rect[fill="transparent"]').first();
    const chartBox = (await chart.boundingBox())!;
    await page.mouse.move(chartBox.x + chartBox.width * 0.77, chartBox.y + chartBox.height / 2);
    await legend.locator('output').first().waitFor();
    expect(await legend.locator('output').first().textContent()).toMatch(/\d\sW @ \d/);
    page.off('request', onRequest);
    expect(asked.length).toBeGreaterThanOrEqual(1);
    await page.getByLabel('Compare with').selectOption('currentYear');
    await legend.getByText('This year').waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'Summary' }).click();
    await page.getByRole('table', { name: 'Heart rate zones' }).waitFor();
    // Spec 2: the workout summary page keeps its own title.
    await expect.poll(() => page.title()).toBe(`${name} · XOSS`);
  });

  it('shows the training log, the fitness chart and the personal bests from the dashboard', async () => {
    await page.goto(`${base}/dashboard/main`);
    await page.getByRole('link', { name: 'Training log' }).click();
    const month = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date());
    const calendar = page.getByRole('table', { name: month });
    await calendar.waitFor();
    // A header row and six weeks, each ending with its totals.
    expect(await calendar.getByRole('row').count()).toBe(7);
    await page.getByLabel('View').first().selectOption('week');
    await expect.poll(() => page.locator('.xoss-calendar tbody tr').count()).toBe(1);
    await page.getByRole('heading', { name: /^Totals of \d{4}$/ }).waitFor();

    await page.getByRole('link', { name: 'Fitness, fatigue and form' }).first().click();
    await page.getByRole('img', { name: 'Fitness, fatigue and form' }).waitFor();
    await page.getByLabel('Period').selectOption('all');
    await page.getByText('Fitness (CTL)').first().waitFor();

    await page.getByRole('link', { name: 'Personal bests' }).first().click();
    const bests = page.getByRole('table', { name: 'Personal bests · Cycling · All time' });
    await bests.waitFor();
    // The demo rides hold power and distance: every effort up to 20 km has a best ride.
    const fiveSeconds = bests.getByRole('row', { name: /Best average power 5 s/ });
    expect(await fiveSeconds.getByRole('link').count()).toBe(3);
    await page.getByRole('heading', { name: 'FTP estimate' }).waitFor();
  });

  it('going back to a ride draws it from the cache: its streams are fetched once', async () => {
    await page.goto(`${base}/dashboard/workouts/list`);
    await page.getByText('30 workouts').waitFor();
    const links = page.getByRole('rowheader').getByRole('link');
    const rides = [
      (await links.nth(1).getAttribute('href'))!,
      (await links.nth(2).getAttribute('href'))!,
    ];
    const streams: string[] = [];
    // Answered streams only: a call refused for an expired token (4 s here) and retried
    // after the refresh is one fetch, not a miss of the cache.
    const onRequest = (response: { url(): string; status(): number }) => {
      if (response.status() === 200 && /\/api\/v2\/workouts\/\d+\/streams\//.test(response.url()))
        streams.push(response.url());
    };
    page.on('response', onRequest);
    const open = async (href: string) => {
      await page.getByText('30 workouts').waitFor();
      await page.locator(`a[href="${href}"]`).click();
      await page.waitForURL((url) => url.pathname === href);
      await page.getByRole('slider', { name: 'Ride charts' }).waitFor();
    };
    await open(rides[0]!);
    await page.goBack();
    await open(rides[1]!);
    await page.goBack();
    await open(rides[0]!);
    page.off('response', onRequest);
    // Each call once (the W' balance, asked apart when the page is scrolled to it, is a call
    // of its own): the second visit of the first ride came from the cache.
    expect(new Set(streams).size).toBe(streams.length);
    expect([...new Set(streams.map((url) => new URL(url).pathname))].sort()).toEqual(
      rides.map((href) => `/api/v2/workouts/${href.split('/').at(-1)}/streams/`).sort(),
    );
  });

  it('shares a ride: the link opens the ride for a visitor, and stops when sharing is off', async () => {
    await page.goto(`${base}/dashboard/workouts/list`);
    const first = page.getByRole('rowheader').first().getByRole('link');
    const name = (await first.textContent())!;
    await first.click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    // The switch follows the saved state, so it turns once the server has answered.
    const toggle = page.getByRole('checkbox', { name: 'Share link on' });
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    const field = page.getByLabel(/^Share link: anyone/);
    await field.waitFor();
    const link = await field.inputValue();
    // The link names the share only, not the ride's internal id.
    expect(link).toMatch(/\/dashboard\/workouts\/share\/ride\?share=[\w-]{16,}$/);

    const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const view = await visitor.newPage();
    view.on('pageerror', (error) => pageErrors.push(error.message));
    await view.goto(link);
    await view.getByRole('heading', { name, level: 1 }).waitFor();
    await view.getByRole('slider', { name: 'Ride charts' }).waitFor();
    expect(new URL(view.url()).pathname).not.toBe('/login');
    expect(await view.getByRole('checkbox', { name: 'Share link on' }).count()).toBe(0);
    // Who rode it, and what the map leaves out; nothing of the account.
    await view.getByText(/^Demo Rider · /).waitFor();
    await view
      .getByText(/^For privacy, the first and last 0\.30\skm of the track are not shown\.$/)
      .waitFor();
    expect(await view.content()).not.toContain(demo.email);
    // A chat app that fetches the link finds a preview card and its picture.
    const html = await (await fetch(link)).text();
    expect(html).toContain(`<meta property="og:title" content="${name}">`);
    const image = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1];
    expect(image).toMatch(/\/api\/v2\/share\/workouts\/[\w-]+\/preview\.png$/);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    const picture = await fetch(image!);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await picture.arrayBuffer()).subarray(0, 4)]).toEqual([
      0x89, 0x50, 0x4e, 0x47,
    ]);
    // The owner chooses what the link shows: without power, the visitor's charts lose it.
    const showPower = page.getByRole('checkbox', { name: 'Show power on the shared page' });
    await showPower.click();
    await expect.poll(() => showPower.isChecked()).toBe(false);
    await view.reload();
    await view.getByRole('slider', { name: 'Ride charts' }).waitFor();
    const shared = (await (
      await fetch(
        link.replace(/\/dashboard\/workouts\/share\/ride\?share=/, '/api/v2/share/workouts/') +
          '/streams/?points=50',
      )
    ).json()) as { data: { streams: Record<string, unknown> } };
    expect(Object.keys(shared.data.streams)).not.toContain('power');
    // Without the share id, the same page is the owner's: a visitor goes to /login.
    await view.goto(link.replace(/\?share=.*$/, ''));
    await view.waitForURL(/\/login\?redirect=/);

    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await expect.poll(() => field.count()).toBe(0);
    await view.goto(link);
    // A stopped link has a page of its own for the visitor: why, and the way home, not /login.
    const gone = view.getByRole('region', { name: "This shared ride isn't available" });
    await gone
      .getByText("The link doesn't exist, or the rider has stopped sharing this ride.")
      .waitFor();
    expect(
      await gone.getByRole('link', { name: 'Go to the XOSS home page' }).getAttribute('href'),
    ).toBe('/');
    expect(new URL(view.url()).pathname).toBe('/dashboard/workouts/share/ride');
    await visitor.close();
  });

  it('removes a device after Confirm, with the spec message, and saves settings', async () => {
    await page.goto(`${base}/dashboard/device/list`);
    const manage = page.getByRole('link', { name: /^Manage/ });
    await manage.first().waitFor();
    const before = await manage.count();
    await manage.last().click();
    await page.getByRole('button', { name: 'Remove device' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Device removed successfully').waitFor();
    await page.waitForURL(/\/dashboard\/device\/list$/);
    await expect.poll(() => page.getByRole('link', { name: /^Manage/ }).count()).toBe(before - 1);

    await page.goto(`${base}/dashboard/settings`);
    const ftp = page.getByLabel('FTP (W)');
    await ftp.waitFor();
    const ftpBefore = await ftp.inputValue();
    const patches: string[] = [];
    const onPatch = (request: { method(): string; url(): string }) => {
      if (request.method() === 'PATCH') patches.push(request.url());
    };
    // Saves that landed: a PATCH refused with 401 because the access token expired meanwhile
    // (it lives 4 s here) is sent again after the refresh, and is one save.
    const saved: string[] = [];
    const onSaved = (response: {
      ok(): boolean;
      url(): string;
      request(): { method(): string };
    }) => {
      if (response.request().method() === 'PATCH' && response.ok()) saved.push(response.url());
    };
    page.on('request', onPatch);
    page.on('response', onSaved);
    // A number the API would refuse is named under its field, and nothing is sent.
    await ftp.fill('abc');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .locator('.portal__field-problem')
      .getByText(/^FTP \(W\): enter a number from \d+ to \d+\.$/)
      .waitFor();
    expect(await ftp.getAttribute('aria-invalid')).toBe('true');
    expect(patches).toEqual([]);
    // Corrected, the save goes through: the status line under the form, the field message gone.
    await ftp.fill(ftpBefore);
    await page.getByRole('radio', { name: 'Miles' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('form').getByRole('status').getByText('Save Successfully').waitFor();
    page.off('request', onPatch);
    page.off('response', onSaved);
    expect(saved).toHaveLength(1);
    expect(patches.every((url) => url === saved[0])).toBe(true);
    expect(await page.locator('.portal__field-problem').count()).toBe(0);
    expect(await ftp.getAttribute('aria-invalid')).toBeNull();
    await page.goto(`${base}/dashboard/workouts/list`);
    await page
      .getByText(/\d\smi$/)
      .first()
      .waitFor();
  });

  it('edits data pages: add, change a field, hit the device limit, delete after Confirm, save', async () => {
    await page.goto(`${base}/dashboard/device/list`);
    // The NAV+ row: pages are free on it, up to 6.
    await page.getByRole('link', { name: /^Manage: NAV\+/ }).click();
    await page.getByRole('link', { name: 'Data pages' }).click();
    await page.waitForURL(/\/dashboard\/device\/list\/manager\?device=\d+$/);
    const pages = page.locator('.portal__pages li');
    await pages.first().waitFor();
    const before = await pages.count();
    await page.getByRole('button', { name: 'Add page' }).click();
    await expect.poll(() => pages.count()).toBe(before + 1);
    // The new page is selected: pick its second slot and put Power there.
    const preview = page.getByRole('group', { name: /screen, page/ });
    await preview.getByRole('button').nth(1).click();
    await page.getByRole('button', { name: 'Power', exact: true }).click();
    await expect
      .poll(() => preview.getByRole('button').nth(1).getAttribute('aria-label'))
      .toBe('2: Power');
    for (let count = before + 1; count < 6; count++)
      await page.getByRole('button', { name: 'Add page' }).click();
    await page.getByRole('button', { name: 'Add page' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /at most 6 pages/i })
      .waitFor();
    expect(await pages.count()).toBe(6);
    await page.getByRole('button', { name: 'Delete page' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => pages.count()).toBe(5);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Save Successfully').waitFor();
    await page.reload();
    await expect.poll(() => pages.count()).toBe(5);

    // The field step: sizes, and Next walks the slots.
    await preview.getByRole('button').first().click();
    await page.getByRole('group', { name: 'Field size' }).waitFor();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect
      .poll(() => preview.getByRole('button').nth(1).getAttribute('aria-pressed'))
      .toBe('true');
    // An unsaved change asks before the page is left; Cancel stays, Confirm leaves.
    await page.getByRole('button', { name: 'Cadence', exact: true }).click();
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    const leave = page.getByRole('dialog').filter({ hasText: 'Leave without saving?' });
    await leave.getByRole('button', { name: 'Cancel' }).click();
    expect(new URL(page.url()).pathname).toBe('/dashboard/device/list/manager');
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await leave.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/\/dashboard\/main$/);

    // A device with fixed pages (G 2nd gen) offers no Add or Delete.
    const login = await fetch(`${base}/api/v1/jwt-token/`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ email: demo.email, password: demo.password }),
    });
    const { access } = ((await login.json()) as { data: { access: string } }).data;
    const added = await fetch(`${base}/api/v2/devices/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
      body: JSON.stringify({ serial: 'G2XX2026001', model: 'G2' }),
    });
    expect(added.status).toBe(201);
    await page.goto(`${base}/dashboard/device/list`);
    await page.getByRole('link', { name: /^Manage: G2 / }).click();
    await page.getByRole('link', { name: 'Data pages' }).click();
    await page.getByText('This device has 3 fixed pages').waitFor();
    expect(await page.getByRole('button', { name: 'Add page' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete page' }).count()).toBe(0);
  });

  it("exports a device's data pages as panels.json from the developer page", async () => {
    await page.goto(`${base}/developer/mydevices/`);
    await page.getByRole('heading', { name: 'Developer: my devices' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /^Export panels\.json: NAV\+/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('panels.json');
    const stream = await download.createReadStream();
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    const panels = JSON.parse(text) as { pages: unknown[] };
    // The 5 pages saved by the layout test above.
    expect(panels.pages).toHaveLength(5);
  });

  it("shows a page that could not load in the shell's place for it, and Try again brings it", async () => {
    // The developer page's chunk does not arrive (offline, or an older deployment's file).
    const chunk = /\/assets\/portal\/Developer-[\w-]+\.js$/;
    await page.route(chunk, (route) => route.abort('internetdisconnected'));
    await page.goto(`${base}/developer/mydevices/`);
    await page
      .getByRole('alert')
      .filter({ hasText: 'This page could not be loaded. Check your connection and try again.' })
      .waitFor();
    // The shell stays: navigation works.
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).count()).toBe(1);
    await page.unroute(chunk);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Developer: my devices' }).waitFor();
    // The failed import is no script error of ours: the page's error element took it.
    pageErrors.length = 0;
  });

  it('runs embedded in the app: no site chrome, language and units from the app, panels.json over the bridge', async () => {
    // The app's side: it logs in itself and hands the tokens over in its hello.
    const api = async <T>(path: string, init: RequestInit = {}) => {
      const reply = await fetch(`${base}${path}`, {
        ...init,
        headers: { 'content-type': 'application/json', ...init.headers },
      });
      return ((await reply.json()) as { data: T }).data;
    };
    const tokens = await api<{ access: string; refresh: string }>('/api/v1/jwt-token/', {
      method: 'POST',
      body: JSON.stringify({ email: demo.email, password: demo.password }),
    });
    const auth = { authorization: `Bearer ${tokens.access}` };
    const devices = await api<{ results: { id: number; serial: string; model: string }[] }>(
      '/api/v2/devices/',
      { headers: auth },
    );
    const nav = devices.results.find((device) => device.model === 'NAV+')!;
    const onServer = await api<{ pages: { index: number }[] }>(
      `/api/v2/devices/${nav.id}/layout/`,
      { headers: auth },
    );
    // The device itself (as the app reads it over Bluetooth) has 2 pages.
    const onDevice = { ...onServer, pages_count: 2, pages: onServer.pages.slice(0, 2) };

    // A simulated host: a fresh web view with the app's injected bridge object.
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const view = await context.newPage();
    view.on('pageerror', (error) => pageErrors.push(error.message));
    const received: { type: string; serial?: string; panels?: unknown }[] = [];
    // The app runs `window.postMessage(text, '*')` in the page, as a native web view does.
    const toPortal = (message: object) =>
      view.evaluate(
        `window.postMessage(${JSON.stringify(JSON.stringify({ source: 'xoss-app', ...message }))}, '*')`,
      );
    await view.exposeFunction('__xossHost', async (text: string) => {
      const message = JSON.parse(text) as (typeof received)[number];
      received.push(message);
      if (message.type === 'ready')
        await toPortal({ type: 'hello', language: 'de', distanceUnit: 1, ...tokens });
      if (message.type === 'request-panels' && message.serial === nav.serial)
        await toPortal({ type: 'panels', serial: nav.serial, panels: onDevice });
      if (message.type === 'save-panels')
        await toPortal({ type: 'panels-saved', serial: message.serial, ok: true });
    });
    await view.addInitScript({
      content: `window.XossAppBridge = { postMessage: (text) => window.__xossHost(text) };`,
    });

    await view.goto(`${base}/dashboard/main?inXossApp=1`);
    // German and miles from the app's hello, the session from its tokens: no login page.
    await view.getByRole('heading', { name: 'Letzte Trainings' }).waitFor();
    expect(await view.getAttribute('html', 'lang')).toBe('de');
    expect(await view.getByRole('navigation').count()).toBe(0);
    expect(await view.getByRole('contentinfo').count()).toBe(0);
    await view
      .getByText(/\d\smi$/)
      .first()
      .waitFor();

    // trigger-change-language: the app switches the portal to English while it runs.
    await toPortal({ type: 'language', language: 'en-US' });
    await view.getByRole('heading', { name: 'Recent workouts' }).waitFor();

    // switch-data: the app opens the layout manager of the device it is connected to,
    // which edits the pages the app read from the device, not the account's copy.
    await toPortal({ type: 'switch-data', serial: nav.serial });
    await view.waitForURL(/\/dashboard\/device\/list\/manager\?serial=/);
    const pages = view.locator('.portal__pages li');
    await expect.poll(() => pages.count()).toBe(2);
    await view.getByRole('button', { name: 'Add page' }).click();
    await expect.poll(() => pages.count()).toBe(3);
    await view.getByRole('button', { name: 'Save' }).click();
    await view.getByText('Save Successfully').waitFor();
    const saved = received.find((message) => message.type === 'save-panels');
    // The app sent an object, so it gets an object back (bridge format).
    expect(saved).toMatchObject({ serial: nav.serial, panels: { pages_count: 3 } });
    expect((saved!.panels as { pages: unknown[] }).pages).toHaveLength(3);

    // A reload of the web view stays embedded, with the device's pages kept for the tab.
    await view.reload();
    await expect.poll(() => pages.count()).toBe(2);
    expect(await view.getByRole('navigation').count()).toBe(0);
    await context.close();
  });

  it('uploads a GPX route: preview on the map, required title, SUCCESS, listed', async () => {
    const points = Array.from(
      { length: 50 },
      (_, index) =>
        `<trkpt lat="${(47.37 + index * 0.001).toFixed(5)}" lon="${(8.54 + index * 0.0015).toFixed(5)}"><ele>${400 + index}</ele></trkpt>`,
    ).join('');
    const gpx = `<?xml version="1.0"?><gpx version="1.1" creator="e2e" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Lake loop</name><trkseg>${points}</trkseg></trk></gpx>`;
    await page.goto(`${base}/upload`);
    await page.waitForURL(/\/upload\/gpxFile$/);
    // Bad files first: each gets its reason, and nothing is uploaded.
    const input = page.locator('input[type=file]');
    await input.setInputFiles({
      name: 'empty.gpx',
      mimeType: 'application/gpx+xml',
      buffer: Buffer.from(
        '<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg></trkseg></trk></gpx>',
      ),
    });
    await page.getByText('The file has no track or route points.').waitFor();
    await input.setInputFiles({
      name: 'broken.gpx',
      mimeType: 'application/gpx+xml',
      buffer: Buffer.from('<gpx><trk><trkseg><trkpt lat="47" lon="8"></trkseg></gpx>'),
    });
    await page.getByText('A closing tag does not match its opening tag.').waitFor();
    // Upload with that file still says why it was refused, not "check required fields".
    await page.getByLabel('Title').fill('Broken');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('A closing tag does not match its opening tag.').waitFor();
    expect(await page.getByText('Please check required fields').count()).toBe(0);
    await page.locator('input[type=file]').setInputFiles({
      name: 'lake.gpx',
      mimeType: 'application/gpx+xml',
      buffer: Buffer.from(gpx),
    });
    await page.locator('.xoss-map__canvas canvas.xoss-map__track').waitFor();
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('Lake loop');
    await page.getByLabel('Title').fill('');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Please check required fields').waitFor();
    await page.getByLabel('Title').fill('Lake loop, evening');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('heading', { name: 'SUCCESS' }).waitFor();
    await page.getByText('Open the XOSS app to see the routebook.').waitFor();
    await page.getByText('Lake loop, evening').waitFor();
  });

  it('imports a .FIT file with upload progress, then lists it', async () => {
    const ride = simulateRide({ seconds: 4 * 3600, seed: 77 });
    const fit = encodeFit(activityFromStreams(ride, { startTime: 1_700_000_000, sport: 2 }));
    await page.goto(`${base}/dashboard/workouts/list`);
    await page.getByText('30 workouts').waitFor();
    // A slow uplink (about 2 s for this file), so the progress is there to see.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: fit.byteLength / 2,
    });
    await page.locator('input[type=file]').setInputFiles({
      name: 'long-ride.fit',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(fit),
    });
    const progress = page.getByRole('progressbar', { name: /^Uploading long-ride\.fit/ });
    await progress.waitFor();
    await expect.poll(async () => Number(await progress.getAttribute('value'))).toBeGreaterThan(0);
    await page.getByText('31 workouts').waitFor();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();

    // A file cut short (the battery died): imported up to the cut, and the ride page says so,
    // with the three times a rider knows from the device and the FTP its figures used.
    const cutRide = simulateRide({ seconds: 3 * 3600, seed: 78 });
    const whole = encodeFit(
      activityFromStreams(cutRide, { startTime: 1_893_456_000, sport: 2 }), // 2030-01-01
    );
    await page.locator('input[type=file]').setInputFiles({
      name: 'battery-died.fit',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(whole.subarray(0, Math.floor(whole.length * 0.6))),
    });
    await page.getByText('32 workouts').waitFor();
    // The whole file after the cut one: said plainly, with the ride it starts like, and the
    // rider's choice to import it beside it (not taken here: the list keeps 32).
    await page.locator('input[type=file]').setInputFiles({
      name: 'battery-died-whole.fit',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(whole),
    });
    const overlap = page
      .getByRole('list', { name: 'Import results' })
      .getByRole('listitem')
      .filter({ hasText: 'battery-died-whole.fit · Starts like a ride you have' });
    await overlap.waitFor();
    await overlap.getByRole('button', { name: 'Import anyway' }).waitFor();
    await overlap.getByRole('link', { name: 'Open the ride' }).waitFor();
    await page.getByText('32 workouts').waitFor();
    await page.getByRole('link', { name: 'Ride 2030-01-01' }).click();
    await page.getByRole('heading', { name: 'Ride 2030-01-01', level: 1 }).waitFor();
    await page
      .getByText(/^This file ended early: 1:4\d:\d\d of the ride could be read\.$/)
      .waitFor();
    await page.getByText(/^IF, TSS and zones use FTP \d+\sW \(from your settings\)/).waitFor();
    const stats = page.locator('section[aria-labelledby="range-stats"]');
    for (const label of ['Time', 'Moving time', 'Elapsed time'])
      await stats.getByText(label, { exact: true }).waitFor();
  });

  it('manages rides: several files in one import with a result each, the same file twice taken to its ride, edit, download, delete; filters survive a reload', async () => {
    const ride = simulateRide({ seconds: 1800, seed: 91, intensity: 0.65, hilliness: 0.2 });
    const fit = Buffer.from(
      encodeFit(activityFromStreams(ride, { startTime: 1_767_254_400, sport: 2 })), // 2026-01-01
    );
    await page.goto(`${base}/dashboard/workouts/list`);
    await page.getByText('32 workouts').waitFor();
    await page.locator('input[type=file]').setInputFiles([
      { name: 'new-year.fit', mimeType: 'application/octet-stream', buffer: fit },
      { name: 'new-year copy.fit', mimeType: 'application/octet-stream', buffer: fit },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a ride') },
    ]);
    const results = page.getByRole('list', { name: 'Import results' });
    await results.getByText(/^new-year\.fit · Imported/).waitFor();
    await results.getByText(/^new-year copy\.fit · Already imported/).waitFor();
    const refused = results.getByText(/^notes\.txt · Not imported: /);
    await refused.waitFor();
    // The reason once, not wrapped in the same sentence again.
    expect(await refused.textContent()).not.toMatch(/cannot be read.*cannot be read/i);
    await page.getByText('33 workouts').waitFor();
    // The copy leads to the ride that holds the file.
    await results.getByRole('listitem').nth(1).getByRole('link', { name: 'Open the ride' }).click();
    await page.getByRole('heading', { name: 'Ride 2026-01-01', level: 1 }).waitFor();
    // The device's laps, with its figures (this file has one).
    await scrollBelowTheCharts(page);
    await page.getByRole('table', { name: '1 lap' }).waitFor();

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Name').fill('New year loop');
    await page.getByLabel('Sport').selectOption({ label: 'Running' });
    await page.getByLabel('Notes').fill('Cold, first ride of the year.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'New year loop', level: 1 }).waitFor();
    await page.getByText('Cold, first ride of the year.').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the original file (FIT)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('New year loop.fit');
    const saved = await readFile(await download.path());
    expect(saved.equals(fit)).toBe(true);

    // Filters and page live in the address: a reload keeps them.
    await page.goto(`${base}/dashboard/workouts/list`);
    await page.getByLabel('Sport').selectOption({ label: 'Running' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('1 workout', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('sport')).toBe('1');
    await page.reload();
    await page.getByText('1 workout', { exact: true }).waitFor();
    expect(await page.getByLabel('Sport').inputValue()).toBe('1');
    await page.getByRole('link', { name: 'New year loop' }).click();
    await page.getByRole('button', { name: 'Delete workout' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/\/dashboard\/workouts\/list$/);
    await page.getByText('32 workouts').waitFor();

    await page.getByLabel('From').fill('2026-03-01');
    await page.getByLabel('To').fill('2026-02-01');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('The From date is after the To date.').waitFor();
    await page.getByLabel('Sport').selectOption({ label: 'Swimming' });
    await page.getByLabel('From').fill('');
    await page.getByLabel('To').fill('');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No workouts match these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText('32 workouts').waitFor();

    // Settings out of bounds are refused in the page's words before anything is sent.
    await page.goto(`${base}/dashboard/settings`);
    await page.getByLabel('FTP (W)').fill('0');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('FTP (W): enter a number from 50 to 700.').waitFor();
  });

  it('refreshes an expired token once for all waiting calls and keeps the rider in; a refused refresh goes to /login', async () => {
    const refreshes: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (request.url().includes('/api/v1/jwt-token/refresh/')) refreshes.push(request.url());
    };
    page.on('request', onRequest);
    await page.goto(`${base}/dashboard/workouts/list`);
    await page.getByText('32 workouts').waitFor();
    // Nothing in flight, so no call refreshes the token while it runs out.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(ACCESS_TTL_S * 1000 + 500);
    refreshes.length = 0;
    // The dashboard asks for workouts and devices at once, all with the expired token.
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.getByRole('heading', { name: 'Recent workouts' }).waitFor();
    await page.getByRole('heading', { name: 'Devices', level: 2 }).waitFor();
    // The headings come before the data: wait until every call has answered.
    await expect.poll(() => refreshes.length).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    await page.getByRole('link', { name: 'NAV+' }).first().waitFor();
    expect(refreshes).toHaveLength(1);
    expect(new URL(page.url()).pathname).toBe('/dashboard/main');

    // The answer to a refresh is lost on the way back (the server has rotated the token, the
    // page never hears of it): the client tries again with the token it still holds, gets the
    // same new pair, and the rider stays in.
    let lost = 0;
    await page.route(
      '**/api/v1/jwt-token/refresh/',
      async (route) => {
        await route.fetch();
        lost += 1;
        await route.abort('connectionreset');
      },
      { times: 1 },
    );
    await page.waitForTimeout(ACCESS_TTL_S * 1000 + 500);
    refreshes.length = 0;
    await page.goto(`${base}/dashboard/workouts/list`);
    await page.getByText('32 workouts').waitFor();
    expect(lost).toBe(1);
    expect(refreshes.length).toBeGreaterThanOrEqual(2);
    expect(new URL(page.url()).pathname).toBe('/dashboard/workouts/list');

    // The refresh token goes bad (revoked elsewhere): the next expiry ends the session.
    await page.evaluate(`localStorage.setItem('xoss_refresh_token',
      JSON.stringify({ v: 'revoked', e: Date.now() + 3600000 }))`);
    await page.waitForTimeout(ACCESS_TTL_S * 1000 + 500);
    // Settings asks for the profile, not cached in this page yet.
    await page.getByRole('link', { name: 'Settings', exact: true }).first().click();
    // The server's word stays up for its second (spec 8) before the page leaves.
    await page.getByRole('alert').getByText('Your session has ended (Token expired)').waitFor();
    await page.waitForURL(/\/login/);
    // The login brings the rider back to the page they were on.
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard/settings');
    expect(await page.evaluate(`localStorage.getItem('xoss_token')`)).toBeNull();
    page.off('request', onRequest);
  });

  it('ends an expired session on Settings once: the message, /login back to the page, and the unsaved edit offered again', async () => {
    const logIn = async () => {
      await page.getByLabel('E-mail').fill(demo.email);
      await page.getByLabel('Password').fill(demo.password);
      await page.getByRole('checkbox', { name: 'Remember me' }).check();
      await page.getByRole('button', { name: 'Log In' }).click();
    };
    await page.goto(`${base}/login?redirect=%2Fdashboard%2Fsettings`);
    await logIn();
    await page.waitForURL(/\/dashboard\/settings$/);
    const ftp = page.getByLabel('FTP (W)');
    await ftp.waitFor();
    const edited = String(Number((await ftp.inputValue()) || 250) + 17);

    // Every refused answer, by request kind, from here to the login page.
    const refused = new Map<string, number>();
    const onResponse = (response: {
      status(): number;
      url(): string;
      request(): { method(): string };
    }) => {
      if (response.status() !== 401) return;
      const kind = `${response.request().method()} ${new URL(response.url()).pathname}`;
      refused.set(kind, (refused.get(kind) ?? 0) + 1);
    };
    page.on('response', onResponse);
    // The refresh token goes bad and the access token expires while the rider edits.
    await page.evaluate(`localStorage.setItem('xoss_refresh_token',
      JSON.stringify({ v: 'revoked', e: Date.now() + 3600000 }))`);
    await ftp.fill(edited);
    await page.waitForTimeout(ACCESS_TTL_S * 1000 + 500);
    await page.getByRole('button', { name: 'Save' }).first().click();
    // The server's word in the portal's frame, up for its second before the page leaves.
    await page.getByRole('alert').getByText('Your session has ended (Token expired)').waitFor();
    await page.waitForURL(/\/login\?/);
    page.off('response', onResponse);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard/settings');
    // One refused save, one refused refresh, and nothing sent after it (the page's queries
    // subscribing again did not reach the server, let alone in a loop).
    expect(Math.max(...refused.values())).toBe(1);
    expect([...refused.keys()].sort()).toEqual([
      expect.stringMatching(/^PATCH \/api\/v2\/athlete\/\d+\/$/),
      'POST /api/v1/jwt-token/refresh/',
    ]);

    await logIn();
    await page.waitForURL(/\/dashboard\/settings$/);
    await page.getByText('Restore your unsaved changes?').waitFor();
    await ftp.waitFor();
    expect(await ftp.inputValue()).not.toBe(edited);
    await page.getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => ftp.inputValue()).toBe(edited);
    expect(await page.getByText('Restore your unsaved changes?').count()).toBe(0);
  });

  it('ends an expired session in the data-page editor: after the login the new page is offered again', async () => {
    const logIn = async () => {
      await page.getByLabel('E-mail').fill(demo.email);
      await page.getByLabel('Password').fill(demo.password);
      await page.getByRole('checkbox', { name: 'Remember me' }).check();
      await page.getByRole('button', { name: 'Log In' }).click();
    };
    await page.goto(`${base}/dashboard/device/list`);
    await page.getByRole('link', { name: /^Manage: NAV\+/ }).click();
    await page.getByRole('link', { name: 'Data pages' }).click();
    await page.waitForURL(/\/dashboard\/device\/list\/manager\?device=\d+$/);
    const editor = page.url();
    const pages = page.locator('.portal__pages li');
    await pages.first().waitFor();
    const before = await pages.count();
    await page.getByRole('button', { name: 'Add page' }).click();
    await expect.poll(() => pages.count()).toBe(before + 1);
    // The session ends while the rider edits: the save is refused, the login comes, and the
    // browser does not ask whether to leave (the pages are kept).
    await page.evaluate(`localStorage.setItem('xoss_refresh_token',
      JSON.stringify({ v: 'revoked', e: Date.now() + 3600000 }))`);
    await page.waitForTimeout(ACCESS_TTL_S * 1000 + 500);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/login\?/);
    await logIn();
    await page.waitForURL(editor);
    await page.getByText('Restore your unsaved changes?').waitFor();
    expect(await pages.count()).toBe(before);
    await page.getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => pages.count()).toBe(before + 1);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Save Successfully').waitFor();
  });

  it('keeps a sign-in without "Remember me" for the browser: a new tab and a pasted link open signed in, nothing on disk', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const first = await context.newPage();
      first.on('pageerror', (error) => pageErrors.push(error.message));
      await first.goto(`${base}/login?redirect=%2Fdashboard%2Fworkouts%2Flist`);
      await first.getByLabel('E-mail').fill(demo.email);
      await first.getByLabel('Password').fill(demo.password);
      expect(await first.getByRole('checkbox', { name: 'Remember me' }).isChecked()).toBe(false);
      await first.getByRole('button', { name: 'Log In' }).click();
      await first.waitForURL(/\/dashboard\/workouts\/list$/);
      // However many rides the tests before have added.
      await first.getByText(/^\d+ workouts$/).waitFor();
      // A second tab, a link pasted into it: signed in, on the page asked for.
      const second = await context.newPage();
      second.on('pageerror', (error) => pageErrors.push(error.message));
      await second.goto(`${base}/dashboard/settings`);
      await second.getByLabel('FTP (W)').waitFor();
      expect(new URL(second.url()).pathname).toBe('/dashboard/settings');
      // Each tab's copy is in its session storage (gone with the browser), none on disk.
      for (const tab of [first, second]) {
        expect(await tab.evaluate(`localStorage.getItem('xoss_token')`)).toBeNull();
        expect(await tab.evaluate(`sessionStorage.getItem('xoss_token')`)).not.toBeNull();
      }
      // A browser opened again (a new context: no tab left to ask, the mark that one held a
      // sign-in still in local storage) starts signed out.
      expect(await first.evaluate(`localStorage.getItem('xoss_tab_session')`)).not.toBeNull();
      const reopened = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        storageState: await context.storageState(),
      });
      try {
        const view = await reopened.newPage();
        await view.goto(`${base}/dashboard/settings`);
        await view.waitForURL(/\/login\?redirect=/);
      } finally {
        await reopened.close();
      }
      // The public site in a third tab shows the rider; logging out there signs out the
      // browser: the other tabs' copies go too.
      const third = await context.newPage();
      await third.goto(`${base}/`);
      await third.getByRole('button', { name: /^Log Out/ }).click();
      await third.getByRole('link', { name: 'Log In' }).first().waitFor();
      for (const tab of [first, second])
        await expect.poll(() => tab.evaluate(`sessionStorage.getItem('xoss_token')`)).toBeNull();
    } finally {
      await context.close();
    }
  });

  it('ran every page with zero CSP violations and no script errors', async () => {
    expect(await cspReports()).toEqual([]);
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
  it('reads on a 360 px phone: the training log, a ride (figures first, notes as typed), its power curve and a data page', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    // Every visible table cell at least as wide as its longest word (measured in its font),
    // and nothing wider than the screen. Runs in the page (a string: no DOM types here).
    const squeezed = () =>
      page.evaluate<string[]>(`(() => {
        const probe = document.createElement('span');
        probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
        document.body.append(probe);
        const bad = [];
        for (const cell of document.querySelectorAll('main th, main td')) {
          const box = cell.getBoundingClientRect();
          if (box.width <= 1 || !cell.checkVisibility()) continue;
          // Cells for screen readers only (clipped away) are not read on the screen.
          let clipped = false;
          for (let element = cell; element; element = element.parentElement)
            if (getComputedStyle(element).clipPath !== 'none') clipped = true;
          if (clipped) continue;
          const style = getComputedStyle(cell);
          const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          probe.style.font = style.font;
          for (const word of (cell.innerText || '').split(/\\s+/)) {
            probe.textContent = word;
            if (probe.getBoundingClientRect().width > room + 1) bad.push(word + ' in ' + Math.round(room) + ' px');
          }
        }
        probe.remove();
        if (document.documentElement.scrollWidth > 360) bad.push('page ' + document.documentElement.scrollWidth + ' px wide');
        return bad;
      })()`);

    await page.goto(`${base}/dashboard/training/log`);
    const calendar = page.locator('.xoss-calendar');
    await calendar.waitFor();
    expect(await squeezed()).toEqual([]);
    // A card per week: Monday and Tuesday one above the other, not side by side.
    const [monday, tuesday] = await Promise.all(
      [0, 1].map((day) =>
        calendar.locator('tbody tr').first().locator('td').nth(day).boundingBox(),
      ),
    );
    expect(tuesday!.y).toBeGreaterThanOrEqual(monday!.y + monday!.height - 1);

    // The ride: its name, figures, map and charts come before its best efforts (the audax:
    // rides other tests import may come first in the list, and may have no map).
    await page.goto(`${base}/dashboard/workouts/list`);
    const first = page.getByRole('rowheader').getByRole('link', { name: /^Ten-hour audax/ });
    const name = (await first.textContent())!;
    await first.click();
    const heading = page.getByRole('heading', { name, level: 1 });
    await heading.waitFor();
    await scrollBelowTheCharts(page);
    const bests = page.getByRole('table', { name: 'Best efforts of this ride' });
    await bests.waitFor();
    await page.evaluate('window.scrollTo(0, 0)');
    const tops = await Promise.all(
      [
        heading,
        page.locator('section[aria-labelledby="range-stats"]'),
        page.locator('.xoss-map__canvas').first(),
        page.getByRole('slider', { name: 'Ride charts' }),
        bests,
      ].map(async (element) => (await element.boundingBox())!.y),
    );
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    // The figures begin on the first screen.
    expect(tops[1]).toBeLessThan(800);
    expect(await page.getByText('Best efforts of this ride', { exact: true }).count()).toBe(1);
    expect(await squeezed()).toEqual([]);

    // Notes keep their lines, and markup in them stays text.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Notes').fill('Climbed the pass.\nHeadwind <b>home</b>.');
    await page.getByRole('button', { name: 'Save' }).click();
    const notes = page.locator('.portal__ride-notes');
    await notes.getByText(/Headwind/).waitFor();
    expect(await notes.innerText()).toMatch(/Climbed the pass\.\nHeadwind <b>home<\/b>\.$/);
    expect(await notes.locator('b').count()).toBe(0);

    // The power curve names the ride and leads back to it.
    await page.getByRole('link', { name: 'Power curve' }).click();
    await page.getByRole('img', { name: /Power curve/ }).waitFor();
    await page.getByRole('link', { name: `Back to the ride: ${name}` }).click();
    await heading.waitFor();

    // NAV+ with six small fields: every value inside its tile.
    await page.goto(`${base}/dashboard/device/list`);
    await page.getByRole('link', { name: /^Manage: NAV\+/ }).click();
    await page.getByRole('link', { name: 'Data pages' }).click();
    await page.getByLabel('Layout 11: 6 fields').check();
    const preview = page.getByRole('group', { name: /screen, page/ });
    await expect.poll(() => preview.getByRole('button').count()).toBe(6);
    // A small tile shows the moving time, "1:23:45" in the preview.
    await preview.getByRole('button').nth(2).click();
    await page.getByRole('button', { name: 'Moving time', exact: true }).click();
    await expect
      .poll(() => preview.getByRole('button').nth(2).getAttribute('aria-label'))
      .toBe('3: Moving time');
    const outside = await page.evaluate<string[]>(`
      [...document.querySelectorAll('.xoss-device svg g')].flatMap((tile) => {
        const rect = tile.querySelector('rect').getBBox();
        const value = tile.querySelectorAll('text')[1];
        if (!value) return [];
        const box = value.getBBox();
        return box.x >= rect.x && box.x + box.width <= rect.x + rect.width
          ? []
          : [value.textContent + ': ' + Math.round(box.width) + ' px in ' + Math.round(rect.width)];
      })`);
    expect(outside).toEqual([]);
    expect(await preview.textContent()).toContain('1:23:45');
  });

  it('imports every activity of a chained FIT file, saying so, and lists them all', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const fitOf = (seed: number, startTime: number) =>
      encodeFit(activityFromStreams(simulateRide({ seconds: 900, seed }), { startTime, sport: 2 }));
    // Two rides of 2031-03-01 and 2031-03-02 in one file, as the FIT protocol allows.
    const chained = Buffer.concat([fitOf(71, 1_930_118_400), fitOf(72, 1_930_204_800)]);
    await page.goto(`${base}/dashboard/workouts/list?from=2031-01-01`);
    await page.getByText('No workouts', { exact: true }).waitFor();
    await page
      .locator('input[type=file]')
      .setInputFiles([
        { name: 'two-rides.fit', mimeType: 'application/octet-stream', buffer: chained },
      ]);
    await page
      .getByRole('list', { name: 'Import results' })
      .getByText(
        /^two-rides\.fit · Imported · Open the ride · 1 more activity of the file is being imported$/,
      )
      .waitFor();
    // The second lands a little after the first (queued on its own): the list shows both.
    await expect
      .poll(
        async () => {
          await page.goto(`${base}/dashboard/workouts/list?from=2031-01-01`);
          await page.getByText(/^(1|2) workouts?$/).waitFor();
          return page.getByText('2 workouts', { exact: true }).count();
        },
        { interval: 1000 },
      )
      .toBe(1);
    await page.getByRole('link', { name: 'Ride 2031-03-01' }).waitFor();
    await page.getByRole('link', { name: 'Ride 2031-03-02' }).waitFor();
  });

  // Last: it changes the demo rider's password. Deleting an account is tested in
  // src/account/Account.test.tsx only: the product runs with one rider, whom these tests need.
  it("looks after the account: signs other sessions out, changes the password, downloads the rider's data", async () => {
    // Another browser's session, signed in through the API.
    const signIn = async (password: string) => {
      const reply = await fetch(`${base}/api/v1/jwt-token/`, {
        method: 'POST',
        headers: { origin: base, 'content-type': 'application/json' },
        body: JSON.stringify({ email: demo.email, password }),
      });
      expect(reply.status).toBe(200);
      return ((await reply.json()) as { data: { refresh: string } }).data.refresh;
    };
    const refreshes = async (refresh: string) =>
      (
        await fetch(`${base}/api/v1/jwt-token/refresh/`, {
          method: 'POST',
          headers: { origin: base, 'content-type': 'application/json' },
          body: JSON.stringify({ refresh }),
        })
      ).status;
    let other = await signIn(demo.password);

    // Reached from Settings, and it fits a phone.
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`${base}/dashboard/settings`);
    await page.getByRole('link', { name: /^Account: password, sessions/ }).click();
    await page.waitForURL(/\/dashboard\/settings\/account$/);
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    await sessions.getByText('This browser').waitFor();
    expect(await sessions.getByText('This browser').count()).toBe(1);
    expect(await sessions.getByRole('listitem').count()).toBeGreaterThan(1);
    expect(
      await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth'),
    ).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    await sessions.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await sessions
      .getByRole('status')
      .filter({ hasText: /sessions? signed out\.$/ })
      .waitFor();
    await sessions.getByText('You are signed in on this browser only.').waitFor();
    expect(await sessions.getByRole('listitem').count()).toBe(1);
    expect(await refreshes(other)).toBe(401);

    // A new password: the other browser is signed out, this one stays.
    other = await signIn(demo.password);
    const newPassword = 'a brand new secret';
    await page.getByLabel('Current password').fill(demo.password);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Repeat the new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByText('Your password has been changed. Every other session was signed out')
      .waitFor();
    expect(await refreshes(other)).toBe(401);
    await page.reload();
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/settings/account');

    // Everything the rider gave us, as a zip with Strava's activities.csv.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download my data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^xoss-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = await readFile(await download.path());
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    expect(zip.includes('activities.csv')).toBe(true);

    // Logged out, the old password is refused and the new one lets the rider in.
    await page.getByRole('button', { name: /Log Out/ }).click();
    await page.getByRole('link', { name: 'Log In' }).first().waitFor();
    // The portal then leaves for the site's login page by itself (a second later, a full
    // page load): a navigation of ours meanwhile would be aborted by it, as a loaded CI showed.
    await page.waitForURL((url) => url.pathname === '/login');
    await page.goto(`${base}/login`);
    await page.getByLabel('E-mail').fill(demo.email);
    await page.getByLabel('Password').fill(demo.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Wrong username or password').waitFor();
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/dashboard\/main$/);
  });

  it('imports a Strava export archive from its page: progress, counts, a failure named, the rides listed', async () => {
    await page.setViewportSize({ width: 360, height: 800 });
    const fitOf = (seed: number, startTime: number) =>
      encodeFit(activityFromStreams(simulateRide({ seconds: 900, seed }), { startTime, sport: 2 }));
    // Two rides of 2032-05-31 and 2032-06-01, and a file that is no ride.
    const zip = new ZipFile();
    zip.addBuffer(
      Buffer.from(
        'Activity ID,Activity Name,Activity Type,Filename\n' +
          '1,Archive climb,Ride,activities/1.fit\n2,Archive spin,Ride,activities/2.fit\n',
      ),
      'activities.csv',
    );
    zip.addBuffer(Buffer.from(fitOf(81, 1_969_603_200)), 'activities/1.fit');
    zip.addBuffer(Buffer.from(fitOf(82, 1_969_689_600)), 'activities/2.fit');
    zip.addBuffer(Buffer.from('not a ride'), 'activities/3.fit');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
    await page.goto(`${base}/dashboard/workouts/list`);
    await page.getByRole('link', { name: 'Import a Strava or Garmin export' }).click();
    await page.getByRole('heading', { name: 'Import your history', level: 1 }).waitFor();
    await page
      .locator('input[type=file]')
      .setInputFiles([
        { name: 'export.zip', mimeType: 'application/zip', buffer: Buffer.concat(chunks) },
      ]);
    await page.getByRole('heading', { name: 'Import finished' }).waitFor();
    await page.getByText('3 of 3 activities', { exact: true }).waitFor();
    const failures = page.getByRole('list', { name: 'Activities not imported' });
    // Its own reason for the entry named like a ride whose bytes are no activity file (told
    // by its first bytes, without an import of its own), not a catch-all.
    await failures.getByText(/^activities\/3\.fit/).waitFor();
    await failures.getByText(/Not an activity file: FIT, TCX and GPX/).waitFor();
    // Leaving and coming back shows the same import.
    await page.goto(`${base}/dashboard/main`);
    await page.goto(`${base}/dashboard/workouts/archive`);
    await page.getByRole('heading', { name: 'Import finished' }).waitFor();
    const sideways = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(sideways).toBe(0);
    await page.getByRole('link', { name: 'Open your rides' }).click();
    await page.goto(`${base}/dashboard/workouts/list?from=2032-01-01`);
    await page.getByRole('link', { name: 'Archive climb' }).waitFor();
    await page.getByRole('link', { name: 'Archive spin' }).waitFor();
  });

  it("analyses a ride: W' balance, intervals that zoom the range figures, the power model, and two rides compared", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    // The demo's ten-hour audax (rides imported by the tests above may be listed before it).
    await page.goto(`${base}/dashboard/workouts/list`);
    const audax = page.getByRole('rowheader').getByRole('link', { name: /^Ten-hour audax/ });
    const name = (await audax.textContent())!;
    await audax.click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    // The ride has power: its intervals and the W' balance panel, drawn through points.
    await scrollBelowTheCharts(page);
    const intervals = page.getByRole('table', { name: /^\d+ intervals?$/ });
    await intervals.waitFor();
    const wBal = page.locator('.xoss-streams__panel', { hasText: 'W′ balance' });
    await wBal.scrollIntoViewIfNeeded();
    await expect
      .poll(async () => ((await wBal.locator('path').first().getAttribute('d')) ?? '').length)
      .toBeGreaterThan(20);
    expect(await wBal.locator('figcaption').textContent()).toMatch(/CP \d+\sW · W′ [\d.]+\skJ/);
    // Choosing an interval zooms to it: the range figures' time is the interval's duration.
    const row = intervals.locator('tbody tr').first();
    const duration = (await row.locator('td').nth(1).textContent())!;
    await row.getByRole('button', { name: 'Zoom to interval 1' }).click();
    await page.getByRole('heading', { name: 'Statistics of the selected range' }).waitFor();
    const rangeTime = () =>
      page.locator('section[aria-labelledby="range-stats"] dd').first().textContent();
    await expect.poll(rangeTime).toBe(duration);
    await page.getByRole('button', { name: 'Reset zoom' }).click();
    await page.getByRole('heading', { name: 'Statistics of the whole ride' }).waitFor();

    // The power curve page: the rider's model over the curve, with its figures.
    await page.getByRole('link', { name: 'Power curve' }).click();
    const model = page.getByTestId('model-figures');
    await model.waitFor();
    expect(await model.locator('dd').first().textContent()).toMatch(/^\d+\sW$/);
    await page.locator('.xoss-curve__legend').first().getByText('Model').waitFor();

    // Two rides compared: ticked in the list, overlaid on one time axis.
    await page.goto(`${base}/dashboard/workouts/list`);
    await page.getByRole('checkbox', { name: `Compare ${name}` }).check();
    await page
      .getByRole('checkbox', { name: /^Compare / })
      .last()
      .check();
    await page.getByRole('link', { name: 'Compare the two selected rides' }).click();
    await page.waitForURL(/\/dashboard\/workouts\/compare\?a=\d+&b=\d+$/);
    const figures = page.getByRole('table', { name: 'Key figures' });
    await figures.waitFor();
    expect(await figures.getByRole('columnheader').count()).toBe(3);
    await page.locator('.xoss-streams__panel path[data-overlay="true"]').first().waitFor();
    await page.getByRole('img', { name: /Power curves/ }).waitFor();
    expect(await cspReports()).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('opens a routebook on its map and profile, renames it, sends it to a device the app then lists, downloads and deletes it; explains adding a device', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/upload/gpxFile`);
    const input = page.locator('input[type=file]');
    // A ride's FIT file picked here by mistake: said plainly, with the way to the rides.
    const ride = simulateRide({ seconds: 600, seed: 5 });
    await input.setInputFiles({
      name: 'Morning_Ride.fit',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(
        encodeFit(activityFromStreams(ride, { startTime: 1_700_000_000, sport: 2 })),
      ),
    });
    const wrongFile = page
      .getByRole('alert')
      .filter({ hasText: 'This is a FIT file (an activity). Import it in your rides instead.' });
    await wrongFile.waitFor();
    expect(await wrongFile.getByRole('link', { name: 'Go to my rides' }).getAttribute('href')).toBe(
      '/dashboard/workouts/list',
    );
    // A climb of 80 points, 5 m up at each.
    const points = Array.from(
      { length: 80 },
      (_, index) =>
        `<trkpt lat="${(46.2 + index * 0.0008).toFixed(5)}" lon="${(7.3 + index * 0.0006).toFixed(5)}"><ele>${500 + index * 5}</ele></trkpt>`,
    ).join('');
    await input.setInputFiles({
      name: 'ridge.gpx',
      mimeType: 'application/gpx+xml',
      buffer: Buffer.from(
        `<?xml version="1.0"?><gpx version="1.1" creator="e2e" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Ridge route</name><trkseg>${points}</trkseg></trk></gpx>`,
      ),
    });
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('Ridge route');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('heading', { name: 'SUCCESS' }).waitFor();

    // The list: distance, climbing and date; the title opens the routebook.
    const listed = page.getByRole('listitem').filter({ hasText: 'Ridge route' });
    await listed.getByText(/ · \d[\d,]*\s(m|ft) climbing · /).waitFor();
    await listed.getByRole('link', { name: 'Ridge route' }).click();
    await page.waitForURL(/\/dashboard\/routebooks\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { name: 'Ridge route', level: 1 }).waitFor();
    await page.locator('.xoss-map__canvas canvas.xoss-map__track').waitFor();
    const profile = page.locator('.xoss-streams__panel', { hasText: 'Elevation' });
    await profile.scrollIntoViewIfNeeded();
    await expect
      .poll(
        async () =>
          ((await profile.locator('path').first().getAttribute('d')) ?? '').match(
            /[ML][\d.]+,[\d.]+/g,
          )?.length ?? 0,
      )
      .toBeGreaterThanOrEqual(20);

    // Renamed.
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Title').fill('Ridge route, renamed');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Ridge route, renamed', level: 1 }).waitFor();

    // Sent to the demo's first device: waiting for the app's next sync.
    const choice = page.getByLabel('Device', { exact: true });
    const deviceId = Number(await choice.inputValue());
    const deviceName = (await choice.locator('option:checked').textContent())!;
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const sentTo = page.getByRole('list', { name: 'Sent to' });
    await sentTo.getByText(deviceName).waitFor();
    await sentTo.getByText('Waiting for the next sync in the XOSS app').waitFor();

    // What the phone app sees for that device: the routebook, with its GPX to download.
    // (The account test above may have changed the demo password: either signs in.)
    let access = '';
    for (const password of [demo.password, 'a brand new secret']) {
      const login = await fetch(`${base}/api/v1/jwt-token/`, {
        method: 'POST',
        headers: { origin: base, 'content-type': 'application/json' },
        body: JSON.stringify({ email: demo.email, password }),
      });
      if (login.ok) access = ((await login.json()) as { data: { access: string } }).data.access;
      if (access) break;
    }
    const auth = { authorization: `Bearer ${access}` };
    const waiting = await fetch(`${base}/api/v2/devices/${deviceId}/routebooks/`, {
      headers: auth,
    });
    expect(waiting.status).toBe(200);
    const books = (
      (await waiting.json()) as { data: { id: number; title: string; download_url: string }[] }
    ).data;
    const book = books.find((each) => each.id === id);
    expect(book?.title).toBe('Ridge route, renamed');
    const file = await fetch(`${base}${book!.download_url}`, { headers: auth });
    expect(await file.text()).toContain('<name>Ridge route</name>');

    // Downloaded from the page: the original GPX, named after the title.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download GPX' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Ridge route renamed.gpx');
    let text = '';
    for await (const chunk of await download.createReadStream()) text += String(chunk);
    expect(text).toContain('<trkpt');

    // Deleted after Confirm: back on the list without it, and gone from the device's list.
    await page.getByRole('button', { name: 'Delete routebook' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/\/upload\/gpxFile$/);
    await page.getByRole('heading', { name: 'My routebooks' }).waitFor();
    await expect
      .poll(() => page.getByRole('link', { name: 'Ridge route, renamed' }).count())
      .toBe(0);
    const after = await fetch(`${base}/api/v2/devices/${deviceId}/routebooks/`, { headers: auth });
    const left = ((await after.json()) as { data: { id: number }[] }).data;
    expect(left.map((each) => each.id)).not.toContain(id);

    // The device list's Add: pairing is explained, with the app's download page.
    await page.goto(`${base}/dashboard/device/list`);
    await page.getByRole('link', { name: 'Add a device' }).click();
    await page.waitForURL(/\/dashboard\/device\/add$/);
    await page.getByRole('heading', { name: 'Pair it in the XOSS app' }).waitFor();
    expect(await page.getByRole('link', { name: 'Get the XOSS app' }).getAttribute('href')).toBe(
      '/product/download',
    );
    await page.getByRole('textbox', { name: 'Serial number' }).waitFor();
    expect(await cspReports()).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
