import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The Content-Security-Policy of the apps' pages (security.md 14): scripts, styles and
 * fonts only from this origin, no inline script or eval, no plugins, no framing, no
 * `<base>`; images also from the map tile hosts, as data and blob URLs (map canvases).
 */
export function contentSecurityPolicy(tileOrigins: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob: ${tileOrigins.join(' ')}`.trim(),
    `connect-src 'self' ${tileOrigins.join(' ')}`.trim(),
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "manifest-src 'self'",
    'upgrade-insecure-requests',
  ].join('; ');
}

// Storybook's built manager and preview use inline scripts and eval: it is an internal
// design tool, so it gets its own, looser policy, still without framing or plugins.
const storybookPolicy = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ');

/** Hashed build output (`/assets/...-Ab12Cd.js`): cached for a year, never revalidated. */
const HASHED_ASSET =
  /^\/(?:storybook\/)?assets\/.+[-.][A-Za-z0-9_-]{8,}\.(?:js|css|woff2?|svg|png|jpg|webp|map)$/;

/**
 * Headers of every reply that is not API JSON: the CSP and the other browser protections
 * on HTML pages, long-lived caching for hashed assets, revalidation for everything else.
 */
export function staticHeaders(tileOrigins: readonly string[]) {
  const pagePolicy = contentSecurityPolicy(tileOrigins);
  return (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/')) return;
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) {
      reply.header(
        'content-security-policy',
        path === '/storybook' || path.startsWith('/storybook/') ? storybookPolicy : pagePolicy,
      );
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      reply.header('referrer-policy', 'strict-origin-when-cross-origin');
      reply.header('cross-origin-opener-policy', 'same-origin');
      reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
      reply.header('x-frame-options', 'DENY');
      // Pages name their hashed assets: always revalidate them so a deploy shows at once.
      reply.header('cache-control', 'no-cache');
    } else if (reply.statusCode === 200 && HASHED_ASSET.test(path)) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    }
  };
}
