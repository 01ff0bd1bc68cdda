import { ErrorCode } from '@xoss/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, sendError } from './envelope.ts';

const controllers = new WeakMap<FastifyRequest, AbortController>();
const timers = new WeakMap<FastifyRequest, NodeJS.Timeout>();

/** Aborted when the request's deadline passes (its 503 has gone): stop the work behind it. */
export function deadlineSignal(request: FastifyRequest): AbortSignal | undefined {
  return controllers.get(request)?.signal;
}

/** A route's own deadline, longer than the server's (uploads include receiving the file). */
export const deadlineConfig = (ms: number) => ({ deadlineMs: ms });

/**
 * Every request has a deadline, from its arrival to its reply: past it the client gets 503 /
 * 10503 and the request's `deadlineSignal` aborts. Fastify's own handler timer cannot be used
 * for this: it is cleared once the request body has been read (Node's request `close`), so
 * a slow handler behind a POST was never cut off. A reply already streaming is left alone.
 */
export function requestDeadlines(app: FastifyInstance, defaultMs: number): void {
  app.addHook('onRequest', (request, reply, done) => {
    const configured = (request.routeOptions.config as { deadlineMs?: unknown } | undefined)
      ?.deadlineMs;
    const ms = typeof configured === 'number' ? configured : defaultMs;
    const controller = new AbortController();
    controllers.set(request, controller);
    const timer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent) return;
      const error = new ApiError(
        ErrorCode.Unavailable,
        'The server took too long to answer; please try again',
      );
      controller.abort(error);
      // The client may still be sending its body: end the connection with the reply.
      reply.header('connection', 'close');
      sendError(reply, error.code, error.message);
    }, ms);
    timer.unref();
    timers.set(request, timer);
    done();
  });
  const stop = (request: FastifyRequest) => {
    clearTimeout(timers.get(request));
    timers.delete(request);
  };
  app.addHook('onResponse', (request, _reply, done) => {
    stop(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    stop(request);
    controllers.get(request)?.abort(new Error('The client went away'));
    done();
  });
}
