// The method, path and access of every API call, without a schema: what a client needs to
// send a request. Kept apart from `endpoints.ts` so a browser bundle that only calls the API
// (the api-client) does not build zod's schemas at start-up; `endpoints.ts` spreads each
// entry here into its full definition, so this table is the one source of paths.

/** Who may call an endpoint: anyone, any signed-in user, or the owner of the resource. */
export type Access = 'public' | 'bearer' | 'owner';

/** Where and how an endpoint is called; `reply: 'binary'` for file downloads. */
export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI-style path with `{param}`s and the trailing slash of the spec. */
  readonly path: string;
  readonly access: Access;
  readonly reply?: 'binary';
}

/** Every endpoint's route, in the order of the endpoint table. */
export const routes = {
  login: { method: 'POST', path: '/api/v1/jwt-token/', access: 'public' },
  refresh: { method: 'POST', path: '/api/v1/jwt-token/refresh/', access: 'public' },
  logout: { method: 'POST', path: '/api/v1/jwt-token/logout/', access: 'public' },
  requestPasswordReset: { method: 'POST', path: '/api/v1/password-reset/', access: 'public' },
  confirmPasswordReset: {
    method: 'POST',
    path: '/api/v1/password-reset/confirm/',
    access: 'public',
  },
  getAthlete: { method: 'GET', path: '/api/v2/athlete/{id}/', access: 'owner' },
  patchAthlete: { method: 'PATCH', path: '/api/v2/athlete/{id}/', access: 'owner' },
  deleteAthlete: { method: 'DELETE', path: '/api/v2/athlete/{id}/', access: 'owner' },
  exportAthlete: {
    method: 'GET',
    path: '/api/v2/athlete/{id}/export/',
    access: 'owner',
    reply: 'binary',
  },
  changePassword: { method: 'POST', path: '/api/v2/athlete/password/', access: 'bearer' },
  listSessions: { method: 'GET', path: '/api/v2/athlete/sessions/', access: 'bearer' },
  signOutSession: { method: 'DELETE', path: '/api/v2/athlete/sessions/{id}/', access: 'owner' },
  signOutOtherSessions: {
    method: 'POST',
    path: '/api/v2/athlete/sessions/sign-out-others/',
    access: 'bearer',
  },
  listWorkouts: { method: 'GET', path: '/api/v2/workouts/', access: 'bearer' },
  workoutTotals: { method: 'GET', path: '/api/v2/workouts/totals/', access: 'bearer' },
  importWorkout: { method: 'POST', path: '/api/v2/workouts/', access: 'bearer' },
  createArchiveImport: { method: 'POST', path: '/api/v2/imports/archives/', access: 'bearer' },
  getArchiveImport: { method: 'GET', path: '/api/v2/imports/archives/{id}/', access: 'owner' },
  cancelArchiveImport: {
    method: 'DELETE',
    path: '/api/v2/imports/archives/{id}/',
    access: 'owner',
  },
  unshareAll: { method: 'POST', path: '/api/v2/workouts/unshare-all/', access: 'bearer' },
  getWorkout: { method: 'GET', path: '/api/v2/workouts/{id}/', access: 'owner' },
  patchWorkout: { method: 'PATCH', path: '/api/v2/workouts/{id}/', access: 'owner' },
  deleteWorkout: { method: 'DELETE', path: '/api/v2/workouts/{id}/', access: 'owner' },
  workoutStreams: { method: 'GET', path: '/api/v2/workouts/{id}/streams/', access: 'owner' },
  workoutFile: {
    method: 'GET',
    path: '/api/v2/workouts/{id}/fit/',
    access: 'owner',
    reply: 'binary',
  },
  workoutRange: { method: 'GET', path: '/api/v2/workouts/{id}/range/', access: 'owner' },
  powerCurve: { method: 'GET', path: '/api/v2/workouts/{id}/power-curve/', access: 'owner' },
  workoutBests: { method: 'GET', path: '/api/v2/workouts/{id}/bests/', access: 'owner' },
  trainingFitness: { method: 'GET', path: '/api/v2/training/fitness/', access: 'bearer' },
  trainingLog: { method: 'GET', path: '/api/v2/training/log/', access: 'bearer' },
  trainingTotals: { method: 'GET', path: '/api/v2/training/totals/', access: 'bearer' },
  personalBests: { method: 'GET', path: '/api/v2/training/bests/', access: 'bearer' },
  ftpEstimate: { method: 'GET', path: '/api/v2/training/ftp/', access: 'bearer' },
  powerModel: { method: 'GET', path: '/api/v2/training/power-model/', access: 'bearer' },
  powerModelHistory: {
    method: 'GET',
    path: '/api/v2/training/power-model/history/',
    access: 'bearer',
  },
  trainingEfficiency: { method: 'GET', path: '/api/v2/training/efficiency/', access: 'bearer' },
  bestClimbs: { method: 'GET', path: '/api/v2/training/climbs/', access: 'bearer' },
  workoutAnalysis: { method: 'GET', path: '/api/v2/workouts/{id}/analysis/', access: 'owner' },
  sharedWorkout: { method: 'GET', path: '/api/v2/share/workouts/{share_id}/', access: 'public' },
  sharedWorkoutStreams: {
    method: 'GET',
    path: '/api/v2/share/workouts/{share_id}/streams/',
    access: 'public',
  },
  sharedWorkoutRange: {
    method: 'GET',
    path: '/api/v2/share/workouts/{share_id}/range/',
    access: 'public',
  },
  sharedWorkoutPreview: {
    method: 'GET',
    path: '/api/v2/share/workouts/{share_id}/preview.png',
    access: 'public',
    reply: 'binary',
  },
  listPrivacyZones: { method: 'GET', path: '/api/v2/privacy-zones/', access: 'bearer' },
  createPrivacyZone: { method: 'POST', path: '/api/v2/privacy-zones/', access: 'bearer' },
  deletePrivacyZone: { method: 'DELETE', path: '/api/v2/privacy-zones/{id}/', access: 'owner' },
  listDevices: { method: 'GET', path: '/api/v2/devices/', access: 'bearer' },
  bindDevice: { method: 'POST', path: '/api/v2/devices/', access: 'bearer' },
  getDevice: { method: 'GET', path: '/api/v2/devices/{id}/', access: 'owner' },
  deleteDevice: { method: 'DELETE', path: '/api/v2/devices/{id}/', access: 'owner' },
  getLayout: { method: 'GET', path: '/api/v2/devices/{id}/layout/', access: 'owner' },
  putLayout: { method: 'PUT', path: '/api/v2/devices/{id}/layout/', access: 'owner' },
  listRoutebooks: { method: 'GET', path: '/api/v2/routebooks/', access: 'bearer' },
  uploadRoutebook: { method: 'POST', path: '/api/v2/routebooks/', access: 'bearer' },
  routebookGpx: {
    method: 'GET',
    path: '/api/v2/routebooks/{id}/gpx/',
    access: 'owner',
    reply: 'binary',
  },
  getRoutebook: { method: 'GET', path: '/api/v2/routebooks/{id}/', access: 'owner' },
  patchRoutebook: { method: 'PATCH', path: '/api/v2/routebooks/{id}/', access: 'owner' },
  deleteRoutebook: { method: 'DELETE', path: '/api/v2/routebooks/{id}/', access: 'owner' },
  sendRoutebook: { method: 'POST', path: '/api/v2/routebooks/{id}/send/', access: 'owner' },
  deviceRoutebooks: {
    method: 'GET',
    path: '/api/v2/devices/{id}/routebooks/',
    access: 'owner',
  },
  deviceRoutebooksSynced: {
    method: 'POST',
    path: '/api/v2/devices/{id}/routebooks/synced/',
    access: 'owner',
  },
  mapRegions: { method: 'GET', path: '/api/v2/maps/regions/', access: 'public' },
  mapDownload: {
    method: 'GET',
    path: '/api/v2/maps/regions/{id}/download/',
    access: 'public',
    reply: 'binary',
  },
  listPosts: { method: 'GET', path: '/api/v2/posts/', access: 'public' },
  getPost: { method: 'GET', path: '/api/v2/posts/{id}/', access: 'public' },
  createPost: { method: 'POST', path: '/api/v2/posts/', access: 'bearer' },
  likePost: { method: 'POST', path: '/api/v2/posts/{id}/like/', access: 'bearer' },
  unlikePost: { method: 'DELETE', path: '/api/v2/posts/{id}/like/', access: 'bearer' },
  listComments: { method: 'GET', path: '/api/v2/posts/{id}/comments/', access: 'public' },
  createComment: { method: 'POST', path: '/api/v2/posts/{id}/comments/', access: 'bearer' },
  health: { method: 'GET', path: '/api/health', access: 'public' },
  ready: { method: 'GET', path: '/api/ready', access: 'public' },
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof routes;

/** Fills an OpenAPI path's `{params}`: `pathFor('getWorkout', { id: 3 })` → `/api/v2/workouts/3/`. */
export function pathFor(name: RouteName, params: Record<string, string | number> = {}): string {
  return routes[name].path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`pathFor(${name}): missing ${key}`);
    return encodeURIComponent(String(value));
  });
}
