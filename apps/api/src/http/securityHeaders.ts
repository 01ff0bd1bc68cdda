import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Directives = Record<string, string[]>;

/**
 * The Content-Security-Policy of the apps' pages (security 14 in docs/security.md): scripts, styles and
 * fonts only from this origin, no inline script or eval, no plugins, no framing, no
 * `<base>`; images also from the map tile hosts, as data and blob URLs (map canvases).
 */
function pageDirectives(tileOrigins: readonly string[]): Directives {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:', ...tileOrigins],
    'connect-src': ["'self'", ...tileOrigins],
    'font-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'manifest-src': ["'self'"],
    'upgrade-insecure-requests': [],
  };
}

// Storybook's built manager and preview use inline scripts and eval: it is an internal
// design tool, so it gets its own, looser policy, still without plugins. It shares the
// site's origin, where the portal keeps its tokens (localStorage): `sandbox` without
// `allow-same-origin` gives its pages an opaque origin of their own, so its scripts cannot
// read the site's storage or cookies, nor call the API as the site.
const storybookDirectives: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'unsafe-inline'", "'unsafe-eval'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  sandbox: ['allow-scripts', 'allow-popups', 'allow-forms', 'allow-modals', 'allow-downloads'],
};

/**
 * The browser protections of the apps' pages, through helmet: the CSP above, HSTS for a
 * year, `nosniff`, the referrer policy, COOP, no framing. Applied to HTML replies only
 * (`staticHeaders`), not to the API's JSON or to assets.
 */
export function helmetOptions(tileOrigins: readonly string[]): FastifyHelmetOptions {
  return {
    global: false,
    contentSecurityPolicy: { useDefaults: false, directives: pageDirectives(tileOrigins) },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
  };
}

/** Storybook's pages: its policy, and framing by its own manager (the preview iframe). */
const storybookHelmet = {
  contentSecurityPolicy: { useDefaults: false, directives: storybookDirectives },
  xFrameOptions: false,
} as const;

/** Storybook's pages are sandboxed (opaque origin): their module scripts load as CORS. */
const isStorybookPath = (path: string) => path === '/storybook' || path.startsWith('/storybook/');

/** Hashed build output (`/assets/...-Ab12Cd.js`): cached for a year, never revalidated. */
const HASHED_ASSET =
  /^\/(?:storybook\/)?assets\/.+[-.][A-Za-z0-9_-]{8,}\.(?:js|css|woff2?|svg|png|jpg|webp|map)$/;

/**
 * Headers of every reply that is not API JSON: helmet's protections on HTML pages (with the
 * permissions policy, which helmet does not write), long-lived caching for hashed assets,
 * revalidation for everything else.
 */
export function staticHeaders() {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/')) return;
    const storybook = isStorybookPath(path);
    // Storybook's sandboxed pages have an opaque origin: their scripts are requested as
    // cross-origin. Its files are public, static and sent without credentials.
    if (storybook) reply.header('access-control-allow-origin', '*');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) {
      if (storybook) reply.helmet(storybookHelmet);
      else reply.helmet();
      reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
      // Pages name their hashed assets: always revalidate them so a deploy shows at once.
      reply.header('cache-control', 'no-cache');
    } else if (reply.statusCode === 200 && HASHED_ASSET.test(path)) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    }
  };
}
