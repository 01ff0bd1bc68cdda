import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { LocalBlobStore } from './platform/blobStore.ts';
import { configFromEnv } from './platform/config.ts';
import { openDatabase, type Database } from './platform/db/db.ts';
import { buildServer, prerenderedPage } from './server.ts';
import { AnalysisPool } from './imports/pool.ts';

describe('API server', () => {
  let dir: string;
  let server: FastifyInstance;
  let base: string;
  let db: Database;
  const pool = new AnalysisPool(1);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xoss-api-'));
    for (const [name, body] of [
      ['site', '<p>site shell</p>'],
      ['portal', '<p>portal shell</p>'],
    ] as const) {
      mkdirSync(join(dir, name, 'assets'), { recursive: true });
      writeFileSync(join(dir, name, 'index.html'), body);
    }
    mkdirSync(join(dir, 'storybook'));
    writeFileSync(join(dir, 'storybook', 'index.html'), '<p>storybook</p>');
    writeFileSync(join(dir, 'portal', 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'portal', 'assets', 'index-Bz0qH2no.js'), 'console.log(2)');
    // A built script with its precompressed copies (scripts/precompress.ts writes them).
    const big = `console.log(${JSON.stringify('x'.repeat(4000))});`;
    writeFileSync(join(dir, 'portal', 'assets', 'big-C0ffee00.js'), big);
    writeFileSync(join(dir, 'portal', 'assets', 'big-C0ffee00.js.br'), brotliCompressSync(big));
    writeFileSync(join(dir, 'portal', 'assets', 'big-C0ffee00.js.gz'), gzipSync(big));
    db = await openDatabase();
    server = await buildServer({
      db,
      blobs: new LocalBlobStore(join(dir, 'files')),
      config: configFromEnv({}),
      pool,
      staticRoots: {
        publicSite: join(dir, 'site'),
        athletePortal: join(dir, 'portal'),
        storybook: join(dir, 'storybook'),
      },
    });
    await server.listen({ port: 0, host: '127.0.0.1' });
    const address = server.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    await server.close();
    await db.close();
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers health over real HTTP', async () => {
    const response = await fetch(`${base}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ code: 0, msg: 'success', data: { status: 'ok' } });
  });

  it('answers unknown API paths with the 10404 envelope', async () => {
    const response = await fetch(`${base}/api/v2/nothing/?x=1`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      code: 10404,
      msg: 'not_found',
      detail: 'No route for GET /api/v2/nothing/',
    });
  });

  it('serves each app shell by the origin table, and static files from both apps', async () => {
    expect(await (await fetch(`${base}/product/xossnav`)).text()).toBe('<p>site shell</p>');
    expect(await (await fetch(`${base}/dashboard/workouts/list`)).text()).toBe(
      '<p>portal shell</p>',
    );
    expect(await (await fetch(`${base}/assets/app.js`)).text()).toBe('console.log(1)');
  });

  it('sends the CSP and browser protections with every page, and caches hashed assets for a year', async () => {
    const page = await fetch(`${base}/dashboard/workouts/list`);
    const csp = page.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      'img-src',
      'https://tile.openstreetmap.org',
    ])
      expect(csp).toContain(directive);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(page.headers.get('strict-transport-security')).toMatch(/max-age=(\d+)/);
    expect(
      Number(/max-age=(\d+)/.exec(page.headers.get('strict-transport-security')!)![1]),
    ).toBeGreaterThanOrEqual(31_536_000);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(page.headers.get('cache-control')).toBe('no-cache');

    const hashed = await fetch(`${base}/assets/index-Bz0qH2no.js`);
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(hashed.headers.get('content-security-policy')).toBeNull();
    const plain = await fetch(`${base}/assets/app.js`);
    expect(plain.headers.get('cache-control')).not.toContain('immutable');
    const api = await fetch(`${base}/api/health`);
    expect(api.headers.get('content-security-policy')).toBeNull();
  });

  it("sandboxes Storybook's pages (no allow-same-origin), so they cannot reach the site's storage", async () => {
    const storybook = await fetch(`${base}/storybook/`);
    expect(await storybook.text()).toBe('<p>storybook</p>');
    const csp = storybook.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/(^|;\s*)sandbox allow-scripts allow-popups( |;|$)/);
    expect(csp).not.toContain('allow-same-origin');
    expect(storybook.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
    // The apps' pages keep their strict policy, unsandboxed.
    const page = await fetch(`${base}/dashboard/workouts/list`);
    expect(page.headers.get('content-security-policy')).not.toContain('sandbox');
  });

  it('sends the precompressed copy of a built file, by Accept-Encoding, without compressing again', async () => {
    const url = `${base}/assets/big-C0ffee00.js`;
    const br = await fetch(url, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    expect(br.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    // The stored file's length: sent as written at build time, not compressed per request.
    expect(Number(br.headers.get('content-length'))).toBe(
      brotliCompressSync(`console.log(${JSON.stringify('x'.repeat(4000))});`).length,
    );
    expect(await br.text()).toBe(`console.log(${JSON.stringify('x'.repeat(4000))});`);
    const gz = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect((await gz.text()).length).toBe(4016);
    const plain = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await plain.text()).length).toBe(4016);
  });
});

describe('prerendered site pages', () => {
  it("finds a path's prerendered file, and nothing outside plain path segments", () => {
    const root = mkdtempSync(join(tmpdir(), 'xoss-prerendered-'));
    mkdirSync(join(root, 'product', 'xossnav'), { recursive: true });
    writeFileSync(join(root, 'product', 'xossnav', 'index.html'), '<p>NAV</p>');
    writeFileSync(join(root, 'index.html'), '<p>home</p>');
    writeFileSync(join(root, 'product', 'xossnav', 'index.de.html'), '<p>NAV (de)</p>');
    try {
      expect(prerenderedPage(root, '/')).toBe('index.html');
      expect(prerenderedPage(root, '/product/xossnav')).toBe('product/xossnav/index.html');
      expect(prerenderedPage(root, '/product/xossnav/?ref=ad')).toBe('product/xossnav/index.html');
      expect(prerenderedPage(root, '/product/xossG')).toBeUndefined();
      expect(prerenderedPage(root, '/product/xossnav?lang=de')).toBe(
        'product/xossnav/index.de.html',
      );
      // No copy in that language, or not a language tag: the default page.
      expect(prerenderedPage(root, '/product/xossnav?lang=ko')).toBe('product/xossnav/index.html');
      expect(prerenderedPage(root, '/product/xossnav?lang=../../x')).toBe(
        'product/xossnav/index.html',
      );
      for (const hostile of [
        '/../etc/passwd',
        '/product/..',
        '/product/%2e%2e/x',
        '/product/x.html',
      ])
        expect(prerenderedPage(root, hostile), hostile).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
