// Text on the share preview: cleaned of what cannot be drawn, measured in DejaVu Sans' em
// widths grapheme by grapheme (CJK and emoji wide), cut with an ellipsis or wrapped to lines.

/** Input strings are cut to this many characters before layout, to bound the work. */
const MAX_INPUT_CHARS = 400;

/** Escapes text for use in XML character data and attribute values. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * Makes arbitrary input safe to put in an XML document: characters XML 1.0 forbids
 * (C0 controls, lone surrogates, U+FFFE/U+FFFF) would make the SVG unparsable, so they
 * go; line breaks and tabs become spaces; runs of white space collapse.
 */
export function cleanText(text: string): string {
  const cut = text.length > MAX_INPUT_CHARS ? text.slice(0, MAX_INPUT_CHARS) : text;
  return cut
    .replace(/[\t\n\r]+/g, ' ')
    .replace(
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '',
    )
    .replace(/\s+/g, ' ')
    .trim();
}

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function graphemes(text: string): string[] {
  return Array.from(graphemeSegmenter.segment(text), (s) => s.segment);
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f000 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/**
 * A deliberately generous estimate of a grapheme's advance in em for DejaVu Sans (there
 * is no text measurement without loading the font; over-estimating only truncates a
 * little early, under-estimating would let text run off the card).
 */
function graphemeEm(g: string, bold: boolean): number {
  const cp = g.codePointAt(0) ?? 0x20;
  let em: number;
  if (isWide(cp)) em = 1;
  else if (cp === 0x20) em = 0.32;
  else if ("il.,:;'|!`".includes(g)) em = 0.3;
  else if ('mwMW@%'.includes(g)) em = 0.95;
  else if (cp >= 0x41 && cp <= 0x5a) em = 0.72;
  else em = 0.63;
  return bold ? em * 1.1 : em;
}

export function textWidth(text: string, fontSize: number, bold: boolean): number {
  let em = 0;
  for (const g of graphemes(text)) em += graphemeEm(g, bold);
  return em * fontSize;
}

/** Cuts `text` so it fits in `maxWidth`, ending with an ellipsis when cut. */
export function truncate(text: string, maxWidth: number, fontSize: number, bold: boolean): string {
  if (textWidth(text, fontSize, bold) <= maxWidth) return text;
  const budget = maxWidth - graphemeEm('…', bold) * fontSize;
  let used = 0;
  let out = '';
  for (const g of graphemes(text)) {
    const w = graphemeEm(g, bold) * fontSize;
    if (used + w > budget) break;
    used += w;
    out += g;
  }
  return `${out.trimEnd()}…`;
}

/**
 * Breaks text into at most `maxLines` lines of at most `maxWidth`, at spaces where it can
 * and between graphemes otherwise (CJK has no spaces); the last line gets an ellipsis if
 * text is left over.
 */
export function wrap(
  text: string,
  maxWidth: number,
  fontSize: number,
  bold: boolean,
  maxLines: number,
): string[] {
  const lines: string[] = [];
  let rest = text;
  while (rest.length > 0 && lines.length < maxLines - 1) {
    if (textWidth(rest, fontSize, bold) <= maxWidth) break;
    let used = 0;
    let cut = 0; // in UTF-16 units
    let lastSpace = -1;
    for (const g of graphemes(rest)) {
      const w = graphemeEm(g, bold) * fontSize;
      if (used + w > maxWidth) break;
      if (g === ' ') lastSpace = cut;
      used += w;
      cut += g.length;
    }
    if (cut === 0) break;
    const at = lastSpace > 0 ? lastSpace : cut;
    lines.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest.length > 0) lines.push(truncate(rest, maxWidth, fontSize, bold));
  return lines;
}
