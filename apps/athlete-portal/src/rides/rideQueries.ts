import type { StreamName } from '@xoss/api-contract';
import { api, client } from '../client.ts';

/**
 * The ride page's calls, shared by the page and its route's loader: the loader starts them
 * with the navigation, while the page's chunk is still loading, and the page's hooks find
 * them in the cache (same arguments, same cache entry).
 */

/**
 * Points per stream the charts ask for: four per CSS pixel of the window's width (each
 * bucket keeps its minimum and its maximum, and a zoom to a quarter still has one per
 * pixel), from 1,000 on a phone's width to 4,000 on a wide screen.
 */
const ridePoints = (width: number) =>
  Math.min(4000, Math.max(1000, Math.round((width * 4) / 100) * 100));

/** Fixed once per page load, so the loader's prefetch and the page's hooks share an entry. */
const RIDE_POINTS = ridePoints(typeof window === 'undefined' ? 1280 : window.innerWidth);

/**
 * The streams the ride page draws (the charts, muscle oxygen among them, and the map's
 * track): the ride's others (distance, grade, temperature, pedalling dynamics) stay on the
 * server.
 */
const RIDE_STREAMS: StreamName[] = [
  'time',
  'speed',
  'altitude',
  'heart_rate',
  'cadence',
  'power',
  'latitude',
  'longitude',
  'smo2',
  'thb',
];

/** The owner's page also draws the W' balance (computed by the API from the ride's power). */
const OWN_RIDE_STREAMS: StreamName[] = [...RIDE_STREAMS, 'w_bal'];

export const ownRide = (id: number) => ({
  workout: { params: { id } },
  streams: { params: { id }, query: { points: RIDE_POINTS, streams: OWN_RIDE_STREAMS } },
});

export const sharedRide = (shareId: string) => ({
  workout: { params: { share_id: shareId } },
  streams: { params: { share_id: shareId }, query: { points: RIDE_POINTS, streams: RIDE_STREAMS } },
});

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

/** The power-curve page's first call (compared with the last 6 weeks, as the page opens). */
export const curvesOf = (id: number) => ({
  params: { id },
  query: { compare: 'last6weeks' as const },
});

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

/** A ride page opened through its share link (`?share=<share id>`). */
export const isSharedRideLink = (url: URL) =>
  /^\/dashboard\/workouts\/share\/\d+\/?$/.test(url.pathname) &&
  /^[A-Za-z0-9_-]{16,64}$/.test(url.searchParams.get('share') ?? '');

/**
 * A ride page's first work, run by its route's loader: its calls start with the navigation,
 * beside the page's chunk (the page's hooks then find them in flight or cached), and once the
 * ride's streams are in, the map's chunk follows (OpenLayers, after the data the charts need
 * rather than beside it).
 */
export function startRidePage(url: URL): void {
  const [, page, rawId] =
    /^\/dashboard\/workouts\/(share|powerCurve|indoor\/model)\/(\d+)\/?$/.exec(url.pathname) ?? [];
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
