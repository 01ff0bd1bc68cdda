import { decimal } from '../xml/reader.ts';

// The values of a plain point, read in place for the scanner of fastPoint.ts: decimal
// numbers and ISO times, each giving up (NaN) where it would not read as the general reader.

export const COLON = 0x3a;
export const DOT = 0x2e;
export const MINUS = 0x2d;
const PLUS = 0x2b;

// ASCII white space only: other white space (which the general reader's \s and trim() also
// accept) makes the scanner give up rather than guess.
export const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;

const POWERS_OF_TEN = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/**
 * The number `decimal()` reads from text[from, to), or NaN when the scanner should give up
 * (not a number) and undefined for an empty value. Plain decimals of up to 15 digits are
 * read in place: the digits as an integer (exact below 2^53) divided by an exact power of
 * ten, one correctly rounded division, so the same double as `Number()`. Anything else goes
 * through `decimal()` on the trimmed substring, exactly as the general reader does.
 */
export function decimalAt(text: string, from: number, to: number): number | undefined {
  let start = from;
  let end = to;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  let i = start;
  const sign = text.charCodeAt(i);
  if (sign === MINUS || sign === PLUS) i++;
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      mantissa = mantissa * 10 + (c - 0x30);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (c === DOT && fraction < 0) fraction = 0;
    else break;
  }
  if (i === end && digits > 0 && digits <= 15) {
    const value = fraction > 0 ? mantissa / POWERS_OF_TEN[fraction]! : mantissa;
    return sign === MINUS ? -value : value;
  }
  const value = text.slice(from, to).trim();
  if (value === '') return undefined;
  return decimal(value) ?? Number.NaN;
}

const DAYS_BEFORE_MONTH = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

const twoDigits = (text: string, at: number) => {
  const a = text.charCodeAt(at) - 0x30;
  const b = text.charCodeAt(at + 1) - 0x30;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
};

/**
 * Unix milliseconds of the time in text[from, to) as the general reader reads it (Date.parse
 * after checking for an ISO date), NaN when the scanner should give up, undefined for an
 * empty value. `YYYY-MM-DDTHH:MM:SS[.f{1,3}]Z` with a real calendar date is computed in
 * place; anything else (offsets, other precisions, dates V8 rolls over) goes through
 * Date.parse on the trimmed substring, as the general reader does.
 */
export function timeAt(text: string, from: number, to: number): number | undefined {
  let start = from;
  let end = to;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  const length = end - start;
  if (
    (length === 20 || (length >= 22 && length <= 24)) &&
    text.charCodeAt(start + 4) === MINUS &&
    text.charCodeAt(start + 7) === MINUS &&
    text.charCodeAt(start + 10) === 0x54 /* T */ &&
    text.charCodeAt(start + 13) === COLON &&
    text.charCodeAt(start + 16) === COLON &&
    text.charCodeAt(end - 1) === 0x5a /* Z */
  ) {
    const century = twoDigits(text, start);
    const yearOfCentury = twoDigits(text, start + 2);
    const month = twoDigits(text, start + 5);
    const day = twoDigits(text, start + 8);
    const hour = twoDigits(text, start + 11);
    const minute = twoDigits(text, start + 14);
    const second = twoDigits(text, start + 17);
    let millisecond = 0;
    let valid = length === 20 || text.charCodeAt(start + 19) === DOT;
    for (let i = start + 20, scale = 100; valid && i < end - 1; i++, scale /= 10) {
      const digit = text.charCodeAt(i) - 0x30;
      if (digit < 0 || digit > 9) valid = false;
      else millisecond += digit * scale;
    }
    const year = century * 100 + yearOfCentury;
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const monthDays =
      month === 2
        ? leap
          ? 29
          : 28
        : month === 4 || month === 6 || month === 9 || month === 11
          ? 30
          : 31;
    if (
      valid &&
      century >= 0 &&
      yearOfCentury >= 0 &&
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= monthDays &&
      hour >= 0 &&
      hour <= 23 &&
      minute >= 0 &&
      minute <= 59 &&
      second >= 0 &&
      second <= 59
    ) {
      // Days since 1970-01-01 in the proleptic Gregorian calendar.
      const y = year - 1;
      const days =
        365 * (year - 1970) +
        (Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400)) -
        477 + // the leap days before 1970: 492 - 19 + 4
        DAYS_BEFORE_MONTH[month - 1]! +
        (month > 2 && leap ? 1 : 0) +
        day -
        1;
      return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond;
    }
  }
  const value = text.slice(from, to).trim();
  if (value === '') return undefined;
  const ms = Date.parse(value);
  return /^\d{4}-\d{2}-\d{2}T/.test(value) ? ms : Number.NaN;
}
