import { ownerOfPath } from '@xoss/api-contract/routes';

/** Paths a signed-in rider has no business on: they go home instead (spec 4). */
export const DEFAULT_WHITE_LIST: readonly string[] = ['/login'];

/** The signed-in area: every path the athlete portal owns on the one origin. */
export const requiresLogin = (path: string) => ownerOfPath(path) === 'athlete-portal';

export interface NavigationInput {
  /** Where the navigation goes: path with search, as the router has it. */
  readonly to: string;
  /** Where it comes from; null on the first page load. */
  readonly from: string | null;
  readonly loggedIn: boolean;
  readonly whiteList?: readonly string[];
  readonly requiresLogin?: (path: string) => boolean;
  /** Where a signed-in rider lands instead of a white-listed path. */
  readonly home?: string;
}

export type NavigationDecision =
  | {
      readonly action: 'proceed';
      /** The path to record as the previous path once the navigation is done. */
      readonly previousPath: string | null;
    }
  | {
      readonly action: 'redirect';
      readonly to: string;
      /** Replace the history entry, so Back does not return to the refused page. */
      readonly replace: true;
      /** Spec 4's no-go-back flag: the login page offers no way back to where it came from. */
      readonly noGoBack: boolean;
    };

const pathOf = (to: string) => to.split(/[?#]/, 1)[0] ?? '/';

/** The login page that brings the rider back to `returnTo` (path with search) afterwards. */
export const loginPathFor = (returnTo: string) => `/login?redirect=${encodeURIComponent(returnTo)}`;

/**
 * The navigation guard of spec 4 as a pure function, for both apps' routers: a signed-in
 * rider going to a white-listed path (login) goes home; a visitor going to a signed-in path
 * goes to /login with the no-go-back flag and the path to return to after login; anything
 * else proceeds.
 *
 * @example
 * guardNavigation({ to: '/dashboard/main', from: '/', loggedIn: false });
 * // { action: 'redirect', to: '/login?redirect=%2Fdashboard%2Fmain', replace: true, noGoBack: true }
 */
export function guardNavigation(input: NavigationInput): NavigationDecision {
  const path = pathOf(input.to);
  const whiteList = input.whiteList ?? DEFAULT_WHITE_LIST;
  const needsLogin = input.requiresLogin ?? requiresLogin;
  if (input.loggedIn && whiteList.includes(path))
    return { action: 'redirect', to: input.home ?? '/', replace: true, noGoBack: false };
  if (!input.loggedIn && needsLogin(path))
    return {
      action: 'redirect',
      to: loginPathFor(input.to),
      replace: true,
      noGoBack: true,
    };
  return { action: 'proceed', previousPath: input.from };
}

/**
 * Where to go after a successful login: the `redirect` parameter when it is a path of this
 * origin (never another site, never back to /login), else `fallback`.
 */
export function returnPathAfterLogin(search: string, fallback = '/dashboard/main'): string {
  const target = new URLSearchParams(search).get('redirect');
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.includes('\\'))
    return fallback;
  return pathOf(target) === '/login' ? fallback : target;
}
