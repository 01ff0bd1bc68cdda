import { z } from '../zod.ts';

// --- Routebooks -----------------------------------------------------------------------------

export const routebookSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  distance_m: z.number(),
  elevation_gain_m: z.number(),
  elevation_loss_m: z.number(),
  points: z.number().int(),
  has_time: z.boolean(),
  bounds: z.object({
    min_lat: z.number(),
    min_lon: z.number(),
    max_lat: z.number(),
    max_lon: z.number(),
  }),
  /** The simplified line for previews, as [lat, lon] pairs. */
  preview: z.array(z.tuple([z.number(), z.number()])),
  created_at: z.string(),
  /**
   * The rider's devices it was sent to ("Send to device"): `synced_at` is null until the
   * phone app has copied it onto the device and acknowledged it.
   */
  devices: z.array(
    z.object({
      device_id: z.number().int(),
      marked_at: z.string(),
      synced_at: z.string().nullable(),
    }),
  ),
});
const routebookTitleSchema = z.string().trim().min(1, 'Please check required fields').max(120);
const routebookDescriptionSchema = z.string().trim().max(2000);
export const routebookFieldsSchema = z.strictObject({
  title: routebookTitleSchema,
  description: routebookDescriptionSchema.default(''),
});
/** Rename a routebook or change its description; at least one of the two. */
export const routebookPatchSchema = z
  .strictObject({
    title: routebookTitleSchema.optional(),
    description: routebookDescriptionSchema.optional(),
  })
  .refine((patch) => patch.title !== undefined || patch.description !== undefined, {
    message: 'Give a title or a description',
  });
/** "Send to device": the rider's device the routebook is to be copied onto at its next sync. */
export const routebookSendSchema = z.strictObject({
  device_id: z.number().int().positive().max(2_147_483_647),
});
/** A routebook waiting on a device, as the phone app lists it before a sync. */
export const deviceRoutebookSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  distance_m: z.number(),
  elevation_gain_m: z.number(),
  points: z.number().int(),
  marked_at: z.string(),
  /** The GPX file (`GET`, the rider's bearer token): the routebook's own download. */
  download_url: z.string(),
});
/** What the phone app acknowledges after copying routebooks onto the device. */
export const deviceRoutebooksSyncedSchema = z.strictObject({
  routebook_ids: z.array(z.number().int().positive().max(2_147_483_647)).min(1).max(100),
});

export type Routebook = z.infer<typeof routebookSchema>;
export type RoutebookPatch = z.input<typeof routebookPatchSchema>;
export type DeviceRoutebook = z.infer<typeof deviceRoutebookSchema>;
