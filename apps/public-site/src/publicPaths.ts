import { products } from './products.ts';

/**
 * Every page a visitor can land on: the sitemap lists them, robots.txt points to it, and the
 * end-to-end test visits them. Redirecting paths (/product, /download, /post, /copyright)
 * are left out: search engines should index where they land.
 */
export const publicPaths: readonly string[] = [
  '/',
  '/product/manuals',
  '/product/download',
  ...products.map((product) => `/product/${product.slug}`),
  '/product/contact',
  '/download/globalMaps',
  '/download/globalMapsRegion',
  '/download/gpxHow',
  '/download/maps',
  '/post/content',
  '/copyright/terms',
  '/copyright/protocol',
  '/copyright/termsLocal',
  '/copyright/policy',
  '/copyright/cookies',
  '/login',
];

/** The paths that belong to the signed-in area or the API: never indexed. */
export const privatePrefixes = ['/dashboard', '/upload', '/developer', '/api'] as const;

/** Public pages without API data: written to static HTML at build time (see prerender.tsx). */
export const prerenderPaths: readonly string[] = publicPaths
  .filter((path) => !path.startsWith('/download/') || path === '/download/gpxHow')
  .filter((path) => !path.startsWith('/post/') && path !== '/login');
