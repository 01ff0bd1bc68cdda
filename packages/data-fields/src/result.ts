/**
 * One problem found in a layout document or an operation: where (`path`, like
 * `pages[2].items[1]`), an i18n message id, the English text, and the values the message uses.
 */
export interface Problem {
  readonly path: string;
  readonly messageId: string;
  readonly message: string;
  readonly values?: Readonly<Record<string, string | number>>;
}

/** The outcome of parsing, validating or editing: a value, or every problem found. */
export type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: readonly Problem[] };

/** A successful result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failed result with its problems. */
export function fail<T>(problems: readonly Problem[]): Result<T> {
  return { ok: false, problems };
}

/** Builds a problem with message id `dataFields.problem.<code>`. */
export function problem(
  path: string,
  code: string,
  message: string,
  values?: Readonly<Record<string, string | number>>,
): Problem {
  return { path, messageId: `dataFields.problem.${code}`, message, ...(values ? { values } : {}) };
}
