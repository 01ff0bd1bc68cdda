// What a ride page starts with its navigation (its route's loader): the ride's calls and the
// page's chunk side by side (`ridePagePlan`). Apart from the queries, which the pages
// import: the pages' chunks are imported from here, and the pages never import this.
import { api, client } from '../client.ts';
import { loadRideMap } from './loadRideMap.ts';
import { loadRidePage, ridePagePlan, type RideCall } from './ridePages.ts';

/** Starts one call in the store; settles when its reply (or failure) is in. */
function prefetch(call: RideCall): Promise<unknown> {
  const { dispatch } = client.store;
  const options = { subscribe: false } as const;
  switch (call.name) {
    case 'getWorkout':
      return dispatch(api.endpoints.getWorkout.initiate(call.arg, options));
    case 'workoutStreams':
      return dispatch(api.endpoints.workoutStreams.initiate(call.arg, options));
    case 'sharedWorkout':
      return dispatch(api.endpoints.sharedWorkout.initiate(call.arg, options));
    case 'sharedWorkoutStreams':
      return dispatch(api.endpoints.sharedWorkoutStreams.initiate(call.arg, options));
    case 'powerCurve':
      return dispatch(api.endpoints.powerCurve.initiate(call.arg, options));
  }
}

/**
 * A ride page's first work, run by its route's loader: its calls start with the navigation,
 * beside the page's chunk (the page's hooks then find them in flight or cached; on the first
 * page load, the transport takes the replies the entry started, `firstLoad.ts`), and once
 * the ride's streams are in, the map's chunk follows.
 */
export function startRidePage(url: URL): void {
  const plan = ridePagePlan(url, client.session.isLoggedIn());
  if (!plan) return;
  void loadRidePage(plan.page);
  for (const call of plan.calls) {
    const started = prefetch(call);
    if (call === plan.mapAfter) void started.then(loadRideMap);
  }
}
