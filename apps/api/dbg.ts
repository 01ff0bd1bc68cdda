import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { createApp } from './src/app.ts';
const { server } = await createApp({ dataDir: mkdtempSync(join(tmpdir(), 'd-')), logger: false, staticRoots: { publicSite: resolve('../public-site/dist'), athletePortal: resolve('../athlete-portal/dist') } });
await server.listen({ port: 0, host: '127.0.0.1' });
const a = server.server.address() as { port: number };
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const p = await b.newPage();
let at = '';
p.on('console', (m) => { if (m.type() === 'error') console.log(at, m.text().slice(0, 150)); });
for (const path of ['/', '/product/manuals', '/product/download', '/product/xossnav', '/product/xossg2', '/product/xossG', '/product/xossSprint', '/product/contact', '/download/gpxHow', '/copyright/terms', '/copyright/protocol', '/copyright/termsLocal', '/copyright/policy', '/copyright/cookies']) {
  at = path;
  await p.goto(`http://127.0.0.1:${a.port}${path}`);
  await p.waitForTimeout(700);
}
await b.close(); await server.close();
