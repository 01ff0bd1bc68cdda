import { PASSWORD_MIN_LENGTH } from '../bounds.ts';
import { z } from '../zod.ts';

// --- Auth (spec 7) -------------------------------------------------------------------------

export const loginRequestSchema = z.strictObject({
  email: z.string().trim().min(3).max(254).email(),
  password: z.string().min(1).max(1024),
});
export const loginReplySchema = z.object({
  access: z.string(),
  refresh: z.string(),
  id: z.string(),
});
export const refreshRequestSchema = z.strictObject({ refresh: z.string().min(1).max(4096) });
export const refreshReplySchema = z.object({ access: z.string(), refresh: z.string() });

// --- Passwords and sessions --------------------------------------------------------------

/** A new password: at least `PASSWORD_MIN_LENGTH` characters once trimmed (the sign-up rule). */
export const newPasswordSchema = z
  .string()
  .max(1024)
  .refine((value) => value.trim().length >= PASSWORD_MIN_LENGTH, {
    message: `The password needs at least ${PASSWORD_MIN_LENGTH} characters (spaces around it do not count)`,
  });

/** Deleting the account asks for its password. */
export const accountDeleteRequestSchema = z.strictObject({
  password: z.string().min(1).max(1024),
});
export const passwordChangeRequestSchema = z.strictObject({
  current_password: z.string().min(1).max(1024),
  new_password: newPasswordSchema,
});
export const passwordResetRequestSchema = z.strictObject({
  email: z.string().trim().min(3).max(254).email(),
});
/** The token of a reset link: 32 random bytes in base64url. */
export const passwordResetConfirmSchema = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Not a password reset token'),
  password: newPasswordSchema,
});
/** A signed-in session (a refresh-token family) of the rider. */
export const accountSessionSchema = z.object({
  /** The session's id (for signing it out). */
  id: z.uuid(),
  /** Browser and system read from its User-Agent, e.g. "Firefox on Linux"; "Unknown" if none. */
  browser: z.string(),
  /** When it signed in, and when it last got new tokens (ISO 8601, UTC). */
  created_at: z.string(),
  last_used_at: z.string(),
  /** The address it last got new tokens from; null for sessions from before it was kept. */
  ip: z.string().nullable(),
  /** Whether this is the session of the token that asks. */
  current: z.boolean(),
});
export const sessionIdParamSchema = z.object({ id: z.uuid() });
export const signedOutReplySchema = z.object({ signed_out: z.number().int().min(0) });

export type LoginRequest = z.input<typeof loginRequestSchema>;
export type LoginReply = z.infer<typeof loginReplySchema>;
export type RefreshReply = z.infer<typeof refreshReplySchema>;
