/// <reference types="node" />
// `pnpm bench`, the visitor site through Lighthouse (mobile preset, simulated throttling) in
// Debian's Chromium: performance, accessibility, best practices and SEO for the home page
// and a product page, and the home page's JavaScript in gzip bytes, against the site's
// targets (accessibility, best practices, SEO 100; performance >= 95; script < 100 kB).
// Served by the real server (production headers) on loopback.
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { startProduct } from '../test/product.ts';

const product = await startProduct({ demo: false });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  const { base } = product;

  const gzipOf = async (url: string) =>
    gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).byteLength;
  // The home page's scripts as its HTML names them (entry and preloads): the first load.
  const html = await (await fetch(`${base}/`)).text();
  const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/site\/[^"]+\.js)"/g)].map(
    (match) => match[1]!,
  );
  let firstLoadGzip = 0;
  for (const script of new Set(scripts)) firstLoadGzip += await gzipOf(`${base}${script}`);
  let allScriptsGzip = 0;

  const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
  // Lighthouse's own advice for a score that moves with the machine: several runs, the
  // median reported (https://developer.chrome.com/docs/lighthouse/performance/performance-scoring).
  const RUNS = 3;
  // One unmeasured run first: Chromium's first audit pays its own start-up.
  await lighthouse(`${base}/`, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  const rows: string[] = [];
  const metricRows: string[] = [];
  for (const [name, path] of [
    ['home', '/'],
    ['product (NAV)', '/product/xossnav'],
  ] as const) {
    const runs: Result[] = [];
    for (let run = 0; run < RUNS; run++) {
      const result = await lighthouse(`${base}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...categories],
      });
      if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
      runs.push(result.lhr);
    }
    // Every script the home page ran in Lighthouse's load: the messages of its language and
    // the help widget too.
    if (path === '/') {
      const requests = (
        runs[0]!.audits['network-requests']?.details as
          { items: { url: string; resourceType?: string }[] } | undefined
      )?.items;
      for (const url of new Set(
        (requests ?? []).filter((item) => item.resourceType === 'Script').map((item) => item.url),
      ))
        allScriptsGzip += await gzipOf(url);
    }
    const performance = (lhr: Result) => lhr.categories.performance?.score ?? 0;
    const median = [...runs].sort((a, b) => performance(a) - performance(b))[Math.floor(RUNS / 2)]!;
    const scores = categories.map((category) =>
      Math.round((median.categories[category]?.score ?? 0) * 100),
    );
    const met =
      scores[0]! >= 95 && scores[1] === 100 && scores[2] === 100 && scores[3] === 100
        ? 'met'
        : 'MISSED';
    const all = runs
      .map((lhr) =>
        lhr.runtimeError
          ? `failed (${lhr.runtimeError.code})`
          : String(Math.round(performance(lhr) * 100)),
      )
      .join(', ');
    rows.push(`| ${name} | ${scores.join(' | ')} | ${all} | ${met} |`);
    const metric = (id: string) => median.audits[id]?.displayValue ?? '?';
    metricRows.push(
      `| ${name} | ${['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'].map(metric).join(' | ')} |`,
    );
  }
  console.log('\nLighthouse, mobile preset, visitor site on loopback\n');
  console.log(
    `| page | performance (median of ${RUNS}) | accessibility | best practices | SEO | performance of each run | targets |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | --- | --- |');
  for (const row of rows) console.log(row);
  console.log('\nThe median run, simulated mobile (slow 4G, 4x CPU slowdown)\n');
  console.log('| page | FCP | LCP | TBT | CLS | Speed Index |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const row of metricRows) console.log(row);
  console.log('');
  // kB of 1000 bytes, gzip at its default level, as the site's target reads.
  for (const [name, bytes] of [
    ['first load (entry and preloads)', firstLoadGzip],
    ['everything the page runs (messages, help widget)', allScriptsGzip],
  ] as const) {
    const kb = bytes / 1000;
    console.log(
      `Home page JavaScript, ${name}: ${kb.toFixed(1)} kB gzip (target < 100 kB: ${(kb / 100).toFixed(2)}x, ${kb < 100 ? 'met' : 'MISSED'})`,
    );
  }
} finally {
  chrome.kill();
  await product.close();
}
