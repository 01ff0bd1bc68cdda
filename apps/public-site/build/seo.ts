import type { Plugin } from 'vite';
import { privatePrefixes, publicPaths } from '../src/publicPaths.ts';

/** The production origin, for absolute URLs in the sitemap (`SITE_ORIGIN` at build time). */
export const origin = () => (process.env.SITE_ORIGIN ?? 'https://www.xoss.co').replace(/\/+$/, '');

export function sitemapXml(base: string, paths: readonly string[] = publicPaths): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const urls = paths.map((path) => `  <url><loc>${escape(base + path)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export function robotsTxt(base: string): string {
  return [
    'User-agent: *',
    ...privatePrefixes.map((prefix) => `Disallow: ${prefix}/`),
    'Allow: /',
    '',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n');
}

/** Writes robots.txt and sitemap.xml into the build. */
export function seoPlugin(): Plugin {
  return {
    name: 'xoss-seo',
    apply: 'build',
    generateBundle() {
      const base = origin();
      this.emitFile({ type: 'asset', fileName: 'robots.txt', source: robotsTxt(base) });
      this.emitFile({ type: 'asset', fileName: 'sitemap.xml', source: sitemapXml(base) });
    },
  };
}
