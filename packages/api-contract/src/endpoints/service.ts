import * as s from '../schemas.ts';
import { routes } from '../routeTable.ts';
import { type EndpointGroup } from './endpoint.ts';

/** Liveness and readiness. */
export const serviceEndpoints = {
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
} as const satisfies EndpointGroup;
