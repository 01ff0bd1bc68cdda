// Which ride page an address opens, the calls it starts with and the chunks it needs: read
// by the portal's small entry (`firstLoad.ts`, before the application has loaded) and by the
// ride routes' loader (`preload.ts`, on each navigation), so both start the same requests.
// Imports no store and no React: the entry stays small.
import type { ArgsOf } from '@xoss/api-contract/routes';
import { curvesOf, isSharedRideLink, ownRide, sharedRide } from './rideQueries.ts';

export type RidePageName = 'share' | 'powerCurve' | 'summary';

/** A ride page's first calls: each a read the page's hooks make with these arguments. */
export type RideCall =
  | { readonly name: 'getWorkout'; readonly arg: ArgsOf<'getWorkout'> }
  | { readonly name: 'workoutStreams'; readonly arg: ArgsOf<'workoutStreams'> }
  | { readonly name: 'sharedWorkout'; readonly arg: ArgsOf<'sharedWorkout'> }
  | { readonly name: 'sharedWorkoutStreams'; readonly arg: ArgsOf<'sharedWorkoutStreams'> }
  | { readonly name: 'powerCurve'; readonly arg: ArgsOf<'powerCurve'> };

export interface RidePagePlan {
  readonly page: RidePageName;
  /** Started with the navigation, beside the page's chunk. */
  readonly calls: readonly RideCall[];
  /** The call whose reply the map's chunk waits for (the ride page's streams). */
  readonly mapAfter?: RideCall;
}

/**
 * The ride page `url` opens and its first calls, or `null` for another page or when there
 * is nothing to start: a visitor on the way to /login (a share link opens for anyone).
 */
export function ridePagePlan(url: URL, signedIn: boolean): RidePagePlan | null {
  const [, page, rawId] =
    /^\/dashboard\/workouts\/(share|powerCurve|indoor\/model)\/(\d+|ride)\/?$/.exec(url.pathname) ??
    [];
  const id = Number(rawId);
  const shareId = isSharedRideLink(url) ? url.searchParams.get('share') : null;
  if (!signedIn && !shareId) return null;
  const ownId = signedIn && Number.isInteger(id) && id > 0 ? id : null;
  if (page === 'share') {
    if (shareId) {
      const args = sharedRide(shareId);
      const streams: RideCall = { name: 'sharedWorkoutStreams', arg: args.streams };
      return {
        page,
        calls: [{ name: 'sharedWorkout', arg: args.workout }, streams],
        mapAfter: streams,
      };
    }
    if (ownId === null) return { page, calls: [] };
    const args = ownRide(ownId);
    const streams: RideCall = { name: 'workoutStreams', arg: args.streams };
    return { page, calls: [{ name: 'getWorkout', arg: args.workout }, streams], mapAfter: streams };
  }
  if (page === 'powerCurve')
    return { page, calls: ownId === null ? [] : [{ name: 'powerCurve', arg: curvesOf(ownId) }] };
  if (page === 'indoor/model')
    return {
      page: 'summary',
      calls: ownId === null ? [] : [{ name: 'getWorkout', arg: { params: { id: ownId } } }],
    };
  return null;
}

// One function per page: each import keeps its own list of the chunks it needs (the bundler
// fetches them beside it); a single expression choosing between them shared one list.
const pageChunks: Readonly<Record<RidePageName, () => Promise<unknown>>> = {
  share: () => import('./WorkoutShare.tsx'),
  powerCurve: () => import('./PowerCurve.tsx'),
  summary: () => import('./IndoorSummary.tsx'),
};

/** Fetches a ride page's chunk and the chunks it imports, side by side. */
export const loadRidePage = (page: RidePageName): Promise<unknown> => pageChunks[page]();
