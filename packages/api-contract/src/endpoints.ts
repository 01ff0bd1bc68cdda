import { z } from './zod.ts';
import { errorEnvelopeSchema, successEnvelope } from './envelope.ts';
import { errorMessage, errorStatus } from './errorCodes.ts';
import { type RouteName } from './routeTable.ts';
import type { Endpoint } from './endpoints/endpoint.ts';
import { authEndpoints } from './endpoints/auth.ts';
import { athleteEndpoints } from './endpoints/athlete.ts';
import { workoutEndpoints } from './endpoints/workouts.ts';
import { trainingEndpoints } from './endpoints/training.ts';
import { shareEndpoints } from './endpoints/share.ts';
import { deviceEndpoints } from './endpoints/devices.ts';
import { routebookEndpoints } from './endpoints/routebooks.ts';
import { mapEndpoints } from './endpoints/maps.ts';
import { articleEndpoints } from './endpoints/articles.ts';
import { serviceEndpoints } from './endpoints/service.ts';

export type { Endpoint } from './endpoints/endpoint.ts';

// The groups joined in the table's order. The type lists them in that order too (a spread's
// type would list the last group first).
type Groups = typeof authEndpoints &
  typeof athleteEndpoints &
  typeof workoutEndpoints &
  typeof trainingEndpoints &
  typeof shareEndpoints &
  typeof deviceEndpoints &
  typeof routebookEndpoints &
  typeof mapEndpoints &
  typeof articleEndpoints &
  typeof serviceEndpoints;

/**
 * Every endpoint, grouped by resource (docs/api.md), one file per resource under
 * `endpoints/`. The server registers routes from this table.
 */
export const endpoints: { readonly [N in keyof Groups]: Groups[N] } = {
  ...authEndpoints,
  ...athleteEndpoints,
  ...workoutEndpoints,
  ...trainingEndpoints,
  ...shareEndpoints,
  ...deviceEndpoints,
  ...routebookEndpoints,
  ...mapEndpoints,
  ...articleEndpoints,
  ...serviceEndpoints,
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
