import { COLON, DOT, MINUS, decimalAt, isSpace, timeAt } from './fastValues.ts';

// A specialised scanner for the plain track and route points that make up nearly all of a
// GPX file's bytes:
//
//   <trkpt lat="22.5430" lon="114.0580"><ele>10.5</ele><time>2026-11-01T06:00:00Z</time>
//     <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr>...</extensions>
//   </trkpt>
//
// It reads one such element with charCodeAt, without building tag objects,
// attribute maps or substrings, and hands back its values. It never reports an error: for
// anything it does not read exactly as the general reader would (comments, CDATA, entities,
// attributes on children, self-closing tags, prefixed point names, a value that is not a
// plain number, a limit that would be reached...) it gives up (-1) and the caller lets the
// general reader read the same element from the same place. So correctness never depends on
// this file: it is only allowed to agree with the general reader, never to differ from it.

/** Indices in the scratch array `scanPoint` fills. */
export const LATITUDE = 0;
export const LONGITUDE = 1;
export const ELEVATION = 2;
export const TIME = 3;
export const HEART_RATE = 4;
export const CADENCE = 5;
export const POWER = 6;
export const TEMPERATURE = 7;
/** How many tags ("<") the element had, for the reader's time budget. */
export const TAGS = 8;
export const SCRATCH_LENGTH = 9;

export interface FastPointLimits {
  readonly maxDepth: number;
  readonly maxAttributes: number;
  readonly maxAttributeLength: number;
  readonly maxTextLength: number;
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

// The deepest nesting of elements inside a point this scanner follows.
const MAX_NESTING = 16;

// Characters of names the general reader accepts (/^[A-Za-z_][\w.:-]*$/): 1 for those that
// may start a name ([A-Za-z_]), 2 for those that may only follow ([0-9.:-]), 0 otherwise.
const NAME_CHARS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
  const other = (c >= 0x30 && c <= 0x39) || c === DOT || c === COLON || c === MINUS;
  NAME_CHARS[c] = letter ? 1 : other ? 2 : 0;
}
const isNameStart = (c: number) => c < 128 && NAME_CHARS[c] === 1;
const isNameChar = (c: number) => c < 128 && NAME_CHARS[c] !== 0;

/** `'track'` or `'route'` when an unprefixed `<trkpt ` or `<rtept ` starts at `open`. */
export function pointAt(text: string, open: number): 'track' | 'route' | undefined {
  if (!isSpace(text.charCodeAt(open + 6))) return undefined;
  if (text.startsWith('trkpt', open + 1)) return 'track';
  if (text.startsWith('rtept', open + 1)) return 'route';
  return undefined;
}

// What a child element of a point is to the general reader, by its local name.
const OTHER = 0; // a container whose own text is ignored
const GIVE_UP = -1; // a name the general reader gives a meaning inside a point
// <name> and <desc>: text the general reader keeps (so within maxTextLength) but a track or
// route point does not use.
const IGNORED_TEXT = -2;
// Text elements: the scratch index their value goes to.

const isLocal = (text: string, local: number, end: number, name: string) =>
  end - local === name.length && text.startsWith(name, local);

// `local`: where the local part of the name starts (after the first colon, if any).
function childKind(text: string, local: number, end: number): number {
  switch (end - local) {
    case 2:
      return isLocal(text, local, end, 'hr') ? HEART_RATE : OTHER;
    case 3:
      if (isLocal(text, local, end, 'ele')) return ELEVATION;
      if (isLocal(text, local, end, 'cad')) return CADENCE;
      return isLocal(text, local, end, 'trk') ||
        isLocal(text, local, end, 'rte') ||
        isLocal(text, local, end, 'wpt')
        ? GIVE_UP
        : OTHER;
    case 4:
      if (isLocal(text, local, end, 'time')) return TIME;
      if (isLocal(text, local, end, 'temp')) return TEMPERATURE;
      return isLocal(text, local, end, 'name') || isLocal(text, local, end, 'desc')
        ? IGNORED_TEXT
        : OTHER;
    case 5:
      if (isLocal(text, local, end, 'power')) return POWER;
      if (isLocal(text, local, end, 'atemp')) return TEMPERATURE;
      return isLocal(text, local, end, 'trkpt') || isLocal(text, local, end, 'rtept')
        ? GIVE_UP
        : OTHER;
    case 6:
      return isLocal(text, local, end, 'trkseg') ? GIVE_UP : OTHER;
    case 12:
      return isLocal(text, local, end, 'PowerInWatts') ? POWER : OTHER;
    default:
      return OTHER;
  }
}

// The first `code` at or after `from`, or -1. The runs between tags of a point are short,
// where a loop is faster than indexOf's call into the runtime.
const find = (text: string, code: number, from: number) => {
  const length = text.length;
  let i = from;
  while (i < length && text.charCodeAt(i) !== code) i++;
  return i < length ? i : -1;
};

/** A child element's name as read once: its start and end tags without the "<". */
interface ChildTag {
  readonly open: string; // "gpxtpx:hr>"
  readonly close: string; // "/gpxtpx:hr>"
  readonly kind: number;
}

// Reads the name of the start tag at `lt`; undefined unless it is a plain `<name>`.
function readChildTag(text: string, lt: number): ChildTag | undefined {
  if (!isNameStart(text.charCodeAt(lt + 1))) return undefined; // comments, CDATA, <?...?>
  let nameEnd = lt + 2;
  let local = lt + 1;
  for (let c = text.charCodeAt(nameEnd); isNameChar(c); c = text.charCodeAt(++nameEnd))
    if (c === COLON && local === lt + 1) local = nameEnd + 1;
  if (text.charCodeAt(nameEnd) !== GT) return undefined; // attributes, self-closing, odd names
  const name = text.slice(lt + 1, nameEnd);
  return { open: `${name}>`, close: `/${name}>`, kind: childKind(text, local, nameEnd) };
}

// The child tags of the last point read, in order: the next point most likely has the same,
// and one startsWith (a memory compare) then stands for reading its name character by
// character. A tag is only ever taken when the text matches it exactly, so what the cache
// holds changes the speed, never the result.
const MAX_REMEMBERED = 64;
const remembered: (ChildTag | undefined)[] = [];
const openTags: ChildTag[] = [];

// Where scanPoint found the values of the last point: field, start, end and the character
// that ends the value ("<" for text, the quote for attributes), for `learnTemplate`.
const MAX_SPANS = 32;
const spans = new Int32Array(MAX_SPANS * 4);
let spanCount = 0;
const span = (field: number, start: number, end: number, terminator: number) => {
  if (spanCount < MAX_SPANS) {
    const at = spanCount * 4;
    spans[at] = field;
    spans[at + 1] = start;
    spans[at + 2] = end;
    spans[at + 3] = terminator;
  }
  spanCount++;
};

/**
 * Reads the point element whose `<trkpt ` or `<rtept ` (see `pointAt`) starts at `open`,
 * nested `depth` elements deep, into `scratch` (NaN for absent values); returns the position
 * after its end tag, or -1 when the general reader must read it. Entities are not looked
 * for: the caller gives up when a "&" lies between `open` and the returned end.
 */
export function scanPoint(
  text: string,
  open: number,
  depth: number,
  limits: FastPointLimits,
  scratch: Float64Array,
): number {
  if (depth === 0 || depth >= limits.maxDepth) return -1;
  spanCount = 0;
  const close = find(text, GT, open + 1);
  if (close === -1) return -1;
  // `<trkpt lat=".." lon=".."/>` (as OSM exports write): a point without children.
  const selfClosing = text.charCodeAt(close - 1) === SLASH;
  const tagEnd = selfClosing ? close - 1 : close;
  // Attributes: name = "value" or 'value', as the general reader's pattern reads them.
  let latitudeAt = -1;
  let latitudeEnd = -1;
  let longitudeAt = -1;
  let longitudeEnd = -1;
  let attributes = 0;
  let p = open + 6;
  for (;;) {
    while (p < tagEnd && isSpace(text.charCodeAt(p))) p++;
    if (p === tagEnd) break;
    const nameAt = p;
    while (isNameChar(text.charCodeAt(p))) p++;
    const nameEnd = p;
    if (nameEnd === nameAt) return -1;
    while (isSpace(text.charCodeAt(p))) p++;
    if (text.charCodeAt(p) !== EQUALS) return -1;
    p++;
    while (isSpace(text.charCodeAt(p))) p++;
    const quote = text.charCodeAt(p);
    if (quote !== QUOTE && quote !== APOSTROPHE) return -1;
    const valueAt = p + 1;
    const valueEnd = find(text, quote, valueAt);
    if (valueEnd === -1 || valueEnd >= tagEnd) return -1;
    if (valueEnd - valueAt > limits.maxAttributeLength || ++attributes > limits.maxAttributes)
      return -1;
    if (nameEnd - nameAt === 3 && text.charCodeAt(nameAt) === 0x6c /* l */) {
      // A repeated attribute: the last one counts, as in the general reader's map.
      if (text.startsWith('lat', nameAt)) {
        latitudeAt = valueAt;
        latitudeEnd = valueEnd;
        span(LATITUDE, valueAt, valueEnd, quote);
      } else if (text.startsWith('lon', nameAt)) {
        longitudeAt = valueAt;
        longitudeEnd = valueEnd;
        span(LONGITUDE, valueAt, valueEnd, quote);
      }
    }
    p = valueEnd + 1;
  }
  if (latitudeAt < 0 || longitudeAt < 0) return -1;
  const latitude = decimalAt(text, latitudeAt, latitudeEnd);
  const longitude = decimalAt(text, longitudeAt, longitudeEnd);
  // (NaN and undefined fail these comparisons too.)
  if (!(latitude! >= -90 && latitude! <= 90 && longitude! >= -180 && longitude! <= 180)) return -1;
  scratch[LATITUDE] = latitude!;
  scratch[LONGITUDE] = longitude!;
  scratch[ELEVATION] = Number.NaN;
  scratch[TIME] = Number.NaN;
  scratch[HEART_RATE] = Number.NaN;
  scratch[CADENCE] = Number.NaN;
  scratch[POWER] = Number.NaN;
  scratch[TEMPERATURE] = Number.NaN;

  // Children: nested elements without attributes; those whose text the general reader keeps
  // must hold text only. Text between elements is ignored, as the general reader does.
  if (selfClosing) {
    scratch[TAGS] = 1;
    return close + 1;
  }
  let tags = 1;
  let nested = 0;
  let child = 0;
  const pointClose = text.charCodeAt(open + 1) === 0x74 /* t */ ? '/trkpt>' : '/rtept>';
  p = close + 1;
  for (;;) {
    const lt = find(text, LT, p);
    if (lt === -1) return -1;
    tags++;
    if (text.charCodeAt(lt + 1) === SLASH) {
      if (nested === 0) {
        // The point's own end tag, exactly `</trkpt>` or `</rtept>`.
        if (!text.startsWith(pointClose, lt + 1)) return -1;
        scratch[TAGS] = tags;
        return lt + 8;
      }
      const tag = openTags[--nested]!;
      if (!text.startsWith(tag.close, lt + 1)) return -1;
      p = lt + 1 + tag.close.length;
      continue;
    }
    if (text.charCodeAt(lt + 1) === 0x21 /* ! */) {
      // A comment or CDATA between elements, which the general reader skips there too.
      let end = -1;
      if (text.startsWith('!--', lt + 1)) end = text.indexOf('-->', lt + 4);
      else if (text.startsWith('![CDATA[', lt + 1)) end = text.indexOf(']]>', lt + 9);
      if (end === -1) return -1; // unclosed, or a declaration: the general reader's error
      p = end + 3;
      continue;
    }
    let tag = child < MAX_REMEMBERED ? remembered[child] : undefined;
    if (tag === undefined || !text.startsWith(tag.open, lt + 1)) {
      tag = readChildTag(text, lt);
      if (tag === undefined) return -1;
      if (child < MAX_REMEMBERED) remembered[child] = tag;
    }
    child++;
    if (tag.kind === GIVE_UP || depth + 1 + nested >= limits.maxDepth) return -1;
    if (tag.kind === OTHER) {
      if (nested === MAX_NESTING) return -1;
      openTags[nested++] = tag;
      p = lt + 1 + tag.open.length;
      continue;
    }
    // A text element: its text, then its own end tag.
    const kind = tag.kind;
    const textAt = lt + 1 + tag.open.length;
    const end = find(text, LT, textAt);
    if (end === -1 || end - textAt > limits.maxTextLength || !text.startsWith(tag.close, end + 1))
      return -1;
    tags++;
    span(kind, textAt, end, LT);
    if (kind !== IGNORED_TEXT) {
      const value = kind === TIME ? timeAt(text, textAt, end) : decimalAt(text, textAt, end);
      if (value !== undefined) {
        if (Number.isNaN(value)) return -1;
        scratch[kind] = kind === TIME ? value / 1000 : value;
      }
    }
    p = end + 1 + tag.close.length;
  }
}

/**
 * A point's markup as literal pieces around its values, learned from a point `scanPoint`
 * read. Files write every point alike, so the next points are read by comparing the pieces
 * (one string compare each) and reading the values between them: a point that differs in
 * anything but its values does not match and goes to `scanPoint`.
 */
export interface PointTemplate {
  /** The text before each value, then the text after the last one. */
  readonly pieces: readonly string[];
  /** The scratch index of each value. */
  readonly fields: readonly number[];
  /** The character that ends each value: "<" for text, the quote for an attribute. */
  readonly terminators: readonly number[];
  /** The nesting depth of the point it was learned from, and its tag count. */
  readonly depth: number;
  readonly tags: number;
}

/**
 * The template of the point `scanPoint` just read (from `open` to `end`, nested `depth`
 * deep), or undefined when it had too many values to remember.
 */
export function learnTemplate(
  text: string,
  open: number,
  end: number,
  depth: number,
  tags: number,
): PointTemplate | undefined {
  if (spanCount > MAX_SPANS) return undefined;
  const pieces: string[] = [];
  const fields: number[] = [];
  const terminators: number[] = [];
  let at = open;
  for (let i = 0; i < spanCount; i++) {
    pieces.push(text.slice(at, spans[i * 4 + 1]));
    fields.push(spans[i * 4]!);
    terminators.push(spans[i * 4 + 3]!);
    at = spans[i * 4 + 2]!;
  }
  pieces.push(text.slice(at, end));
  return { pieces, fields, terminators, depth, tags };
}

/**
 * Reads the point at `open` if its markup is the template's, into `scratch` as `scanPoint`
 * does; returns the position after it, or -1 (then `scanPoint` reads it). A value ends at
 * its terminator, as in `scanPoint`, and must be followed by exactly the next piece; an
 * attribute value must hold no ">" (where the general reader would end the tag). The caller
 * checks the depth and looks for "&" between `open` and the end, as for `scanPoint`.
 */
export function matchTemplate(
  template: PointTemplate,
  text: string,
  open: number,
  limits: FastPointLimits,
  scratch: Float64Array,
): number {
  const { pieces, fields, terminators } = template;
  scratch[LATITUDE] = Number.NaN;
  scratch[LONGITUDE] = Number.NaN;
  scratch[ELEVATION] = Number.NaN;
  scratch[TIME] = Number.NaN;
  scratch[HEART_RATE] = Number.NaN;
  scratch[CADENCE] = Number.NaN;
  scratch[POWER] = Number.NaN;
  scratch[TEMPERATURE] = Number.NaN;
  const length = text.length;
  let p = open;
  for (let i = 0; i < fields.length; i++) {
    const piece = pieces[i]!;
    // slice and === compare memory directly: faster here than startsWith.
    if (text.slice(p, p + piece.length) !== piece) return -1;
    p += piece.length;
    const terminator = terminators[i]!;
    let end = p;
    if (terminator === LT) {
      while (end < length && text.charCodeAt(end) !== LT) end++;
      if (end - p > limits.maxTextLength) return -1;
    } else {
      for (let c = text.charCodeAt(end); c !== terminator; c = text.charCodeAt(++end))
        if (c === GT || end >= length) return -1;
      if (end - p > limits.maxAttributeLength) return -1;
    }
    const field = fields[i]!;
    const value =
      field === IGNORED_TEXT
        ? undefined
        : field === TIME
          ? timeAt(text, p, end)
          : decimalAt(text, p, end);
    if (field === LATITUDE || field === LONGITUDE) {
      // Only the last of repeated attributes counts, and is checked below.
      scratch[field] = value ?? Number.NaN;
    } else if (value !== undefined) {
      if (Number.isNaN(value)) return -1;
      scratch[field] = field === TIME ? value / 1000 : value;
    }
    p = end;
  }
  const last = pieces[fields.length]!;
  if (text.slice(p, p + last.length) !== last) return -1;
  const latitude = scratch[LATITUDE];
  const longitude = scratch[LONGITUDE];
  if (!(latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180)) return -1;
  scratch[TAGS] = template.tags;
  return p + last.length;
}
