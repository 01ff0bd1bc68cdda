import { z } from '../zod.ts';

// --- Service --------------------------------------------------------------------------------

export const healthReplySchema = z.object({ status: z.literal('ok') });
export const readyReplySchema = z.object({ status: z.literal('ready'), database: z.literal('ok') });
