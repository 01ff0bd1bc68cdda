import { z } from '../zod.ts';
import * as s from '../schemas.ts';
import { routes } from '../routeTable.ts';
import { type EndpointGroup } from './endpoint.ts';

/** Signing in and out, tokens and password resets. */
export const authEndpoints = {
  login: {
    ...routes.login,
    summary: 'Log in with e-mail and password (spec 7)',
    body: s.loginRequestSchema,
    reply: s.loginReplySchema,
    errors: [10301, 10302, 10400],
  },
  refresh: {
    ...routes.refresh,
    summary: 'Rotate a refresh token; a reused one revokes its family',
    body: s.refreshRequestSchema,
    reply: s.refreshReplySchema,
    errors: [10001, 10400],
  },
  logout: {
    ...routes.logout,
    summary: 'Revoke the family of a refresh token',
    body: s.refreshRequestSchema,
    reply: z.object({}),
    errors: [10400],
  },
  requestPasswordReset: {
    ...routes.requestPasswordReset,
    summary:
      'Mail a one-time link (valid 30 minutes) to set a new password: 202 and the same empty reply whether or not the address has an account; limited per address and per e-mail',
    body: s.passwordResetRequestSchema,
    reply: z.object({}),
    errors: [10302, 10400],
  },
  confirmPasswordReset: {
    ...routes.confirmPasswordReset,
    summary: "Set a new password with a reset link's token (once); every session of the rider ends",
    body: s.passwordResetConfirmSchema,
    reply: z.object({}),
    errors: [10304, 10400, 10503],
  },
} as const satisfies EndpointGroup;
