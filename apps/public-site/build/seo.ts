import { DEFAULT_LANGUAGE } from '@xoss/i18n';
import type { Plugin } from 'vite';
import { privatePrefixes } from '../src/publicPaths.ts';

/** The production origin, for absolute URLs in the sitemap (`SITE_ORIGIN` at build time). */
export const origin = () => (process.env.SITE_ORIGIN ?? 'https://www.xoss.co').replace(/\/+$/, '');

/** The default language's URL is the plain path; every other language adds `?lang=`. */
export const languageHref = (base: string, path: string, language: string) =>
  language === DEFAULT_LANGUAGE ? `${base}${path}` : `${base}${path}?lang=${language}`;

/**
 * The sitemap: every public page, and for the prerendered ones each language's copy with
 * its alternates (`xhtml:link hreflang`, as the prerendered pages' heads carry them).
 */
export function sitemapXml(
  base: string,
  paths: readonly string[],
  translated: { readonly paths: readonly string[]; readonly languages: readonly string[] },
): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const urls = paths.flatMap((path) => {
    if (!translated.paths.includes(path)) return [`  <url><loc>${escape(base + path)}</loc></url>`];
    const alternates = [
      ...translated.languages.map(
        (language) =>
          `    <xhtml:link rel="alternate" hreflang="${language}" href="${escape(languageHref(base, path, language))}"/>`,
      ),
      `    <xhtml:link rel="alternate" hreflang="x-default" href="${escape(base + path)}"/>`,
    ].join('\n');
    return translated.languages.map(
      (language) =>
        `  <url>\n    <loc>${escape(languageHref(base, path, language))}</loc>\n${alternates}\n  </url>`,
    );
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

function robotsTxt(base: string): string {
  return [
    'User-agent: *',
    ...privatePrefixes.map((prefix) => `Disallow: ${prefix}/`),
    'Allow: /',
    '',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n');
}

/** Writes robots.txt into the build (build/prerender.ts writes the sitemap, with languages). */
export function seoPlugin(): Plugin {
  return {
    name: 'xoss-seo',
    apply: 'build',
    generateBundle() {
      const base = origin();
      this.emitFile({ type: 'asset', fileName: 'robots.txt', source: robotsTxt(base) });
    },
  };
}
