import { z } from '../zod.ts';
import { sportTypeSchema, workoutSummarySchema, zoneSchema } from './workouts.ts';

/** A place inside which no shared ride shows its track (home, work). */
export const privacyZoneSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  radius_m: z.number(),
});
export const privacyZoneCreateSchema = z.strictObject({
  name: z.string().trim().min(1).max(60),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  radius_m: z.number().int().min(100).max(5000),
});

/**
 * A shared ride as anyone with the link sees it: the rider's display name, date and sport,
 * no account data; positions inside privacy zones and the trimmed start and end removed on
 * the server; heart rate and power only when the rider shows them.
 */
export const sharedWorkoutSchema = z.object({
  name: z.string(),
  sport_type: sportTypeSchema,
  start_time: z.string(),
  indoor: z.boolean(),
  rider: z.object({ display_name: z.string() }),
  summary: workoutSummarySchema,
  hr_zones: z.array(zoneSchema),
  power_zones: z.array(zoneSchema),
  ftp: z.number().nullable(),
  max_hr: z.number().nullable(),
  /** Of the visible track only. */
  bounds: z
    .object({ min_lat: z.number(), min_lon: z.number(), max_lat: z.number(), max_lon: z.number() })
    .nullable(),
  shows: z.object({ heart_rate: z.boolean(), power: z.boolean() }),
  /** What the map leaves out: the figures are of the whole ride, the track is partial. */
  privacy: z.object({
    hidden_start_m: z.number(),
    hidden_end_m: z.number(),
    zones_applied: z.boolean(),
  }),
});
export const unshareAllReplySchema = z.object({ unshared: z.number().int() });

export type SharedWorkout = z.infer<typeof sharedWorkoutSchema>;
export type PrivacyZone = z.infer<typeof privacyZoneSchema>;
