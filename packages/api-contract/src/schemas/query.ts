import { z } from '../zod.ts';

// Path and query values arrive as text. `Number()` (what `z.coerce` uses) also reads " 1",
// "1.0", "+1", "3e0" and "0x10", so one resource would have many URLs and a scanner could
// slip odd spellings past checks made on the text. These read one spelling only: plain
// decimal digits, no sign, space, exponent or leading zero. Anything else is a 10400.
const WHOLE = /^(?:0|[1-9]\d*)$/;
const DECIMAL = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * A number written in a URL as `pattern` allows, then checked by `schema` (its bounds). A
 * number (a caller in the same process) goes to `schema` as it is.
 */
function numberInUrl<S extends z.ZodNumber>(pattern: RegExp, what: string, schema: S) {
  return z.preprocess((value, context) => {
    if (typeof value !== 'string') return value;
    if (pattern.test(value)) return Number(value);
    context.addIssue({ code: 'custom', input: value, message: `Expected ${what}` });
    return z.NEVER;
  }, schema);
}

/** A whole number in a path or query: decimal digits only (`12`, never `012`, `1e1`, `0xc`). */
export const wholeInUrl = <S extends z.ZodNumber>(schema: S) =>
  numberInUrl(WHOLE, 'a whole number written in decimal digits (0-9)', schema);

/** A number with an optional decimal fraction (`12`, `12.5`), no sign or exponent. */
export const decimalInUrl = <S extends z.ZodNumber>(schema: S) =>
  numberInUrl(DECIMAL, 'a number written in decimal digits (0-9, optionally a fraction)', schema);

/** A range of UTC days: `from` inclusive, `to` exclusive (ISO dates). */
export const dayRange = {
  from: z.iso.date(),
  to: z.iso.date(),
};
