import { z } from '../zod.ts';
import * as s from '../schemas.ts';
import { routes } from '../routeTable.ts';
import { id, type EndpointGroup } from './endpoint.ts';

/** Map regions for the devices. */
export const mapEndpoints = {
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
} as const satisfies EndpointGroup;
