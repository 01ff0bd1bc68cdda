import { z } from './zod.ts';
import { errorEnvelopeSchema, successEnvelope } from './envelope.ts';
import { errorMessage, errorStatus, type ErrorCode } from './errorCodes.ts';
import * as s from './schemas.ts';
import { routes, type Route, type RouteName } from './routeTable.ts';

/** One endpoint of the API: a row of the table docs/api.md points to, with the schemas of its parts. */
export interface Endpoint extends Omit<Route, 'reply'> {
  readonly summary: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  /** JSON body, or `'multipart'` for uploads. */
  readonly body?: z.ZodType | 'multipart';
  /** `data` of the success envelope, or `'binary'` for file downloads. */
  readonly reply: z.ZodType | 'binary';
  readonly errors: readonly ErrorCode[];
}

const id = s.idParamSchema;
const shareParams = z.object({ share_id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });
const authErrors = [10001, 10400, 10404] as const;

/** Every endpoint, grouped by resource (docs/api.md). The server registers routes from this table. */
export const endpoints = {
  login: {
    ...routes.login,
    summary: 'Log in with e-mail and password (spec 7)',
    body: s.loginRequestSchema,
    reply: s.loginReplySchema,
    errors: [10301, 10302, 10400],
  },
  refresh: {
    ...routes.refresh,
    summary: 'Rotate a refresh token; a reused one revokes its family',
    body: s.refreshRequestSchema,
    reply: s.refreshReplySchema,
    errors: [10001, 10400],
  },
  logout: {
    ...routes.logout,
    summary: 'Revoke the family of a refresh token',
    body: s.refreshRequestSchema,
    reply: z.object({}),
    errors: [10400],
  },
  requestPasswordReset: {
    ...routes.requestPasswordReset,
    summary:
      'Mail a one-time link (valid 30 minutes) to set a new password: 202 and the same empty reply whether or not the address has an account; limited per address and per e-mail',
    body: s.passwordResetRequestSchema,
    reply: z.object({}),
    errors: [10302, 10400],
  },
  confirmPasswordReset: {
    ...routes.confirmPasswordReset,
    summary: "Set a new password with a reset link's token (once); every session of the rider ends",
    body: s.passwordResetConfirmSchema,
    reply: z.object({}),
    errors: [10304, 10400, 10503],
  },
  getAthlete: {
    ...routes.getAthlete,
    summary: 'The athlete profile (spec 7)',
    params: id,
    reply: s.athleteSchema,
    errors: [...authErrors, 10403],
  },
  patchAthlete: {
    ...routes.patchAthlete,
    summary: 'Change the name and settings: FTP, max heart rate, units',
    params: id,
    body: s.athletePatchSchema,
    reply: s.athleteSchema,
    errors: [...authErrors, 10403],
  },
  deleteAthlete: {
    ...routes.deleteAthlete,
    summary:
      'Delete the account, given its current password (counted as a log-in attempt): every ride, file, device, routebook, setting, privacy zone, share link, session, comment and like of the rider goes at once, and they cannot sign in again',
    params: id,
    body: s.accountDeleteRequestSchema,
    reply: z.object({}),
    errors: [...authErrors, 10302, 10303, 10403],
  },
  exportAthlete: {
    ...routes.exportAthlete,
    summary:
      "Everything the rider gave us, as a zip: `activities/` (every file as uploaded) and `activities.csv` in Strava's bulk-export layout (so it imports back), `routebooks/` (GPX), and JSON of rides with our figures, profile and threshold history, devices and layouts, privacy zones, comments and likes",
    params: id,
    reply: 'binary',
    errors: [...authErrors, 10403],
  },
  changePassword: {
    ...routes.changePassword,
    summary:
      'Change the password, given the current one (counted as a log-in attempt); every other session of the rider ends, the caller stays signed in',
    body: s.passwordChangeRequestSchema,
    reply: z.object({}),
    errors: [10001, 10302, 10303, 10400, 10503],
  },
  listSessions: {
    ...routes.listSessions,
    summary:
      'The signed-in sessions of the rider, last used first: browser, sign-in and last-use times, last address, and which is the caller',
    reply: z.array(s.accountSessionSchema),
    errors: [10001],
  },
  signOutSession: {
    ...routes.signOutSession,
    summary: "Sign one of the rider's sessions out; its tokens stop working at once",
    params: s.sessionIdParamSchema,
    reply: s.signedOutReplySchema,
    errors: authErrors,
  },
  signOutOtherSessions: {
    ...routes.signOutOtherSessions,
    summary: "Sign out every session of the rider but the caller's",
    reply: s.signedOutReplySchema,
    errors: [10001],
  },
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
  trainingFitness: {
    ...routes.trainingFitness,
    summary:
      'Fitness (CTL), fatigue (ATL), form and ramp rate of each day `[from, to)` from the daily TSS; all time without `from`; at most 7,320 days',
    query: s.fitnessQuerySchema,
    reply: s.fitnessReplySchema,
    errors: [10001, 10400],
  },
  trainingLog: {
    ...routes.trainingLog,
    summary: 'The rides and totals of each day `[from, to)` (at most 62 days) and of its weeks',
    query: s.trainingLogQuerySchema,
    reply: s.trainingLogReplySchema,
    errors: [10001, 10400],
  },
  trainingTotals: {
    ...routes.trainingTotals,
    summary: 'Weekly or monthly totals (time, distance, climbing, TSS) of a year',
    query: s.trainingTotalsQuerySchema,
    reply: s.trainingTotalsReplySchema,
    errors: [10001, 10400],
  },
  personalBests: {
    ...routes.personalBests,
    summary: 'The best efforts of a year or of all time, with their rides',
    query: s.personalBestsQuerySchema,
    reply: s.personalBestsReplySchema,
    errors: [10001, 10400],
  },
  ftpEstimate: {
    ...routes.ftpEstimate,
    summary:
      "The FTP estimate of the season's best efforts by the rider's rule, a suggestion when it beats the FTP in force, and the threshold history",
    query: s.ftpEstimateQuerySchema,
    reply: s.ftpEstimateReplySchema,
    errors: [10001, 10400],
  },
  powerModel: {
    ...routes.powerModel,
    summary:
      "CP, W', Pmax and eFTP of Morton's 3-parameter model fitted to the rider's best power curve of a window (42 days, this year, all time); nulls with a `reason` when there is too little data or the fit is implausible",
    query: s.powerModelQuerySchema,
    reply: s.powerModelReplySchema,
    errors: [10001, 10400],
  },
  powerModelHistory: {
    ...routes.powerModelHistory,
    summary: 'The 42-day power model at the end of each of the last `months` months (at most 24)',
    query: s.powerModelHistoryQuerySchema,
    reply: s.powerModelHistoryReplySchema,
    errors: [10001, 10400],
  },
  trainingEfficiency: {
    ...routes.trainingEfficiency,
    summary:
      'Efficiency factor (NP / mean HR) and aerobic decoupling (Pw:HR) of each ride of `[from, to)` (default: the last 365 days; at most 7,320 days)',
    query: s.efficiencyQuerySchema,
    reply: s.efficiencyReplySchema,
    errors: [10001, 10400],
  },
  bestClimbs: {
    ...routes.bestClimbs,
    summary:
      "The rider's hardest climbs (by length × grade) of a year or of all time, with their rides",
    query: s.bestClimbsQuerySchema,
    reply: s.bestClimbsReplySchema,
    errors: [10001, 10400],
  },
  workoutAnalysis: {
    ...routes.workoutAnalysis,
    summary:
      "A ride's intervals, climbs, matches burnt, W' balance low, aerobic decoupling and efficiency factor, with the CP and W' used and where they come from",
    params: id,
    reply: s.workoutAnalysisSchema,
    errors: authErrors,
  },
  sharedWorkout: {
    ...routes.sharedWorkout,
    summary:
      'A shared workout, while sharing is on: privacy zones and the trimmed start and end removed, heart rate and power as the rider chose, no account data',
    params: shareParams,
    reply: s.sharedWorkoutSchema,
    errors: [10400, 10404],
  },
  sharedWorkoutStreams: {
    ...routes.sharedWorkoutStreams,
    summary: 'The streams of a shared workout',
    params: shareParams,
    query: s.streamsQuerySchema,
    reply: s.streamsReplySchema,
    errors: [10400, 10404],
  },
  sharedWorkoutRange: {
    ...routes.sharedWorkoutRange,
    summary: 'Statistics of a time range of a shared workout',
    params: shareParams,
    query: s.rangeQuerySchema,
    reply: s.rangeReplySchema,
    errors: [10400, 10404],
  },
  sharedWorkoutPreview: {
    ...routes.sharedWorkoutPreview,
    summary: 'The preview image of a shared workout (1200x630 PNG, privacy applied)',
    params: shareParams,
    reply: 'binary',
    errors: [10400, 10404],
  },
  listPrivacyZones: {
    ...routes.listPrivacyZones,
    summary: 'Own privacy zones',
    reply: z.array(s.privacyZoneSchema),
    errors: [10001],
  },
  createPrivacyZone: {
    ...routes.createPrivacyZone,
    summary: 'Add a privacy zone (a point and a radius of 100-5000 m)',
    body: s.privacyZoneCreateSchema,
    reply: s.privacyZoneSchema,
    errors: [10001, 10400],
  },
  deletePrivacyZone: {
    ...routes.deletePrivacyZone,
    summary: 'Remove a privacy zone',
    params: id,
    reply: z.object({}),
    errors: authErrors,
  },
  listDevices: {
    ...routes.listDevices,
    summary: 'Own devices',
    query: s.pageQuerySchema,
    reply: s.pageSchema(s.deviceSchema),
    errors: [10001, 10400],
  },
  bindDevice: {
    ...routes.bindDevice,
    summary: 'Bind a device by serial number and model',
    body: s.deviceBindSchema,
    reply: s.deviceSchema,
    errors: [10001, 10400, 10409],
  },
  getDevice: {
    ...routes.getDevice,
    summary: 'Device settings: model, firmware version, manufacture',
    params: id,
    reply: s.deviceSchema,
    errors: authErrors,
  },
  deleteDevice: {
    ...routes.deleteDevice,
    summary: 'Remove a device and its layout',
    params: id,
    reply: z.object({}),
    errors: authErrors,
  },
  getLayout: {
    ...routes.getLayout,
    summary: "The device's data-layout document (panels.json)",
    params: id,
    reply: s.layoutDocumentSchema,
    errors: authErrors,
  },
  putLayout: {
    ...routes.putLayout,
    summary: "Save the data-layout document, validated against the model's profile",
    params: id,
    body: s.layoutDocumentSchema,
    reply: s.layoutDocumentSchema,
    errors: authErrors,
  },
  listRoutebooks: {
    ...routes.listRoutebooks,
    summary: 'Own routebooks',
    query: s.pageQuerySchema,
    reply: s.pageSchema(s.routebookSchema),
    errors: [10001, 10400],
  },
  uploadRoutebook: {
    ...routes.uploadRoutebook,
    summary: 'Upload a GPX file (field `file`) with a title (required) and a description',
    body: 'multipart',
    reply: s.routebookSchema,
    errors: [10001, 10400, 10413, 10415],
  },
  routebookGpx: {
    ...routes.routebookGpx,
    summary: 'The original GPX file',
    params: id,
    errors: authErrors,
  },
  getRoutebook: {
    ...routes.getRoutebook,
    summary: 'One routebook, with the devices it was sent to',
    params: id,
    reply: s.routebookSchema,
    errors: authErrors,
  },
  patchRoutebook: {
    ...routes.patchRoutebook,
    summary: 'Rename a routebook or change its description',
    params: id,
    body: s.routebookPatchSchema,
    reply: s.routebookSchema,
    errors: authErrors,
  },
  deleteRoutebook: {
    ...routes.deleteRoutebook,
    summary: 'Delete a routebook',
    params: id,
    reply: z.object({}),
    errors: authErrors,
  },
  sendRoutebook: {
    ...routes.sendRoutebook,
    summary:
      "Send to device: mark the routebook for the rider's device (`device_id`), which takes it at its next sync; sending again after a sync sends it again",
    params: id,
    body: s.routebookSendSchema,
    reply: s.routebookSchema,
    errors: authErrors,
  },
  deviceRoutebooks: {
    ...routes.deviceRoutebooks,
    summary:
      'For the phone app: the routebooks waiting for this device (marked and not yet synced), oldest first, each with its GPX download link',
    params: id,
    reply: z.array(s.deviceRoutebookSchema),
    errors: authErrors,
  },
  deviceRoutebooksSynced: {
    ...routes.deviceRoutebooksSynced,
    summary:
      'For the phone app: acknowledge routebooks copied onto this device (`routebook_ids`); they leave its waiting list',
    params: id,
    body: s.deviceRoutebooksSyncedSchema,
    reply: z.object({ synced: z.number().int() }),
    errors: authErrors,
  },
  mapRegions: {
    ...routes.mapRegions,
    summary: 'Map regions per model (NAV+ areas, SPRINT regions) with sizes',
    query: s.mapRegionQuerySchema,
    reply: z.array(s.mapRegionSchema),
    errors: [10400],
  },
  mapDownload: {
    ...routes.mapDownload,
    summary: "The region's map package (range requests supported)",
    params: id,
    errors: [10400, 10404],
  },
  listPosts: {
    ...routes.listPosts,
    summary: 'Articles, newest first',
    query: s.postListQuerySchema,
    reply: s.pageSchema(s.postSchema),
    errors: [10400],
  },
  getPost: {
    ...routes.getPost,
    summary: 'One article ("Article id parameter error" for a bad id)',
    params: id,
    reply: s.postSchema,
    errors: [10400, 10404],
  },
  createPost: {
    ...routes.createPost,
    summary: 'Create an article',
    body: s.postCreateSchema,
    reply: s.postSchema,
    errors: [10001, 10400],
  },
  likePost: {
    ...routes.likePost,
    summary: 'Like an article (idempotent)',
    params: id,
    reply: s.likeReplySchema,
    errors: authErrors,
  },
  unlikePost: {
    ...routes.unlikePost,
    summary: 'Take a like back (idempotent)',
    params: id,
    reply: s.likeReplySchema,
    errors: authErrors,
  },
  listComments: {
    ...routes.listComments,
    summary: 'Comments of an article, oldest first',
    params: id,
    query: s.pageQuerySchema,
    reply: s.pageSchema(s.commentSchema),
    errors: [10400, 10404],
  },
  createComment: {
    ...routes.createComment,
    summary: 'Comment on an article (stored verbatim, shown as text)',
    params: id,
    body: s.commentCreateSchema,
    reply: s.commentSchema,
    errors: authErrors,
  },
  health: {
    ...routes.health,
    summary: 'Liveness',
    reply: s.healthReplySchema,
    errors: [],
  },
  ready: {
    ...routes.ready,
    summary: 'Readiness: the database answers, and the database and the file store can write',
    reply: s.readyReplySchema,
    errors: [10500, 10503],
  },
} as const satisfies Record<RouteName, Endpoint>;

export type EndpointName = keyof typeof endpoints;

/** The data type of an endpoint's success reply. */
export type ReplyOf<N extends EndpointName> = (typeof endpoints)[N]['reply'] extends z.ZodType
  ? z.infer<(typeof endpoints)[N]['reply']>
  : Blob;

// Path and query values are coerced from strings on the server, so their zod input type is
// `unknown`; clients pass the parsed types (query members all optional, they have defaults).
type PartOf<
  N extends EndpointName,
  K extends 'params' | 'query' | 'body',
> = (typeof endpoints)[N] extends { readonly [P in K]: infer S }
  ? S extends z.ZodType
    ? K extends 'params'
      ? z.output<S>
      : K extends 'query'
        ? Partial<z.output<S>>
        : z.input<S>
    : S extends 'multipart'
      ? FormData
      : never
  : never;

/**
 * What a client passes to call an endpoint: `params` for the path, `query` (optional, it
 * has defaults) and `body` (JSON, or `FormData` for uploads); `void` when it takes nothing.
 *
 * @example
 * const arg: ArgsOf<'getWorkout'> = { params: { id: 3 } };
 */
export type ArgsOf<N extends EndpointName> = [
  PartOf<N, 'params'> | PartOf<N, 'query'> | PartOf<N, 'body'>,
] extends [never]
  ? void
  : ([PartOf<N, 'params'>] extends [never] ? unknown : { params: PartOf<N, 'params'> }) &
      ([PartOf<N, 'query'>] extends [never] ? unknown : { query?: PartOf<N, 'query'> }) &
      ([PartOf<N, 'body'>] extends [never] ? unknown : { body: PartOf<N, 'body'> });

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;

/** The OpenAPI 3.1 document of the API, generated from the endpoint table and its schemas. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, endpoint] of Object.entries(endpoints) as [EndpointName, Endpoint][]) {
    const parameters: unknown[] = [];
    for (const [where, schema] of [
      ['path', endpoint.params],
      ['query', endpoint.query],
    ] as const) {
      if (!schema) continue;
      const properties = (jsonSchema(schema, 'input').properties ?? {}) as Record<string, unknown>;
      for (const [key, value] of Object.entries(properties))
        parameters.push({ name: key, in: where, required: where === 'path', schema: value });
    }
    const responses: Record<string, unknown> = {
      '200':
        endpoint.reply === 'binary'
          ? {
              description: 'The file',
              content: {
                'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
              },
            }
          : {
              description: 'Success',
              content: {
                'application/json': {
                  schema: jsonSchema(successEnvelope(endpoint.reply), 'output'),
                },
              },
            },
    };
    for (const code of endpoint.errors) {
      const status = String(errorStatus[code]);
      const existing = responses[status] as { description: string } | undefined;
      responses[status] = {
        description: existing
          ? `${existing.description}, ${code} ${errorMessage[code]}`
          : `${code} ${errorMessage[code]}`,
        content: { 'application/json': { schema: jsonSchema(errorEnvelopeSchema, 'output') } },
      };
    }
    const body =
      endpoint.body === 'multipart'
        ? { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } }
        : endpoint.body
          ? {
              required: true,
              content: { 'application/json': { schema: jsonSchema(endpoint.body, 'input') } },
            }
          : undefined;
    paths[endpoint.path] ??= {};
    paths[endpoint.path]![endpoint.method.toLowerCase()] = {
      operationId: name,
      summary: endpoint.summary,
      ...(endpoint.access === 'public' ? {} : { security: [{ bearer: [] }] }),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(body ? { requestBody: body } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'XOSS API', version: '2.0.0' },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
    paths,
  };
}
