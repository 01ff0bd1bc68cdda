/**
 * Which part of the product owns which path prefix on the one origin (docs/architecture.md,
 * "One origin"). The production server, the dev proxy and the reverse-proxy example in
 * docs/deploy.md all read this table.
 */
export const originRoutes = [
  { prefix: '/api', owner: 'api' },
  { prefix: '/storybook', owner: 'storybook' },
  { prefix: '/dashboard', owner: 'athlete-portal' },
  { prefix: '/upload', owner: 'athlete-portal' },
  { prefix: '/developer', owner: 'athlete-portal' },
  { prefix: '/', owner: 'public-site' },
] as const satisfies readonly { prefix: string; owner: string }[];

export type OriginOwner = (typeof originRoutes)[number]['owner'];

/**
 * The owner of a request path: the longest prefix that matches on a segment boundary.
 *
 * @example
 * ownerOfPath('/dashboard/workouts/list'); // 'athlete-portal'
 * ownerOfPath('/dashboards'); // 'public-site'
 */
export function ownerOfPath(path: string): OriginOwner {
  const pathname = path.split(/[?#]/, 1)[0] ?? '/';
  for (const route of originRoutes) {
    if (route.prefix === '/') continue;
    if (pathname === route.prefix || pathname.startsWith(`${route.prefix}/`)) return route.owner;
  }
  return 'public-site';
}
