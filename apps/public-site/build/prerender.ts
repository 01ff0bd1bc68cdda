/// <reference types="node" />
// After `vite build`: renders every prerendered path with the SSR build of
// `src/prerender.tsx` and writes `dist/<path>/index.html` (the app's shell with the page's
// HTML inside `#root`), so pages are indexable and paint before any script runs.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const app = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(app, 'dist');
const ssr = join(app, 'dist-ssr');
const shell = readFileSync(join(dist, 'index.html'), 'utf8');
if (!shell.includes('<div id="root"></div>')) throw new Error('dist/index.html has no empty #root');

const entry = (await import(pathToFileURL(join(ssr, 'prerender.js')).href)) as {
  renderPage(path: string): Promise<string>;
  prerenderPaths: readonly string[];
};
for (const path of entry.prerenderPaths) {
  const html = await entry.renderPage(path);
  const page = shell.replace(
    '<div id="root"></div>',
    `<div id="root" data-prerendered="${path}">${html}</div>`,
  );
  const file = path === '/' ? join(dist, 'index.html') : join(dist, path, 'index.html');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, page);
}
// Paths without a file of their own get the empty shell (the browser renders them).
writeFileSync(join(dist, 'shell.html'), shell);
rmSync(ssr, { recursive: true, force: true });
console.log(`prerendered ${entry.prerenderPaths.length} pages`);
