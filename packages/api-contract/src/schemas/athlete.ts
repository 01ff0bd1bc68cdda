import { settingBounds } from '../bounds.ts';
import { z } from '../zod.ts';

// --- Athlete (spec 3, 7) -------------------------------------------------------------------

const bounded = (name: keyof typeof settingBounds) =>
  z.number().int().min(settingBounds[name].min).max(settingBounds[name].max);

export const athleteSettingsSchema = z.object({
  ftp: z.number().int().min(0).max(2000).nullable(),
  max_hr: z.number().int().min(0).max(260).nullable(),
  /** 0 kilometres, 1 miles (spec 3). */
  distance_unit: z.union([z.literal(0), z.literal(1)]),
  temperature_unit: z.enum(['c', 'f']),
  /** Metres of a shared ride's start and end that its map never shows (privacy). */
  privacy_trim_m: z.number().int().min(0).max(5000),
  /** Whether a newly shared ride shows heart rate and power (each ride can override). */
  share_heart_rate: z.boolean(),
  share_power: z.boolean(),
  /** Body weight in kg, for W/kg; null when not given. */
  weight_kg: z
    .number()
    .min(settingBounds.weight_kg.min)
    .max(settingBounds.weight_kg.max)
    .nullable(),
  /**
   * How the FTP estimate is read from the season's power curve: `hour` the best 60-minute
   * average power, `twenty` 95 % of the best 20-minute average.
   */
  ftp_rule: z.enum(['hour', 'twenty']),
  /**
   * The rider's running threshold pace (seconds per km; the pace they could hold for about
   * an hour): runs are scored against it (rTSS, `tss_method: pace`); null when not given.
   */
  threshold_pace_s_per_km: z
    .number()
    .int()
    .min(settingBounds.threshold_pace_s_per_km.min)
    .max(settingBounds.threshold_pace_s_per_km.max)
    .nullable(),
});
export const athleteSchema = z.object({
  id: z.string(),
  uuid: z.string(),
  username: z.string(),
  email: z.string(),
  profile: z.object({ avatar_url: z.string().nullable() }),
  settings: athleteSettingsSchema,
});
export const athletePatchSchema = z.strictObject({
  username: z.string().trim().min(1).max(64).optional(),
  settings: athleteSettingsSchema
    .extend({
      ftp: bounded('ftp').nullable(),
      max_hr: bounded('max_hr').nullable(),
      privacy_trim_m: bounded('privacy_trim_m'),
    })
    .partial()
    .strict()
    .optional(),
  /**
   * The date (ISO) from which a new FTP or max heart rate applies; default today. Rides from
   * that date (until the next change) are recomputed with it.
   */
  thresholds_from: z.iso.date().optional(),
});

export type Athlete = z.infer<typeof athleteSchema>;
export type AthleteSettings = z.infer<typeof athleteSettingsSchema>;
export type AthletePatch = z.input<typeof athletePatchSchema>;
