import { z } from '../zod.ts';
import { wholeInUrl } from './query.ts';

/** A positive database id as it appears in a path (`/workouts/12/`). */
export const idParamSchema = z.object({
  id: wholeInUrl(z.number().int().positive().max(2_147_483_647)),
});

export const pageQuerySchema = z.strictObject({
  page: wholeInUrl(z.number().int().min(1).max(100_000)).default(1),
  page_size: wholeInUrl(z.number().int().min(1).max(100)).default(20),
});

/** A paginated list reply (`data` of the envelope). */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int().min(0),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}

export type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] };
