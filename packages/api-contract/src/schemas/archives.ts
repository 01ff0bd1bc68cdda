import { z } from '../zod.ts';

// --- Export archives imported in one go ----------------------------------------------------

export const archiveIdParamSchema = z.object({ id: z.uuid() });
/** An activity of an archive that was not imported, and why. */
export const archiveFailureSchema = z.object({
  /** Its path in the archive (`activities/123.fit.gz`, or inside a nested zip). */
  name: z.string(),
  /** An error code (10415, 10413, ...) or a reason (`zipBomb`, `unsafePath`, `link`, `tooLarge`, `nestedTooDeep`, `csv`). */
  code: z.string(),
  message: z.string(),
});
export const archiveImportSchema = z.object({
  id: z.uuid(),
  status: z.enum(['queued', 'running', 'done', 'cancelled', 'failed']),
  /** Activities found in the archive; null until its walk has listed them. */
  total: z.number().int().nullable(),
  /** Activities settled: imported, duplicates and failures. */
  done: z.number().int(),
  imported: z.number().int(),
  duplicates: z.number().int(),
  failed: z.number().int(),
  failures: z.array(archiveFailureSchema),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** Why the archive as a whole could not be read (status `failed`). */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export const archiveCreatedSchema = z.object({ id: z.uuid() });
export type ArchiveImport = z.infer<typeof archiveImportSchema>;
