import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import type { ArgsOf, EndpointName, ReplyOf } from '@xoss/api-contract/routes';
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

const call =
  <N extends EndpointName>(name: N) =>
  (arg: ArgsOf<N>): CallArgs => ({ name, arg });

type Id = { params: { id: number | string } };
const idOf = (arg: Id) => Number(arg.params.id);

/**
 * Builds the api slice: one endpoint per API call of `@xoss/api-contract` (file downloads
 * excepted: they are not state, see `XossClient.download`). Tags keep lists and details in
 * step: a removed device leaves the list, a saved layout refreshes, a changed FTP
 * recomputes every workout's zones.
 */
export function createXossApi(transport: Transport) {
  return createApi({
    reducerPath: 'xossApi',
    baseQuery: transportBaseQuery(transport),
    tagTypes,
    endpoints: (build) => ({
      // Auth is in `XossClient.logIn` / `logOut`; these are the raw calls.
      getAthlete: build.query<ReplyOf<'getAthlete'>, ArgsOf<'getAthlete'>>({
        query: call('getAthlete'),
        providesTags: ['Athlete'],
      }),
      patchAthlete: build.mutation<ReplyOf<'patchAthlete'>, ArgsOf<'patchAthlete'>>({
        query: call('patchAthlete'),
        // Zones follow FTP and max HR.
        invalidatesTags: ['Athlete', 'Workout'],
      }),

      listWorkouts: build.query<ReplyOf<'listWorkouts'>, ArgsOf<'listWorkouts'>>({
        query: call('listWorkouts'),
        providesTags: (reply) => [
          { type: 'Workout', id: LIST },
          ...(reply?.results ?? []).map((w) => ({ type: 'Workout' as const, id: w.id })),
        ],
      }),
      workoutTotals: build.query<ReplyOf<'workoutTotals'>, ArgsOf<'workoutTotals'>>({
        query: call('workoutTotals'),
        providesTags: [{ type: 'Workout', id: LIST }],
      }),
      importWorkout: build.mutation<
        ReplyOf<'importWorkout'>,
        ArgsOf<'importWorkout'> & { idempotencyKey?: string }
      >({
        query: ({ idempotencyKey, ...arg }) => ({
          name: 'importWorkout',
          arg,
          ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}),
        }),
        invalidatesTags: [{ type: 'Workout', id: LIST }],
      }),
      getWorkout: build.query<ReplyOf<'getWorkout'>, ArgsOf<'getWorkout'>>({
        query: call('getWorkout'),
        providesTags: (_r, _e, arg) => [{ type: 'Workout', id: idOf(arg) }],
      }),
      patchWorkout: build.mutation<ReplyOf<'patchWorkout'>, ArgsOf<'patchWorkout'>>({
        query: call('patchWorkout'),
        invalidatesTags: (_r, _e, arg) => [
          { type: 'Workout', id: idOf(arg) },
          { type: 'Workout', id: LIST },
        ],
      }),
      deleteWorkout: build.mutation<ReplyOf<'deleteWorkout'>, ArgsOf<'deleteWorkout'>>({
        query: call('deleteWorkout'),
        invalidatesTags: (_r, _e, arg) => [
          { type: 'Workout', id: idOf(arg) },
          { type: 'Workout', id: LIST },
        ],
      }),
      workoutStreams: build.query<ReplyOf<'workoutStreams'>, ArgsOf<'workoutStreams'>>({
        query: call('workoutStreams'),
        // A ride's streams never change after import: going back to a ride within the
        // session draws it from the cache (a delete still drops it through its tag).
        keepUnusedDataFor: RIDE_CACHE_S,
        providesTags: (_r, _e, arg) => [{ type: 'Workout', id: idOf(arg) }],
      }),
      workoutRange: build.query<ReplyOf<'workoutRange'>, ArgsOf<'workoutRange'>>({
        query: call('workoutRange'),
        providesTags: (_r, _e, arg) => [{ type: 'Workout', id: idOf(arg) }],
      }),
      sharedWorkoutRange: build.query<ReplyOf<'sharedWorkoutRange'>, ArgsOf<'sharedWorkoutRange'>>({
        query: call('sharedWorkoutRange'),
      }),
      powerCurve: build.query<ReplyOf<'powerCurve'>, ArgsOf<'powerCurve'>>({
        query: call('powerCurve'),
        keepUnusedDataFor: RIDE_CACHE_S,
        providesTags: (_r, _e, arg) => [
          { type: 'Workout', id: idOf(arg) },
          { type: 'Workout', id: LIST },
        ],
      }),
      // Training over time follows every import, delete and threshold change.
      workoutBests: build.query<ReplyOf<'workoutBests'>, ArgsOf<'workoutBests'>>({
        query: call('workoutBests'),
        providesTags: [{ type: 'Workout', id: LIST }],
      }),
      trainingFitness: build.query<ReplyOf<'trainingFitness'>, ArgsOf<'trainingFitness'>>({
        query: call('trainingFitness'),
        providesTags: [{ type: 'Workout', id: LIST }],
      }),
      trainingLog: build.query<ReplyOf<'trainingLog'>, ArgsOf<'trainingLog'>>({
        query: call('trainingLog'),
        providesTags: [{ type: 'Workout', id: LIST }],
      }),
      trainingTotals: build.query<ReplyOf<'trainingTotals'>, ArgsOf<'trainingTotals'>>({
        query: call('trainingTotals'),
        providesTags: [{ type: 'Workout', id: LIST }],
      }),
      personalBests: build.query<ReplyOf<'personalBests'>, ArgsOf<'personalBests'>>({
        query: call('personalBests'),
        providesTags: [{ type: 'Workout', id: LIST }],
      }),
      ftpEstimate: build.query<ReplyOf<'ftpEstimate'>, ArgsOf<'ftpEstimate'>>({
        query: call('ftpEstimate'),
        providesTags: [{ type: 'Workout', id: LIST }, 'Athlete'],
      }),
      unshareAll: build.mutation<ReplyOf<'unshareAll'>, ArgsOf<'unshareAll'>>({
        query: call('unshareAll'),
        invalidatesTags: [{ type: 'Workout', id: LIST }],
      }),
      listPrivacyZones: build.query<ReplyOf<'listPrivacyZones'>, ArgsOf<'listPrivacyZones'>>({
        query: call('listPrivacyZones'),
        providesTags: [{ type: 'PrivacyZone', id: LIST }],
      }),
      createPrivacyZone: build.mutation<ReplyOf<'createPrivacyZone'>, ArgsOf<'createPrivacyZone'>>({
        query: call('createPrivacyZone'),
        invalidatesTags: [{ type: 'PrivacyZone', id: LIST }],
      }),
      deletePrivacyZone: build.mutation<ReplyOf<'deletePrivacyZone'>, ArgsOf<'deletePrivacyZone'>>({
        query: call('deletePrivacyZone'),
        invalidatesTags: [{ type: 'PrivacyZone', id: LIST }],
      }),
      sharedWorkout: build.query<ReplyOf<'sharedWorkout'>, ArgsOf<'sharedWorkout'>>({
        query: call('sharedWorkout'),
      }),
      sharedWorkoutStreams: build.query<
        ReplyOf<'sharedWorkoutStreams'>,
        ArgsOf<'sharedWorkoutStreams'>
      >({
        query: call('sharedWorkoutStreams'),
      }),

      listDevices: build.query<ReplyOf<'listDevices'>, ArgsOf<'listDevices'>>({
        query: call('listDevices'),
        providesTags: (reply) => [
          { type: 'Device', id: LIST },
          ...(reply?.results ?? []).map((d) => ({ type: 'Device' as const, id: d.id })),
        ],
      }),
      bindDevice: build.mutation<ReplyOf<'bindDevice'>, ArgsOf<'bindDevice'>>({
        query: call('bindDevice'),
        invalidatesTags: [{ type: 'Device', id: LIST }],
      }),
      getDevice: build.query<ReplyOf<'getDevice'>, ArgsOf<'getDevice'>>({
        query: call('getDevice'),
        providesTags: (_r, _e, arg) => [{ type: 'Device', id: idOf(arg) }],
      }),
      deleteDevice: build.mutation<ReplyOf<'deleteDevice'>, ArgsOf<'deleteDevice'>>({
        query: call('deleteDevice'),
        invalidatesTags: (_r, _e, arg) => [
          { type: 'Device', id: idOf(arg) },
          { type: 'Device', id: LIST },
          { type: 'Layout', id: idOf(arg) },
        ],
      }),
      getLayout: build.query<ReplyOf<'getLayout'>, ArgsOf<'getLayout'>>({
        query: call('getLayout'),
        providesTags: (_r, _e, arg) => [{ type: 'Layout', id: idOf(arg) }],
      }),
      putLayout: build.mutation<ReplyOf<'putLayout'>, ArgsOf<'putLayout'>>({
        query: call('putLayout'),
        invalidatesTags: (_r, _e, arg) => [{ type: 'Layout', id: idOf(arg) }],
      }),

      listRoutebooks: build.query<ReplyOf<'listRoutebooks'>, ArgsOf<'listRoutebooks'>>({
        query: call('listRoutebooks'),
        providesTags: (reply) => [
          { type: 'Routebook', id: LIST },
          ...(reply?.results ?? []).map((r) => ({ type: 'Routebook' as const, id: r.id })),
        ],
      }),
      uploadRoutebook: build.mutation<ReplyOf<'uploadRoutebook'>, ArgsOf<'uploadRoutebook'>>({
        query: call('uploadRoutebook'),
        invalidatesTags: [{ type: 'Routebook', id: LIST }],
      }),
      deleteRoutebook: build.mutation<ReplyOf<'deleteRoutebook'>, ArgsOf<'deleteRoutebook'>>({
        query: call('deleteRoutebook'),
        invalidatesTags: (_r, _e, arg) => [
          { type: 'Routebook', id: idOf(arg) },
          { type: 'Routebook', id: LIST },
        ],
      }),

      mapRegions: build.query<ReplyOf<'mapRegions'>, ArgsOf<'mapRegions'>>({
        query: call('mapRegions'),
        providesTags: ['MapRegion'],
      }),

      listPosts: build.query<ReplyOf<'listPosts'>, ArgsOf<'listPosts'>>({
        query: call('listPosts'),
        providesTags: (reply) => [
          { type: 'Post', id: LIST },
          ...(reply?.results ?? []).map((p) => ({ type: 'Post' as const, id: p.id })),
        ],
      }),
      getPost: build.query<ReplyOf<'getPost'>, ArgsOf<'getPost'>>({
        query: call('getPost'),
        providesTags: (_r, _e, arg) => [{ type: 'Post', id: idOf(arg) }],
      }),
      createPost: build.mutation<ReplyOf<'createPost'>, ArgsOf<'createPost'>>({
        query: call('createPost'),
        invalidatesTags: [{ type: 'Post', id: LIST }],
      }),
      likePost: build.mutation<ReplyOf<'likePost'>, ArgsOf<'likePost'>>({
        query: call('likePost'),
        invalidatesTags: (_r, _e, arg) => [{ type: 'Post', id: idOf(arg) }],
      }),
      unlikePost: build.mutation<ReplyOf<'unlikePost'>, ArgsOf<'unlikePost'>>({
        query: call('unlikePost'),
        invalidatesTags: (_r, _e, arg) => [{ type: 'Post', id: idOf(arg) }],
      }),
      listComments: build.query<ReplyOf<'listComments'>, ArgsOf<'listComments'>>({
        query: call('listComments'),
        providesTags: (_r, _e, arg) => [{ type: 'Comment', id: idOf(arg) }],
      }),
      createComment: build.mutation<ReplyOf<'createComment'>, ArgsOf<'createComment'>>({
        query: call('createComment'),
        invalidatesTags: (_r, _e, arg) => [
          { type: 'Comment', id: idOf(arg) },
          { type: 'Post', id: idOf(arg) },
        ],
      }),

      health: build.query<ReplyOf<'health'>, ArgsOf<'health'>>({ query: call('health') }),
      ready: build.query<ReplyOf<'ready'>, ArgsOf<'ready'>>({ query: call('ready') }),
    }),
  });
}

export type XossApi = ReturnType<typeof createXossApi>;
