import { api, client } from '../client.ts';

/**
 * The ride page's calls, shared by the page and its route's loader: the loader starts them
 * with the navigation, while the page's chunk is still loading, and the page's hooks find
 * them in the cache (same arguments, same cache entry).
 */

/** Points per stream the charts ask for: about two per pixel of a wide screen. */
export const RIDE_POINTS = 4000;

export const ownRide = (id: number) => ({
  workout: { params: { id } },
  streams: { params: { id }, query: { points: RIDE_POINTS } },
});

export const sharedRide = (shareId: string) => ({
  workout: { params: { share_id: shareId } },
  streams: { params: { share_id: shareId }, query: { points: RIDE_POINTS } },
});

/** Starts the ride's calls: the owner's when signed in, the public copy for a share link. */
export function prefetchRide(id: number, shareId: string | null, signedIn: boolean): void {
  const { dispatch } = client.store;
  if (shareId) {
    const args = sharedRide(shareId);
    dispatch(api.util.prefetch('sharedWorkout', args.workout, {}));
    dispatch(api.util.prefetch('sharedWorkoutStreams', args.streams, {}));
  } else if (signedIn && Number.isInteger(id) && id > 0) {
    const args = ownRide(id);
    dispatch(api.util.prefetch('getWorkout', args.workout, {}));
    dispatch(api.util.prefetch('workoutStreams', args.streams, {}));
  }
}
