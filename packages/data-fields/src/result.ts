/**
 * One problem found in a layout document or an operation: where (`path`, like
 * `pages[2].items[1]`), an i18n message id, the English text, and the values the message uses.
 */
export interface Problem {
  readonly path: string;
  readonly messageId: `dataFields.problem.${ProblemCode}`;
  readonly message: string;
  readonly values?: Readonly<Record<string, string | number>>;
}

/**
 * The outcome of parsing, validating or editing: a value, or every problem found (the
 * packages' one result shape: `{ ok: true, value } | { ok: false, error }`).
 */
export type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: readonly Problem[] };

/** A successful result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failed result with its problems. */
export function fail<T>(problems: readonly Problem[]): Result<T> {
  return { ok: false, error: problems };
}

/** Every problem a layout document or an operation can have; the message id is `dataFields.problem.<code>`. */
export type ProblemCode =
  | 'chartTypeOnValue'
  | 'countMismatch'
  | 'fieldNotSupported'
  | 'fixedPages'
  | 'indexMismatch'
  | 'invalidChartType'
  | 'invalidJson'
  | 'layoutNotSupported'
  | 'missing'
  | 'modelMismatch'
  | 'needsLargeSlot'
  | 'pageOutOfRange'
  | 'pagesCountMismatch'
  | 'slotCountMismatch'
  | 'slotOutOfRange'
  | 'tooFewPages'
  | 'tooLarge'
  | 'tooLong'
  | 'tooManyItems'
  | 'tooManyPages'
  | 'unknownField'
  | 'unknownLayout'
  | 'wrongType';

/** Builds a problem with message id `dataFields.problem.<code>`. */
export function problem(
  path: string,
  code: ProblemCode,
  message: string,
  values?: Readonly<Record<string, string | number>>,
): Problem {
  return { path, messageId: `dataFields.problem.${code}`, message, ...(values ? { values } : {}) };
}
