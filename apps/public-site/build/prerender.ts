/// <reference types="node" />
// After `vite build`: renders every prerendered path with the SSR build of
// `src/prerender.tsx` and writes `dist/<path>/index.html` (the app's shell with the page's
// HTML inside `#root`), so pages are indexable and paint before any script runs.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_LANGUAGE } from '@xoss/i18n';
import { languageHref, origin, sitemapXml } from './seo.ts';

const app = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(app, 'dist');
const ssr = join(app, 'dist-ssr');
const shell = readFileSync(join(dist, 'index.html'), 'utf8');
if (!shell.includes('<div id="root"></div>') || !shell.includes('<html lang="en">'))
  throw new Error('dist/index.html has no empty #root or no <html lang="en">');

const entry = (await import(pathToFileURL(join(ssr, 'prerender.js')).href)) as {
  renderPage(path: string, language: string): Promise<string>;
  prerenderPaths: readonly string[];
  prerenderLanguages: readonly string[];
  publicPaths: readonly string[];
};
const base = origin();
const href = (path: string, language: string) => languageHref(base, path, language);
for (const path of entry.prerenderPaths) {
  const alternates = [
    ...entry.prerenderLanguages.map(
      (language) =>
        `<link rel="alternate" hreflang="${language}" href="${href(path, language)}" />`,
    ),
    `<link rel="alternate" hreflang="x-default" href="${href(path, DEFAULT_LANGUAGE)}" />`,
  ].join('\n    ');
  for (const language of entry.prerenderLanguages) {
    const html = await entry.renderPage(path, language);
    const page = shell
      .replace('<html lang="en">', `<html lang="${language}">`)
      .replace('</head>', `  ${alternates}\n  </head>`)
      .replace(
        '<div id="root"></div>',
        `<div id="root" data-prerendered="${path}" data-language="${language}">${html}</div>`,
      );
    const name = language === DEFAULT_LANGUAGE ? 'index.html' : `index.${language}.html`;
    const file = path === '/' ? join(dist, name) : join(dist, path, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, page);
  }
}
// Paths without a file of their own get the empty shell (the browser renders them).
writeFileSync(join(dist, 'shell.html'), shell);
writeFileSync(
  join(dist, 'sitemap.xml'),
  sitemapXml(base, entry.publicPaths, {
    paths: entry.prerenderPaths,
    languages: entry.prerenderLanguages,
  }),
);
rmSync(ssr, { recursive: true, force: true });
console.log(
  `prerendered ${entry.prerenderPaths.length} pages in ${entry.prerenderLanguages.length} languages`,
);
