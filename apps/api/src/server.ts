import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import {
  ErrorCode,
  errorMessage,
  errorStatus,
  ownerOfPath,
  type ErrorCode as Code,
} from '@xoss/api-contract';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';

/** Where the built front ends are; any of them may be missing (then only the API answers). */
export interface StaticRoots {
  publicSite?: string;
  athletePortal?: string;
  storybook?: string;
}

export interface ServerOptions {
  logger?: boolean;
  staticRoots?: StaticRoots;
}

/** Sends the failure envelope of api.md for one error code. */
export function sendError(reply: FastifyReply, code: Code, detail: string): FastifyReply {
  return reply.status(errorStatus[code]).send({ code, msg: errorMessage[code], detail });
}

function existing(path: string | undefined): string | undefined {
  return path !== undefined && existsSync(join(path, 'index.html')) ? path : undefined;
}

/** Builds the server: the API under /api and, when given, the built apps on the same origin. */
export async function buildServer(options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false });
  const site = existing(options.staticRoots?.publicSite);
  const portal = existing(options.staticRoots?.athletePortal);
  const storybook = existing(options.staticRoots?.storybook);

  app.get('/api/health', () => ({ code: 0, msg: 'success', data: { status: 'ok' } }));

  const appRoots = [site, portal].filter((root): root is string => root !== undefined);
  if (appRoots.length > 0) {
    await app.register(fastifyStatic, {
      root: appRoots,
      prefix: '/',
      index: false,
      wildcard: false,
    });
  }
  if (storybook) {
    await app.register(fastifyStatic, {
      root: storybook,
      prefix: '/storybook/',
      decorateReply: false,
    });
  }

  // Unknown paths: API paths get the error envelope; app paths get their app's shell, whose
  // router shows the page or its own not-found screen.
  app.setNotFoundHandler((request, reply) => {
    const owner = ownerOfPath(request.url);
    const root = owner === 'athlete-portal' ? portal : owner === 'public-site' ? site : undefined;
    if (owner === 'api' || root === undefined || request.method !== 'GET') {
      return sendError(
        reply,
        ErrorCode.NotFound,
        `No route for ${request.method} ${request.url.split('?')[0]}`,
      );
    }
    return reply.type('text/html').sendFile('index.html', root);
  });

  return app;
}
