import { z } from '../zod.ts';
import { pageQuerySchema } from './common.ts';

// --- Articles -------------------------------------------------------------------------------

export const postSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  language: z.string(),
  author: z.string(),
  likes: z.number().int(),
  liked: z.boolean(),
  comments: z.number().int(),
  created_at: z.string(),
});
export const postListQuerySchema = pageQuerySchema.extend({
  language: z
    .string()
    .regex(/^[a-zA-Z-]{2,10}$/)
    .optional(),
});
export const postCreateSchema = z.strictObject({
  title: z.string().trim().min(1).max(200),
  body: z.string().trim().min(1).max(20_000),
  language: z
    .string()
    .regex(/^[a-zA-Z-]{2,10}$/)
    .default('en'),
});
export const commentSchema = z.object({
  id: z.number().int(),
  author: z.string(),
  body: z.string(),
  created_at: z.string(),
});
export const commentCreateSchema = z.strictObject({ body: z.string().trim().min(1).max(2000) });
export const likeReplySchema = z.object({ likes: z.number().int(), liked: z.boolean() });

export type Post = z.infer<typeof postSchema>;
export type PostCreate = z.input<typeof postCreateSchema>;
export type Comment = z.infer<typeof commentSchema>;
