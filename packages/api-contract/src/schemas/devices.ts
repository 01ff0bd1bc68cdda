import { z } from '../zod.ts';

// --- Devices and layouts --------------------------------------------------------------------

export const deviceModelSchema = z.enum(['NAV', 'NAV+', 'SPRINT', 'G2', 'G2+', 'G', 'G+']);
export const deviceSchema = z.object({
  id: z.number().int(),
  serial: z.string(),
  model: deviceModelSchema,
  firmware_version: z.string(),
  manufacture: z.string(),
  created_at: z.string(),
});
export const deviceBindSchema = z.strictObject({
  serial: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{6,32}$/, 'A serial number is 6-32 letters, digits or dashes'),
  model: deviceModelSchema,
});
/** The layout document: the device's panels.json (validated against the model's profile). */
export const layoutDocumentSchema = z.record(z.string(), z.unknown());

export type Device = z.infer<typeof deviceSchema>;
export type DeviceModel = z.infer<typeof deviceModelSchema>;
export type DeviceBind = z.input<typeof deviceBindSchema>;
