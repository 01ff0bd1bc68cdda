import type { FastifyInstance, FastifyRequest } from 'fastify';

const pending = new WeakMap<FastifyRequest, (() => Promise<void>)[]>();

/** Runs `work` once the request's reply has gone out, or the client has gone away. */
export function afterReply(request: FastifyRequest, work: () => Promise<void>): void {
  const list = pending.get(request) ?? [];
  list.push(work);
  pending.set(request, list);
}

/** The hooks that run what `afterReply` queued. */
export function runAfterReply(app: FastifyInstance): void {
  const run = async (request: FastifyRequest) => {
    const list = pending.get(request);
    pending.delete(request);
    for (const work of list ?? [])
      await work().catch((error: unknown) => request.log.error({ err: error }, 'after reply'));
  };
  app.addHook('onResponse', run);
  app.addHook('onRequestAbort', run);
}
