import { z } from '../zod.ts';
import * as s from '../schemas.ts';
import { routes } from '../routeTable.ts';
import { authErrors, id, type EndpointGroup } from './endpoint.ts';

const shareParams = z.object({ share_id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });

/** Rides shared by link, as anyone with the link sees them, and the privacy zones that hide a track. */
export const shareEndpoints = {
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
} as const satisfies EndpointGroup;
