import { endpoints, type EndpointName } from '@xoss/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { deadlineConfig } from './deadline.ts';
import { ok, parse, SerializedData } from './envelope.ts';
import type { Services } from '../services.ts';

/**
 * The rider whose token a route verified, by request (set before the body is read): the
 * request limits count such a request against its rider, never against its address.
 */
export const verifiedRiders = new WeakMap<FastifyRequest, number | undefined>();

/** The session the verified access token named, by request (`Context.session`). */
const verifiedSessions = new WeakMap<FastifyRequest, string | undefined>();

type Parsed<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface Context<N extends EndpointName> {
  /** The signed-in user (always set unless the endpoint is public; maybe set when it is). */
  readonly userId: number | undefined;
  /**
   * The session (refresh family) of the access token verified for this request, when it
   * names one: read from that check, never from a second one the token may fail by then.
   */
  readonly session: string | undefined;
  readonly params: Parsed<(typeof endpoints)[N] extends { params: infer P } ? P : undefined>;
  readonly query: Parsed<(typeof endpoints)[N] extends { query: infer Q } ? Q : undefined>;
  readonly body: Parsed<(typeof endpoints)[N] extends { body: infer B } ? B : undefined>;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
}

/** `/api/v2/workouts/{id}/` → `/api/v2/workouts/:id/` */
export const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Registers one endpoint of the contract: authentication by its access level, then its
 * params, query and JSON body parsed with its schemas (10400 listing every problem). The
 * handler's return value is sent in the success envelope; binary handlers send it themselves.
 */
export function route<N extends EndpointName>(
  app: FastifyInstance,
  services: Pick<Services, 'sessions' | 'config'>,
  name: N,
  handler: (context: Context<N>) => unknown,
): void {
  const endpoint: (typeof endpoints)[EndpointName] = endpoints[name];
  const { sessions, config } = services;
  const users = verifiedRiders;
  app.route({
    method: endpoint.method,
    url: fastifyPath(endpoint.path),
    // Uploads include receiving the file, so they get longer than the server-wide limit.
    ...('body' in endpoint && endpoint.body === 'multipart'
      ? { config: deadlineConfig(config.uploadTimeoutMs) }
      : {}),
    // Authentication runs before the body is parsed: a cross-site form post without a
    // token is a 401, whatever its content type.
    onRequest: async (request) => {
      const authorization = request.headers.authorization;
      const verified =
        endpoint.access === 'public'
          ? authorization
            ? await sessions.verify(authorization).catch(() => undefined)
            : undefined
          : await sessions.verify(authorization);
      users.set(request, verified?.userId);
      verifiedSessions.set(request, verified?.session);
    },
    handler: async (request, reply) => {
      const userId = users.get(request);
      const schemas = endpoint as {
        params?: z.ZodType;
        query?: z.ZodType;
        body?: z.ZodType | 'multipart';
      };
      const context = {
        userId,
        session: verifiedSessions.get(request),
        params: schemas.params ? parse(schemas.params, request.params, 'id') : undefined,
        query: schemas.query ? parse(schemas.query, request.query, 'query') : undefined,
        body:
          schemas.body && schemas.body !== 'multipart'
            ? parse(schemas.body, request.body, 'body')
            : undefined,
        request,
        reply,
      } as Context<N>;
      const data = await handler(context);
      if (endpoint.reply === 'binary') return reply;
      if (endpoint.access !== 'public') reply.header('cache-control', 'no-store');
      if (data instanceof SerializedData)
        return reply.type('application/json; charset=utf-8').send(data.envelope);
      return ok(data);
    },
  });
}
