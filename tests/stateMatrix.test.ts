import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPage, watchErrors } from './audit.ts';
import { launchChromium, startProduct, type RunningProduct } from './product.ts';

// Every screen in every state a rider meets it in, on a phone and a desktop (Chromium): signed
// out, signed in, the session ending while a page is open, a shared ride seen by its owner and
// by a visitor, a stopped share. Each page is audited (`auditPage`): no script error, charts
// with data drawn, no column narrower than its word, touch targets apart, no sideways scroll.

const WIDTHS = [360, 1280] as const;

interface Paths {
  readonly rider: readonly string[];
  readonly visitor: readonly string[];
  readonly shared: { readonly id: number; readonly link: string };
  readonly stopped: string;
}

describe('the state matrix: every screen × state × width (Chromium)', () => {
  let product: RunningProduct;
  let browser: Browser;
  let base: string;
  let paths: Paths;

  const api = async (path: string, access: string, init: RequestInit = {}) => {
    const reply = await fetch(`${base}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${access}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
    });
    return ((await reply.json()) as { data: unknown }).data;
  };

  beforeAll(async () => {
    product = await startProduct();
    base = product.base;
    browser = await launchChromium();

    // The demo rider's rides, a device and an article, through the API.
    const login = await fetch(`${base}/api/v1/jwt-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: product.demo.email, password: product.demo.password }),
    });
    const { access } = ((await login.json()) as { data: { access: string } }).data;
    const rides = (
      (await api('/api/v2/workouts/?page_size=100', access)) as {
        results: { id: number; indoor: boolean; power_avg: number | null }[];
      }
    ).results;
    const outdoor = rides.find((ride) => !ride.indoor && ride.power_avg !== null)!;
    const indoor = rides.find((ride) => ride.indoor) ?? outdoor;
    const other = rides.find((ride) => ride.id !== outdoor.id && !ride.indoor)!;
    const share = async (id: number, shared: boolean) =>
      (
        (await api(`/api/v2/workouts/${id}/`, access, {
          method: 'PATCH',
          body: JSON.stringify({ shared }),
        })) as { share_id: string | null }
      ).share_id;
    const shareId = (await share(outdoor.id, true))!;
    const stoppedId = (await share(other.id, true))!;
    await share(other.id, false);
    const posts = (await api('/api/v2/posts/?language=en', access)) as {
      results: { id: number }[];
    };
    paths = {
      rider: [
        '/dashboard/main',
        '/dashboard/workouts/list',
        `/dashboard/workouts/share/${outdoor.id}`,
        '/dashboard/workouts/shared',
        '/dashboard/workouts/archive',
        `/dashboard/workouts/powerCurve/${outdoor.id}`,
        `/dashboard/workouts/indoor/model/${indoor.id}`,
        `/dashboard/workouts/compare?a=${outdoor.id}&b=${other.id}`,
        '/dashboard/device/list',
        '/dashboard/device/list/settings/0',
        '/dashboard/device/list/manager',
        '/dashboard/settings',
        '/dashboard/settings/account',
        '/dashboard/training/log',
        '/dashboard/training/fitness',
        '/dashboard/training/bests',
        '/upload/gpxFile',
        '/developer/mydevices/',
      ],
      visitor: [
        '/',
        '/login',
        '/product/manuals',
        '/product/download',
        '/product/xossnav',
        '/product/xossg2',
        '/download/globalMaps',
        '/download/maps',
        '/post/content',
        ...(posts.results[0] ? [`/post/content/${posts.results[0].id}`] : []),
        '/copyright/terms',
      ],
      shared: {
        id: outdoor.id,
        link: `/dashboard/workouts/share/${outdoor.id}?share=${shareId}`,
      },
      stopped: `/dashboard/workouts/share/${other.id}?share=${stoppedId}`,
    };
  });

  afterAll(async () => {
    await browser?.close();
    await product?.close();
  });

  /**
   * A fresh tab of `width` with its errors watched, signed in through the form (each tab its
   * own session: one session's tokens replayed in many tabs would read as theft) or not.
   */
  async function tab(width: number, withSession: boolean | 'stored') {
    const context = await browser.newContext({
      viewport: { width, height: 800 },
      ...(withSession === 'stored' ? { storageState: await storedSession() } : {}),
    });
    const page = await context.newPage();
    if (withSession === true) await signIn(page);
    const errors = watchErrors(page);
    return { context, page, errors };
  }

  /**
   * A session of its own, signed in through the API and kept as the form keeps a remembered
   * one (the tokens in local storage for seven days): a rider coming back to the site. Two
   * page loads fewer than the form, for checks that are about what follows the sign-in.
   */
  async function storedSession() {
    const reply = await fetch(`${base}/api/v1/jwt-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: product.demo.email, password: product.demo.password }),
    });
    const { access, refresh } = ((await reply.json()) as { data: Record<string, string> }).data;
    const kept = (v: string | undefined) =>
      JSON.stringify({ v, e: Date.now() + 7 * 24 * 3600 * 1000 });
    return {
      cookies: [],
      origins: [
        {
          origin: base,
          localStorage: [
            { name: 'xoss_token', value: kept(access) },
            { name: 'xoss_refresh_token', value: kept(refresh) },
          ],
        },
      ],
    };
  }

  async function signIn(page: Page) {
    await page.goto(`${base}/login`);
    await page.getByLabel('E-mail').fill(product.demo.email);
    await page.getByLabel('Password').fill(product.demo.password);
    await page.getByRole('checkbox', { name: 'Remember me' }).check();
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/dashboard\/main$/);
  }

  /** Opens `path` and waits for its content; then the audit's problems, named by page. */
  async function visit(page: Page, path: string, errors: () => string[]): Promise<string[]> {
    await page.goto(`${base}${path}`);
    const shown = await page
      .locator('main h1')
      .first()
      .waitFor()
      .then(() => true)
      .catch(() => false);
    if (!shown) return [`${path}: no heading`, ...errors()];
    await page.waitForLoadState('networkidle');
    return [...(await auditPage(page)), ...errors()].map((problem) => `${path}: ${problem}`);
  }

  for (const width of WIDTHS) {
    it(`signed out at ${width} px: each rider screen sends to /login with the way back; visitor screens read well`, async () => {
      const { context, page, errors } = await tab(width, false);
      const problems: string[] = [];
      try {
        for (const path of paths.rider) {
          await page.goto(`${base}${path}`);
          await page.waitForURL(/\/login\?redirect=/);
          const back = new URL(page.url()).searchParams.get('redirect');
          if (back !== path) problems.push(`${path}: redirect=${back}`);
          problems.push(...errors().map((error) => `${path}: ${error}`));
        }
        for (const path of paths.visitor) problems.push(...(await visit(page, path, errors)));
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    });

    it(`signed in at ${width} px: every screen, the shared ride as its owner, charts drawn`, async () => {
      const { context, page, errors } = await tab(width, true);
      const problems: string[] = [];
      try {
        for (const path of [...paths.rider, `/dashboard/workouts/share/${paths.shared.id}`])
          problems.push(...(await visit(page, path, errors)));
        // The owner's ride page draws its power panel (a shared ride's used to go blank).
        // Loaded afresh, its calls start in the entry before the application (`EarlyCalls`)
        // and the application takes their replies: each is asked once.
        const asked = new Map<string, number>();
        const count = (request: { url(): string; method(): string }) => {
          const url = new URL(request.url());
          if (!url.pathname.startsWith('/api/')) return;
          const kind = `${request.method()} ${url.pathname}${url.search}`;
          asked.set(kind, (asked.get(kind) ?? 0) + 1);
        };
        page.on('request', count);
        await page.goto(`${base}/dashboard/workouts/share/${paths.shared.id}`);
        await page.locator('.xoss-streams__panel path.visx-linepath').first().waitFor();
        page.off('request', count);
        for (const [kind, times] of asked)
          if (times > 1) problems.push(`a ride's first load asked ${kind} ${times} times`);
        if (![...asked.keys()].some((kind) => kind.includes(`/${paths.shared.id}/streams/`)))
          problems.push(
            `a ride's first load never asked for its streams: ${[...asked.keys()].join(', ')}`,
          );
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    });

    it(`as a visitor at ${width} px: a shared ride reads without signing in; a stopped share says so`, async () => {
      const { context, page, errors } = await tab(width, false);
      const problems: string[] = [];
      try {
        problems.push(...(await visit(page, paths.shared.link, errors)));
        await page.locator('.xoss-streams__panel path.visx-linepath').first().waitFor();
        if (new URL(page.url()).pathname === '/login')
          problems.push('the shared ride sent to /login');
        await page.goto(`${base}${paths.stopped}`);
        await page
          .getByText(/isn't available|doesn't exist/i)
          .first()
          .waitFor();
        if (new URL(page.url()).pathname === '/login')
          problems.push('a stopped share sent to /login');
        problems.push(...(await auditPage(page)), ...errors());
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    });

    it(`at ${width} px, a session ending on any screen: one refused call of each kind, the message, /login with the way back`, async () => {
      const problems: string[] = [];
      for (const path of paths.rider) {
        const { context, page, errors } = await tab(width, 'stored');
        try {
          await visit(page, path, errors);
          const refused = new Map<string, number>();
          page.on('response', (response) => {
            if (response.status() !== 401) return;
            // Per request (its path and query): two queries of one path are two requests.
            const url = new URL(response.url());
            const kind = `${response.request().method()} ${url.pathname}${url.search}`;
            refused.set(kind, (refused.get(kind) ?? 0) + 1);
          });
          // Both tokens go bad while the page is open (as a session ended elsewhere: the
          // server refuses the access token, and the refresh token with it).
          await page.evaluate(`for (const key of ['xoss_token', 'xoss_refresh_token'])
            localStorage.setItem(key, JSON.stringify({ v: 'revoked', e: Date.now() + 3600000 }))`);
          // The page asks the server again (as a reload does); a page that asks nothing on
          // its own learns at the rider's next step (here: going to the rides).
          await page.reload();
          // Whether the page asks the server on its own is known once its calls are done
          // (a refused one, then its refused refresh), not after some seconds.
          await page.waitForLoadState('networkidle');
          let next = path;
          if (new URL(page.url()).pathname !== '/login' && refused.size === 0) {
            next = '/dashboard/workouts/list';
            await page.evaluate(`history.pushState({}, '', '${next}');
              dispatchEvent(new PopStateEvent('popstate'))`);
          }
          // The way to /login follows the refused refresh: waited for, however long a loaded
          // machine takes (a page that never goes is stuck: the test's hang guard).
          await page.waitForURL(/\/login\?/);
          if (new URL(page.url()).pathname !== '/login')
            problems.push(`${path}: not sent to /login`);
          const back = new URL(page.url()).searchParams.get('redirect');
          if (back !== next) problems.push(`${path}: back to ${back}`);
          for (const [kind, count] of refused)
            if (count > 1) problems.push(`${path}: ${kind} refused ${count} times`);
          problems.push(...errors().map((error) => `${path}: ${error}`));
        } finally {
          await context.close();
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
