import { originRoutes, type OriginOwner } from '@xoss/api-contract';

/** Ports of the dev servers in `pnpm dev`; the public site's is the one to open. */
export const devPorts: Readonly<Record<Exclude<OriginOwner, 'storybook'>, number>> = {
  'public-site': 5173,
  'athlete-portal': 5174,
  api: 8787,
};

/**
 * The Vite dev proxy of one app, read from the origin table: every prefix another part
 * owns goes to that part's dev server, so the dev run is one origin like production.
 */
export function devProxy(app: OriginOwner): Record<string, string> {
  const proxy: Record<string, string> = {};
  for (const route of originRoutes) {
    if (route.owner === app || route.prefix === '/' || route.owner === 'storybook') continue;
    proxy[route.prefix] = `http://localhost:${devPorts[route.owner]}`;
  }
  return proxy;
}
