import { z } from '../zod.ts';
import * as s from '../schemas.ts';
import { routes } from '../routeTable.ts';
import { authErrors, id, type EndpointGroup } from './endpoint.ts';

/** Rides: the list and totals, imports (one file or an export archive), a ride, its streams, ranges, curves and bests. */
export const workoutEndpoints = {
  listWorkouts: {
    ...routes.listWorkouts,
    summary: 'Own workouts, newest first, filtered by sport type and date',
    query: s.workoutListQuerySchema,
    reply: s.pageSchema(s.workoutListItemSchema),
    errors: [10001, 10400],
  },
  workoutTotals: {
    ...routes.workoutTotals,
    summary: 'Count, distance, moving time and climbing of own workouts, same filter as the list',
    query: s.workoutTotalsQuerySchema,
    reply: s.workoutTotalsSchema,
    errors: [10001, 10400],
  },
  importWorkout: {
    ...routes.importWorkout,
    summary:
      'Import an activity file: FIT, TCX or GPX with times, each also as .gz (multipart field `file`; optional `Idempotency-Key` header: 8-64 letters, digits, `-` or `_`; reused with another file is 10422); a damaged FIT file is read up to the damage; a file with several activities (chained FIT, several TCX `<Activity>`) makes a ride of each, the others queued (`other_activities`); the same file imported again is 10409 with `existing_id`, the ride that holds it',
    body: 'multipart',
    reply: s.workoutImportReplySchema,
    errors: [10001, 10400, 10409, 10413, 10415, 10422, 10503],
  },
  createArchiveImport: {
    ...routes.createArchiveImport,
    summary:
      "Import a whole export archive (multipart field `file`, up to 4 GB): Strava's bulk export (`activities.csv` and `activities/` with FIT, TCX and GPX, each maybe .gz) or Garmin Connect's (nested zips of FIT files). Answers 202 at once; each activity is then imported on the queue, names, sport, description and gear from activities.csv",
    body: 'multipart',
    reply: s.archiveCreatedSchema,
    errors: [10001, 10400, 10413, 10415, 10503],
  },
  getArchiveImport: {
    ...routes.getArchiveImport,
    summary: "An archive import's progress: counts, and each failure with its reason",
    params: s.archiveIdParamSchema,
    reply: s.archiveImportSchema,
    errors: [...authErrors, 10404],
  },
  cancelArchiveImport: {
    ...routes.cancelArchiveImport,
    summary: 'Stop an archive import: activities not yet imported are not; those imported stay',
    params: s.archiveIdParamSchema,
    reply: s.archiveImportSchema,
    errors: [...authErrors, 10404],
  },
  unshareAll: {
    ...routes.unshareAll,
    summary: 'Stop sharing every ride: their links stop working at once',
    reply: s.unshareAllReplySchema,
    errors: [10001],
  },
  getWorkout: {
    ...routes.getWorkout,
    summary: 'Summary, zones and the device-computed values',
    params: id,
    reply: s.workoutDetailSchema,
    errors: authErrors,
  },
  patchWorkout: {
    ...routes.patchWorkout,
    summary: 'Rename; turn sharing on or off',
    params: id,
    body: s.workoutPatchSchema,
    reply: s.workoutDetailSchema,
    errors: authErrors,
  },
  deleteWorkout: {
    ...routes.deleteWorkout,
    summary: 'Delete a workout with its file, streams and curves',
    params: id,
    reply: z.object({}),
    errors: authErrors,
  },
  workoutStreams: {
    ...routes.workoutStreams,
    summary:
      'Columnar streams, downsampled to at most `points` per stream (default 4000, at most 20,000), each rounded to its resolution (`STREAM_DECIMALS`); `streams` names the ones to send',
    params: id,
    query: s.streamsQuerySchema,
    reply: s.streamsReplySchema,
    errors: authErrors,
  },
  workoutFile: {
    ...routes.workoutFile,
    summary: 'The original file as uploaded (FIT, TCX or GPX, possibly .gz)',
    params: id,
    errors: authErrors,
  },
  workoutRange: {
    ...routes.workoutRange,
    summary: 'Statistics of a time range of the ride, on the full-resolution streams',
    params: id,
    query: s.rangeQuerySchema,
    reply: s.rangeReplySchema,
    errors: authErrors,
  },
  powerCurve: {
    ...routes.powerCurve,
    summary:
      'Mean-max power and speed curves at log-spaced durations (`points`, default 200), or at one duration (`at`), exact at each; with the best curves of a comparison period (one stored row per period)',
    params: id,
    query: s.powerCurveQuerySchema,
    reply: s.powerCurveReplySchema,
    errors: authErrors,
  },
  workoutBests: {
    ...routes.workoutBests,
    summary:
      "A ride's best efforts (power over 5 s-60 min, time over 10-40 km) and their rank in its year and of all time",
    params: id,
    reply: s.workoutBestsReplySchema,
    errors: authErrors,
  },
} as const satisfies EndpointGroup;
