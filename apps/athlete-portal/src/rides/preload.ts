// What a ride page starts with its navigation (its route's loader, and the first page load):
// the ride's calls and the page's chunk side by side. Apart from the queries, which the pages
// import: the pages' chunks are imported from here, and the pages never import this.
import { api, client } from '../client.ts';
import { curvesOf, isSharedRideLink, ownRide, sharedRide } from './rideQueries.ts';

/**
 * Starts the ride's calls: the owner's when signed in, the public copy for a share link.
 * Settles when the streams have arrived (or failed): the route then fetches the map's chunk,
 * after the data the charts need rather than beside it.
 */
function prefetchRide(id: number, shareId: string | null, signedIn: boolean): Promise<unknown> {
  const { dispatch } = client.store;
  if (shareId) {
    const args = sharedRide(shareId);
    dispatch(api.util.prefetch('sharedWorkout', args.workout, {}));
    return dispatch(
      api.endpoints.sharedWorkoutStreams.initiate(args.streams, { subscribe: false }),
    );
  }
  if (signedIn && Number.isInteger(id) && id > 0) {
    const args = ownRide(id);
    dispatch(api.util.prefetch('getWorkout', args.workout, {}));
    return dispatch(api.endpoints.workoutStreams.initiate(args.streams, { subscribe: false }));
  }
  return Promise.resolve();
}

/**
 * Starts a ride's summary or curves call with the navigation, beside the page's chunk (the
 * page's hook then finds it in the cache): one round trip fewer before the page draws.
 */
function prefetchRidePage(page: 'summary' | 'curves', id: number): void {
  if (!client.session.isLoggedIn() || !Number.isInteger(id) || id <= 0) return;
  const { dispatch } = client.store;
  if (page === 'summary') dispatch(api.util.prefetch('getWorkout', { params: { id } }, {}));
  else dispatch(api.util.prefetch('powerCurve', curvesOf(id), {}));
}

/**
 * A ride page's first work, run by its route's loader: its calls start with the navigation,
 * beside the page's chunk (the page's hooks then find them in flight or cached), and once the
 * ride's streams are in, the map's chunk follows (OpenLayers, after the data the charts need
 * rather than beside it).
 */
export function startRidePage(url: URL): void {
  const [, page, rawId] =
    /^\/dashboard\/workouts\/(share|powerCurve|indoor\/model)\/(\d+|ride)\/?$/.exec(url.pathname) ??
    [];
  const id = Number(rawId);
  // A visitor is on the way to /login: nothing to start (a share link opens for anyone).
  if (!client.session.isLoggedIn() && !isSharedRideLink(url)) return;
  if (page === 'share') {
    void import('./WorkoutShare.tsx');
    void prefetchRide(
      id,
      isSharedRideLink(url) ? url.searchParams.get('share') : null,
      client.session.isLoggedIn(),
    ).then(() => import('./RideMap.tsx'));
  } else if (page === 'powerCurve') {
    void import('./PowerCurve.tsx');
    prefetchRidePage('curves', id);
  } else if (page === 'indoor/model') {
    void import('./IndoorSummary.tsx');
    prefetchRidePage('summary', id);
  }
}
