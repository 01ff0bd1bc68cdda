import {
  createApi,
  type BaseQueryFn,
  type MutationDefinition,
  type QueryDefinition,
} from '@reduxjs/toolkit/query/react';
import { routes, type ArgsOf, type EndpointName, type ReplyOf } from '@xoss/api-contract/routes';
import type { ApiFailure, Transport } from './transport.ts';

/** What an endpoint of the slice hands to the base query. */
export interface CallArgs {
  readonly name: EndpointName;
  readonly arg: unknown;
  readonly headers?: Record<string, string>;
}

export const tagTypes = [
  'Athlete',
  'Workout',
  'Device',
  'Layout',
  'Routebook',
  'Post',
  'Comment',
  'MapRegion',
  'PrivacyZone',
  'Session',
] as const;

const LIST = 'LIST';

/** How long a ride's streams and curves stay cached once no page shows them (seconds). */
export const RIDE_CACHE_S = 600;

/** The RTK Query base query: every call goes through the transport's re-authentication. */
export function transportBaseQuery(
  transport: Transport,
): BaseQueryFn<CallArgs, unknown, ApiFailure> {
  return async ({ name, arg, headers }, api) => {
    const result = await transport.call(name, arg as never, {
      signal: api.signal,
      ...(headers ? { headers } : {}),
    });
    // RTK Query's own shape for a base query: `data` or `error`.
    return result.ok ? { data: result.value } : { error: result.error };
  };
}

type Id = { params: { id: number | string } };
const idOf = (arg: Id) => Number(arg.params.id);

/** Calls outside the slice: auth (`XossClient.logIn`, `logOut`) and file downloads. */
type AuthEndpoint = 'login' | 'refresh' | 'logout';
type FileEndpoint = {
  [N in EndpointName]: (typeof routes)[N] extends { readonly reply: 'binary' } ? N : never;
}[EndpointName];
/** Every other endpoint of the contract is in the slice. */
export type SliceEndpoint = Exclude<EndpointName, AuthEndpoint | FileEndpoint>;

/** What a slice endpoint takes: the contract's arguments (an import may add its key). */
type SliceArgs<N extends SliceEndpoint> = N extends 'importWorkout'
  ? ArgsOf<N> & { idempotencyKey?: string }
  : ArgsOf<N>;

type Tag = (typeof tagTypes)[number];
type Tags<N extends SliceEndpoint> =
  | readonly (Tag | { type: Tag; id: string | number })[]
  | ((
      reply: ReplyOf<N> | undefined,
      error: ApiFailure | undefined,
      arg: SliceArgs<N>,
    ) => readonly (Tag | { type: Tag; id: string | number })[]);

/** How the slice caches an endpoint: the tags it provides or invalidates, how long it stays. */
interface Policy<N extends SliceEndpoint> {
  readonly providesTags?: Tags<N>;
  readonly invalidatesTags?: Tags<N>;
  readonly keepUnusedDataFor?: number;
  /** What it hands the base query, when more than the contract's arguments. */
  readonly query?: (arg: SliceArgs<N>) => CallArgs;
}

type BaseQuery = BaseQueryFn<CallArgs, unknown, ApiFailure>;
/** The slice's definitions, one per slice endpoint: a query for GET, else a mutation. */
type Definitions = {
  [N in SliceEndpoint]: (typeof routes)[N]['method'] extends 'GET'
    ? QueryDefinition<SliceArgs<N>, BaseQuery, Tag, ReplyOf<N>, 'xossApi'>
    : MutationDefinition<SliceArgs<N>, BaseQuery, Tag, ReplyOf<N>, 'xossApi'>;
};

const listOf = <T extends Tag>(type: T) => ({ type, id: LIST });
const workoutList = [listOf('Workout')] as const;

/**
 * The cache policy of each slice endpoint, the one thing the client adds to the contract's
 * table: tags keep lists and details in step (a removed device leaves the list, a saved
 * layout refreshes, a changed FTP recomputes every workout's zones). An endpoint added to
 * the contract is in the slice at once, uncached until it gets a policy here.
 */
const policies: { readonly [N in SliceEndpoint]?: Policy<N> } = {
  getAthlete: { providesTags: ['Athlete'] },
  // A password change signs the other sessions out; the list follows.
  changePassword: { invalidatesTags: ['Session'] },
  listSessions: { providesTags: ['Session'] },
  signOutSession: { invalidatesTags: ['Session'] },
  signOutOtherSessions: { invalidatesTags: ['Session'] },
  // Zones follow FTP and max HR.
  patchAthlete: { invalidatesTags: ['Athlete', 'Workout'] },
  listWorkouts: {
    providesTags: (reply) => [
      listOf('Workout'),
      ...(reply?.results ?? []).map((w) => ({ type: 'Workout' as const, id: w.id })),
    ],
  },
  workoutTotals: { providesTags: workoutList },
  importWorkout: {
    query: ({ idempotencyKey, ...arg }) => ({
      name: 'importWorkout',
      arg,
      ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}),
    }),
    invalidatesTags: workoutList,
  },
  getWorkout: { providesTags: (_r, _e, arg) => [{ type: 'Workout', id: idOf(arg) }] },
  patchWorkout: {
    invalidatesTags: (_r, _e, arg) => [{ type: 'Workout', id: idOf(arg) }, listOf('Workout')],
  },
  deleteWorkout: {
    invalidatesTags: (_r, _e, arg) => [{ type: 'Workout', id: idOf(arg) }, listOf('Workout')],
  },
  // A ride's streams never change after import: going back to a ride within the session
  // draws it from the cache (a delete still drops it through its tag).
  workoutStreams: {
    keepUnusedDataFor: RIDE_CACHE_S,
    providesTags: (_r, _e, arg) => [{ type: 'Workout', id: idOf(arg) }],
  },
  workoutRange: { providesTags: (_r, _e, arg) => [{ type: 'Workout', id: idOf(arg) }] },
  powerCurve: {
    keepUnusedDataFor: RIDE_CACHE_S,
    providesTags: (_r, _e, arg) => [{ type: 'Workout', id: idOf(arg) }, listOf('Workout')],
  },
  // Training over time follows every import, delete and threshold change.
  workoutBests: { providesTags: workoutList },
  trainingFitness: { providesTags: workoutList },
  trainingLog: { providesTags: workoutList },
  trainingTotals: { providesTags: workoutList },
  personalBests: { providesTags: workoutList },
  ftpEstimate: { providesTags: [listOf('Workout'), 'Athlete'] },
  // The power model and a ride's analysis follow imports, deletes and threshold changes.
  powerModel: { providesTags: workoutList },
  powerModelHistory: { providesTags: workoutList },
  trainingEfficiency: { providesTags: workoutList },
  bestClimbs: { providesTags: workoutList },
  workoutAnalysis: {
    providesTags: (_r, _e, arg) => [
      { type: 'Workout', id: idOf(arg) },
      listOf('Workout'),
      'Athlete',
    ],
  },
  unshareAll: { invalidatesTags: workoutList },
  listPrivacyZones: { providesTags: [listOf('PrivacyZone')] },
  createPrivacyZone: { invalidatesTags: [listOf('PrivacyZone')] },
  deletePrivacyZone: { invalidatesTags: [listOf('PrivacyZone')] },
  listDevices: {
    providesTags: (reply) => [
      listOf('Device'),
      ...(reply?.results ?? []).map((d) => ({ type: 'Device' as const, id: d.id })),
    ],
  },
  bindDevice: { invalidatesTags: [listOf('Device')] },
  getDevice: { providesTags: (_r, _e, arg) => [{ type: 'Device', id: idOf(arg) }] },
  deleteDevice: {
    invalidatesTags: (_r, _e, arg) => [
      { type: 'Device', id: idOf(arg) },
      listOf('Device'),
      { type: 'Layout', id: idOf(arg) },
    ],
  },
  getLayout: { providesTags: (_r, _e, arg) => [{ type: 'Layout', id: idOf(arg) }] },
  putLayout: { invalidatesTags: (_r, _e, arg) => [{ type: 'Layout', id: idOf(arg) }] },
  listRoutebooks: {
    providesTags: (reply) => [
      listOf('Routebook'),
      ...(reply?.results ?? []).map((r) => ({ type: 'Routebook' as const, id: r.id })),
    ],
  },
  uploadRoutebook: { invalidatesTags: [listOf('Routebook')] },
  getRoutebook: { providesTags: (_r, _e, arg) => [{ type: 'Routebook', id: idOf(arg) }] },
  patchRoutebook: {
    invalidatesTags: (_r, _e, arg) => [{ type: 'Routebook', id: idOf(arg) }, listOf('Routebook')],
  },
  deleteRoutebook: {
    invalidatesTags: (_r, _e, arg) => [{ type: 'Routebook', id: idOf(arg) }, listOf('Routebook')],
  },
  sendRoutebook: {
    invalidatesTags: (_r, _e, arg) => [{ type: 'Routebook', id: idOf(arg) }, listOf('Routebook')],
  },
  mapRegions: { providesTags: ['MapRegion'] },
  listPosts: {
    providesTags: (reply) => [
      listOf('Post'),
      ...(reply?.results ?? []).map((p) => ({ type: 'Post' as const, id: p.id })),
    ],
  },
  getPost: { providesTags: (_r, _e, arg) => [{ type: 'Post', id: idOf(arg) }] },
  createPost: { invalidatesTags: [listOf('Post')] },
  likePost: { invalidatesTags: (_r, _e, arg) => [{ type: 'Post', id: idOf(arg) }] },
  unlikePost: { invalidatesTags: (_r, _e, arg) => [{ type: 'Post', id: idOf(arg) }] },
  listComments: { providesTags: (_r, _e, arg) => [{ type: 'Comment', id: idOf(arg) }] },
  createComment: {
    invalidatesTags: (_r, _e, arg) => [
      { type: 'Comment', id: idOf(arg) },
      { type: 'Post', id: idOf(arg) },
    ],
  },
};

/** The contract's endpoints the slice holds, in the table's order. */
export const sliceEndpoints = (Object.keys(routes) as EndpointName[]).filter(
  (name): name is SliceEndpoint =>
    !['login', 'refresh', 'logout'].includes(name) &&
    (routes[name] as { reply?: string }).reply !== 'binary',
);

/**
 * Builds the api slice from the contract's table: one endpoint per API call of
 * `@xoss/api-contract` (auth and file downloads excepted: they are not state, see
 * `XossClient.logIn` and `download`), a query for each GET and a mutation for the rest,
 * cached by `policies`.
 */
export function createXossApi(transport: Transport) {
  return createApi({
    reducerPath: 'xossApi',
    baseQuery: transportBaseQuery(transport),
    tagTypes,
    endpoints: (build) => {
      const definitions: Record<string, unknown> = {};
      for (const name of sliceEndpoints) {
        const { query, ...cache } = (policies[name] ?? {}) as Policy<typeof name>;
        const definition = {
          query: query ?? ((arg: unknown): CallArgs => ({ name, arg })),
          ...cache,
        };
        // The builder's per-endpoint types come from `Definitions` below; the loop cannot
        // carry them, so each definition is built untyped and the whole is typed once.
        definitions[name] =
          routes[name].method === 'GET'
            ? build.query(definition as never)
            : build.mutation(definition as never);
      }
      return definitions as Definitions;
    },
  });
}

export type XossApi = ReturnType<typeof createXossApi>;
