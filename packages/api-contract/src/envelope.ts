import { z } from './zod.ts';

/** One field problem of a validation failure. */
export const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });

/** The failure envelope every error reply uses. */
export const errorEnvelopeSchema = z.object({
  code: z.number().int(),
  msg: z.string(),
  detail: z.string(),
  errors: z.array(fieldErrorSchema).optional(),
  /** A 10409 of an import: the id of the ride that already holds this file. */
  existing_id: z.number().int().optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** The success envelope around a reply's `data`. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(0), msg: z.literal('success'), data });
}
