import { fieldByKey } from './fieldCatalogue.ts';
import type { Problem } from './result.ts';

/** Translates a message id with its values (i18n's `t`, react-intl's `formatMessage`). */
export type Translate = (
  id: `dataFields.${string}`,
  values?: Readonly<Record<string, string | number>>,
) => string;

/**
 * A problem in the reader's language: its message with values a translator can use as they
 * are. The data field a problem names (`values.field`, a key such as `ElevationLineChart`)
 * is given by its name in that language ("Höhendiagramm"), never by its key.
 *
 * @example
 * problemText(problem, (id, values) => t(id, values)); // "Höhendiagramm braucht ein großes Feld."
 */
export function problemText(problem: Problem, t: Translate): string {
  const values: Record<string, string | number> = { ...problem.values };
  const field = typeof values.field === 'string' ? fieldByKey(values.field) : undefined;
  if (field) values.field = t(field.messageIds.name);
  return t(problem.messageId, values);
}
