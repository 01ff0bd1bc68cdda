import { originRoutes, type OriginOwner } from '@xoss/api-contract';

/** A port from the environment, or the default when it is unset. */
function portFromEnv(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535)
    throw new Error(`${name} must be a TCP port, not "${value}"`);
  return port;
}

/**
 * Ports of the dev servers in `pnpm dev`; the public site's is the one to open. Each dev
 * server takes exactly its port (Vite's `strictPort`), so the proxies below never point at
 * the wrong app; `DEV_SITE_PORT`, `DEV_PORTAL_PORT` and `DEV_API_PORT` move them.
 */
export const devPorts: Readonly<Record<Exclude<OriginOwner, 'storybook'>, number>> = {
  'public-site': portFromEnv('DEV_SITE_PORT', 5173),
  'athlete-portal': portFromEnv('DEV_PORTAL_PORT', 5174),
  api: portFromEnv('DEV_API_PORT', 8787),
};

/**
 * The Vite dev proxy of one app, read from the origin table: every prefix another part
 * owns goes to that part's dev server, so the dev run is one origin like production.
 */
function devProxy(app: OriginOwner): Record<string, string> {
  const proxy: Record<string, string> = {};
  for (const route of originRoutes) {
    if (route.owner === app || route.prefix === '/' || route.owner === 'storybook') continue;
    proxy[route.prefix] = `http://localhost:${devPorts[route.owner]}`;
  }
  return proxy;
}

/** Vite's `server` settings of one app in `pnpm dev`: its own port, the proxy to the rest. */
export function devServer(app: 'public-site' | 'athlete-portal') {
  return { port: devPorts[app], strictPort: true, proxy: devProxy(app) };
}
