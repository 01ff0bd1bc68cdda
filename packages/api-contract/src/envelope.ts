import { z } from './zod.ts';
import { ErrorCode } from './errorCodes.ts';

/** One field problem of a validation failure. */
export const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });

/** The failure envelope every error reply uses. */
export const errorEnvelopeSchema = z.object({
  code: z.number().int(),
  msg: z.string(),
  detail: z.string(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** The success envelope around a reply's `data`. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(0), msg: z.literal('success'), data });
}

/** The spec's session-expiry signal (spec 4): status 401 with body code 10001. */
export function isTokenExpiry(status: number, body: unknown): boolean {
  const parsed = errorEnvelopeSchema.safeParse(body);
  return status === 401 && parsed.success && parsed.data.code === ErrorCode.TokenInvalid;
}
