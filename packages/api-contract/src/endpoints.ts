import { z } from './zod.ts';
import { errorEnvelopeSchema, successEnvelope } from './envelope.ts';
import { errorMessage, errorStatus, type ErrorCode } from './errorCodes.ts';
import * as s from './schemas.ts';

/** Who may call an endpoint: anyone, any signed-in user, or the owner of the resource. */
export type Access = 'public' | 'bearer' | 'owner';

/** One endpoint of the API: the table api.md shows, with the schemas of its parts. */
export interface Endpoint {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI-style path with `{param}`s and the trailing slash of the spec. */
  readonly path: string;
  readonly access: Access;
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

/** Every endpoint, in api.md's order. The server registers routes from this table. */
export const endpoints = {
  login: {
    method: 'POST',
    path: '/api/v1/jwt-token/',
    access: 'public',
    summary: 'Log in with e-mail and password (spec 7)',
    body: s.loginRequestSchema,
    reply: s.loginReplySchema,
    errors: [10301, 10302, 10400],
  },
  refresh: {
    method: 'POST',
    path: '/api/v1/jwt-token/refresh/',
    access: 'public',
    summary: 'Rotate a refresh token; a reused one revokes its family',
    body: s.refreshRequestSchema,
    reply: s.refreshReplySchema,
    errors: [10001, 10400],
  },
  logout: {
    method: 'POST',
    path: '/api/v1/jwt-token/logout/',
    access: 'public',
    summary: 'Revoke the family of a refresh token',
    body: s.refreshRequestSchema,
    reply: z.object({}),
    errors: [10400],
  },
  getAthlete: {
    method: 'GET',
    path: '/api/v2/athlete/{id}/',
    access: 'owner',
    summary: 'The athlete profile (spec 7)',
    params: id,
    reply: s.athleteSchema,
    errors: [...authErrors, 10403],
  },
  patchAthlete: {
    method: 'PATCH',
    path: '/api/v2/athlete/{id}/',
    access: 'owner',
    summary: 'Change the name and settings: FTP, max heart rate, units',
    params: id,
    body: s.athletePatchSchema,
    reply: s.athleteSchema,
    errors: [...authErrors, 10403],
  },
  listWorkouts: {
    method: 'GET',
    path: '/api/v2/workouts/',
    access: 'bearer',
    summary: 'Own workouts, newest first, filtered by sport type and date',
    query: s.workoutListQuerySchema,
    reply: s.pageSchema(s.workoutListItemSchema),
    errors: [10001, 10400],
  },
  workoutTotals: {
    method: 'GET',
    path: '/api/v2/workouts/totals/',
    access: 'bearer',
    summary: 'Count, distance, moving time and climbing of own workouts, same filter as the list',
    query: s.workoutTotalsQuerySchema,
    reply: s.workoutTotalsSchema,
    errors: [10001, 10400],
  },
  importWorkout: {
    method: 'POST',
    path: '/api/v2/workouts/',
    access: 'bearer',
    summary: 'Import a .FIT file (multipart field `file`; optional `Idempotency-Key` header)',
    body: 'multipart',
    reply: s.workoutDetailSchema,
    errors: [10001, 10400, 10413, 10415],
  },
  getWorkout: {
    method: 'GET',
    path: '/api/v2/workouts/{id}/',
    access: 'owner',
    summary: 'Summary, zones and the device-computed values',
    params: id,
    reply: s.workoutDetailSchema,
    errors: authErrors,
  },
  patchWorkout: {
    method: 'PATCH',
    path: '/api/v2/workouts/{id}/',
    access: 'owner',
    summary: 'Rename; turn sharing on or off',
    params: id,
    body: s.workoutPatchSchema,
    reply: s.workoutDetailSchema,
    errors: authErrors,
  },
  deleteWorkout: {
    method: 'DELETE',
    path: '/api/v2/workouts/{id}/',
    access: 'owner',
    summary: 'Delete a workout with its file, streams and curves',
    params: id,
    reply: z.object({}),
    errors: authErrors,
  },
  workoutStreams: {
    method: 'GET',
    path: '/api/v2/workouts/{id}/streams/',
    access: 'owner',
    summary: 'Columnar streams, optionally downsampled',
    params: id,
    query: s.streamsQuerySchema,
    reply: s.streamsReplySchema,
    errors: authErrors,
  },
  workoutFile: {
    method: 'GET',
    path: '/api/v2/workouts/{id}/fit/',
    access: 'owner',
    summary: 'The original .FIT file',
    params: id,
    reply: 'binary',
    errors: authErrors,
  },
  powerCurve: {
    method: 'GET',
    path: '/api/v2/workouts/{id}/power-curve/',
    access: 'owner',
    summary: 'Mean-max power and speed curves, with a comparison period',
    params: id,
    query: s.powerCurveQuerySchema,
    reply: s.powerCurveReplySchema,
    errors: authErrors,
  },
  sharedWorkout: {
    method: 'GET',
    path: '/api/v2/share/workouts/{share_id}/',
    access: 'public',
    summary: 'A shared workout, while sharing is on',
    params: shareParams,
    reply: s.workoutDetailSchema,
    errors: [10400, 10404],
  },
  sharedWorkoutStreams: {
    method: 'GET',
    path: '/api/v2/share/workouts/{share_id}/streams/',
    access: 'public',
    summary: 'The streams of a shared workout',
    params: shareParams,
    query: s.streamsQuerySchema,
    reply: s.streamsReplySchema,
    errors: [10400, 10404],
  },
  listDevices: {
    method: 'GET',
    path: '/api/v2/devices/',
    access: 'bearer',
    summary: 'Own devices',
    query: s.pageQuerySchema,
    reply: s.pageSchema(s.deviceSchema),
    errors: [10001, 10400],
  },
  bindDevice: {
    method: 'POST',
    path: '/api/v2/devices/',
    access: 'bearer',
    summary: 'Bind a device by serial number and model',
    body: s.deviceBindSchema,
    reply: s.deviceSchema,
    errors: [10001, 10400],
  },
  getDevice: {
    method: 'GET',
    path: '/api/v2/devices/{id}/',
    access: 'owner',
    summary: 'Device settings: model, firmware version, manufacture',
    params: id,
    reply: s.deviceSchema,
    errors: authErrors,
  },
  deleteDevice: {
    method: 'DELETE',
    path: '/api/v2/devices/{id}/',
    access: 'owner',
    summary: 'Remove a device and its layout',
    params: id,
    reply: z.object({}),
    errors: authErrors,
  },
  getLayout: {
    method: 'GET',
    path: '/api/v2/devices/{id}/layout/',
    access: 'owner',
    summary: "The device's data-layout document (panels.json)",
    params: id,
    reply: s.layoutDocumentSchema,
    errors: authErrors,
  },
  putLayout: {
    method: 'PUT',
    path: '/api/v2/devices/{id}/layout/',
    access: 'owner',
    summary: "Save the data-layout document, validated against the model's profile",
    params: id,
    body: s.layoutDocumentSchema,
    reply: s.layoutDocumentSchema,
    errors: authErrors,
  },
  listRoutebooks: {
    method: 'GET',
    path: '/api/v2/routebooks/',
    access: 'bearer',
    summary: 'Own routebooks',
    query: s.pageQuerySchema,
    reply: s.pageSchema(s.routebookSchema),
    errors: [10001, 10400],
  },
  uploadRoutebook: {
    method: 'POST',
    path: '/api/v2/routebooks/',
    access: 'bearer',
    summary: 'Upload a GPX file (field `file`) with a title (required) and a description',
    body: 'multipart',
    reply: s.routebookSchema,
    errors: [10001, 10400, 10413, 10415],
  },
  routebookGpx: {
    method: 'GET',
    path: '/api/v2/routebooks/{id}/gpx/',
    access: 'owner',
    summary: 'The original GPX file',
    params: id,
    reply: 'binary',
    errors: authErrors,
  },
  deleteRoutebook: {
    method: 'DELETE',
    path: '/api/v2/routebooks/{id}/',
    access: 'owner',
    summary: 'Delete a routebook',
    params: id,
    reply: z.object({}),
    errors: authErrors,
  },
  mapRegions: {
    method: 'GET',
    path: '/api/v2/maps/regions/',
    access: 'public',
    summary: 'Map regions per model (NAV+ areas, SPRINT regions) with sizes',
    query: s.mapRegionQuerySchema,
    reply: z.array(s.mapRegionSchema),
    errors: [10400],
  },
  mapDownload: {
    method: 'GET',
    path: '/api/v2/maps/regions/{id}/download/',
    access: 'public',
    summary: "The region's map package (range requests supported)",
    params: id,
    reply: 'binary',
    errors: [10400, 10404],
  },
  listPosts: {
    method: 'GET',
    path: '/api/v2/posts/',
    access: 'public',
    summary: 'Articles, newest first',
    query: s.postListQuerySchema,
    reply: s.pageSchema(s.postSchema),
    errors: [10400],
  },
  getPost: {
    method: 'GET',
    path: '/api/v2/posts/{id}/',
    access: 'public',
    summary: 'One article ("Article id parameter error" for a bad id)',
    params: id,
    reply: s.postSchema,
    errors: [10400, 10404],
  },
  createPost: {
    method: 'POST',
    path: '/api/v2/posts/',
    access: 'bearer',
    summary: 'Create an article',
    body: s.postCreateSchema,
    reply: s.postSchema,
    errors: [10001, 10400],
  },
  likePost: {
    method: 'POST',
    path: '/api/v2/posts/{id}/like/',
    access: 'bearer',
    summary: 'Like an article (idempotent)',
    params: id,
    reply: s.likeReplySchema,
    errors: authErrors,
  },
  unlikePost: {
    method: 'DELETE',
    path: '/api/v2/posts/{id}/like/',
    access: 'bearer',
    summary: 'Take a like back (idempotent)',
    params: id,
    reply: s.likeReplySchema,
    errors: authErrors,
  },
  listComments: {
    method: 'GET',
    path: '/api/v2/posts/{id}/comments/',
    access: 'public',
    summary: 'Comments of an article, oldest first',
    params: id,
    query: s.pageQuerySchema,
    reply: s.pageSchema(s.commentSchema),
    errors: [10400, 10404],
  },
  createComment: {
    method: 'POST',
    path: '/api/v2/posts/{id}/comments/',
    access: 'bearer',
    summary: 'Comment on an article (stored verbatim, shown as text)',
    params: id,
    body: s.commentCreateSchema,
    reply: s.commentSchema,
    errors: authErrors,
  },
  health: {
    method: 'GET',
    path: '/api/health',
    access: 'public',
    summary: 'Liveness',
    reply: s.healthReplySchema,
    errors: [],
  },
  ready: {
    method: 'GET',
    path: '/api/ready',
    access: 'public',
    summary: 'Readiness: the database answers',
    reply: s.readyReplySchema,
    errors: [10500],
  },
} as const satisfies Record<string, Endpoint>;

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

/** Fills an OpenAPI path's `{params}`: `pathFor('getWorkout', { id: 3 })` → `/api/v2/workouts/3/`. */
export function pathFor(name: EndpointName, params: Record<string, string | number> = {}): string {
  return endpoints[name].path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`pathFor(${name}): missing ${key}`);
    return encodeURIComponent(String(value));
  });
}

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
