import { z } from '../zod.ts';
import { deviceModelSchema } from './devices.ts';

// --- Maps -----------------------------------------------------------------------------------

export const mapRegionSchema = z.object({
  id: z.number().int(),
  model: deviceModelSchema,
  name: z.string(),
  /** Area as [min lon, min lat, max lon, max lat]. */
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  size_bytes: z.number().int(),
  /** Estimated import time on the device, in seconds. */
  import_seconds: z.number().int(),
  download_url: z.string(),
});
export const mapRegionQuerySchema = z.strictObject({ model: deviceModelSchema.optional() });

export type MapRegion = z.infer<typeof mapRegionSchema>;
