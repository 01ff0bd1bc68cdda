// Lays out a manual (build/manualContent.ts) on A4 pages as a PDF, with PDFKit.
//
// Fonts: the Latin-script languages use the PDF's standard Helvetica (nothing embedded; its
// WinAnsi encoding covers their letters, and a text it cannot encode fails the build rather
// than printing the wrong letter). Japanese, Korean and both Chinese scripts use Noto Sans JP,
// KR, SC and TC (SIL OFL 1.1) from the @fontsource-variable packages. Those come as about
// 120 WOFF2 files per language, each covering one range of characters (`unicode.json`), so
// each character is set in the file that has it. harfbuzz (subset-font) cuts each file we
// need down to the characters of that language's manuals and pins the weight axis (400 for
// text, 700 for headings), giving small static TrueType fonts; PDFKit embeds each as a
// subset of the glyphs one manual uses, with the ToUnicode map that lets readers search
// and copy the text.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';
import subsetFont from 'subset-font';
import type { Language } from '@xoss/i18n';
import type { ManualBlock, ManualDocument } from './manualContent.ts';

type Weight = 'regular' | 'bold';

/** Where each character of a text is set: a font registered in the document, by name. */
interface FontSet {
  /** The registered font for a character at a weight. */
  fontOf(char: string, weight: Weight): string;
  /** Registers the fonts in a new document. */
  register(doc: PDFKit.PDFDocument): void;
  /** The characters this set cannot print (an error to report). */
  missing(text: string): string[];
}

const require = createRequire(import.meta.url);

/** The Noto Sans family of each CJK language: its name and its package's range table. */
const cjkFamilies: Partial<Record<Language, { family: string; unicode: () => string }>> = {
  ja: {
    family: 'noto-sans-jp',
    unicode: () => require.resolve('@fontsource-variable/noto-sans-jp/unicode.json'),
  },
  ko: {
    family: 'noto-sans-kr',
    unicode: () => require.resolve('@fontsource-variable/noto-sans-kr/unicode.json'),
  },
  'zh-CN': {
    family: 'noto-sans-sc',
    unicode: () => require.resolve('@fontsource-variable/noto-sans-sc/unicode.json'),
  },
  'zh-TW': {
    family: 'noto-sans-tc',
    unicode: () => require.resolve('@fontsource-variable/noto-sans-tc/unicode.json'),
  },
};

/** Windows-1252 beyond Latin-1: what Helvetica's WinAnsi encoding prints besides it. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const winAnsi = (char: string) => {
  const code = char.codePointAt(0)!;
  return (
    (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char)
  );
};

function helvetica(): FontSet {
  return {
    fontOf: (_char, weight) => (weight === 'bold' ? 'Helvetica-Bold' : 'Helvetica'),
    register: () => undefined,
    missing: (text) => [...new Set([...text].filter((char) => !winAnsi(char)))],
  };
}

/** `U+4E00-9FFF,U+3000` as code point ranges. */
const parseRanges = (ranges: string): [number, number][] =>
  ranges.split(',').map((range) => {
    const [low, high] = range.trim().replace(/^U\+/i, '').split('-');
    const start = Number.parseInt(low!, 16);
    return [start, high ? Number.parseInt(high, 16) : start];
  });

/**
 * A CJK language's fonts: for each range file of its Noto Sans package that `texts` need,
 * that file cut to those texts' characters, at the regular and the bold weight.
 */
async function notoSans(
  { family, unicode }: { family: string; unicode: () => string },
  texts: readonly string[],
): Promise<FontSet> {
  const folder = dirname(unicode());
  const files = Object.entries(
    JSON.parse(readFileSync(join(folder, 'unicode.json'), 'utf8')) as Record<string, string>,
  ).map(([subset, ranges]) => ({
    // `[12]` names the file `noto-sans-jp-12-wght-normal.woff2`, `latin` `...-latin-...`.
    file: join(folder, 'files', `${family}-${subset.replace(/[[\]]/g, '')}-wght-normal.woff2`),
    ranges: parseRanges(ranges),
  }));
  const fileOf = new Map<string, number>();
  const lookup = (char: string) => {
    let index = fileOf.get(char);
    if (index === undefined) {
      const code = char.codePointAt(0)!;
      index = files.findIndex((file) =>
        file.ranges.some(([low, high]) => code >= low && code <= high),
      );
      fileOf.set(char, index);
    }
    return index;
  };
  // The characters each file has to print (spaces are in the Latin file).
  const chars = new Map<number, Set<string>>();
  for (const text of texts)
    for (const char of text) {
      const index = lookup(char);
      if (index < 0) continue;
      const set = chars.get(index) ?? new Set<string>();
      set.add(char);
      chars.set(index, set);
    }
  const fonts = new Map<string, Buffer>();
  await Promise.all(
    [...chars].flatMap(([index, set]) =>
      (['regular', 'bold'] as const).map(async (weight) => {
        const font = await subsetFont(readFileSync(files[index]!.file), [...set].join(''), {
          targetFormat: 'truetype',
          variationAxes: { wght: weight === 'bold' ? 700 : 400 },
        });
        fonts.set(`${family}-${index}-${weight}`, font);
      }),
    ),
  );
  return {
    fontOf: (char, weight) => `${family}-${lookup(char)}-${weight}`,
    register: (doc) => {
      for (const [name, font] of fonts) doc.registerFont(name, font);
    },
    missing: (text) => [
      ...new Set([...text].filter((char) => !fonts.has(`${family}-${lookup(char)}-regular`))),
    ],
  };
}

// --- Line breaking ----------------------------------------------------------------------------

/** Characters a line may not start with (closing punctuation, small kana, prolonged sound). */
const NO_LINE_START = new Set(
  '、。，．・：；？！）」』】〕〉》〙〗ー々ゝゞぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.:;!?)]}%°',
);
/** Characters a line may not end with (opening brackets). */
const NO_LINE_END = new Set('（「『【〔〈《〘〖([{');
/** Scripts written without spaces, where a line may break between any two characters. */
const breaksAnywhere = (char: string) =>
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef]/u.test(char);

/** A text cut into pieces a line never breaks inside; `space`: a space came before it. */
function pieces(text: string): { text: string; space: boolean }[] {
  const out: { text: string; space: boolean }[] = [];
  let space = false;
  let word = '';
  const flush = () => {
    if (!word) return;
    out.push({ text: word, space });
    word = '';
    space = false;
  };
  for (const char of text) {
    if (char === ' ') {
      flush();
      space = out.length > 0;
      continue;
    }
    const last = word.at(-1) ?? '';
    const joins =
      word !== '' &&
      (NO_LINE_START.has(char) ||
        NO_LINE_END.has(last) ||
        !(breaksAnywhere(char) || breaksAnywhere(last)));
    if (!joins) flush();
    word += char;
  }
  flush();
  return out;
}

// --- Page layout ------------------------------------------------------------------------------

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = { left: 62, right: 62, top: 70, bottom: 78 };
const TEXT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const INK = '#1d1d1f';
const MUTED = '#5f6368';
const ACCENT = '#d7261e';
const RULE = '#d0d3d8';

interface Style {
  size: number;
  weight: Weight;
  color: string;
  /** Line height as a multiple of the size. */
  leading: number;
}

const styles = {
  title: { size: 26, weight: 'bold', color: INK, leading: 1.25 },
  subtitle: { size: 14, weight: 'regular', color: ACCENT, leading: 1.3 },
  lead: { size: 12, weight: 'regular', color: INK, leading: 1.5 },
  heading: { size: 15, weight: 'bold', color: INK, leading: 1.3 },
  body: { size: 10.5, weight: 'regular', color: INK, leading: 1.55 },
  label: { size: 10.5, weight: 'bold', color: INK, leading: 1.45 },
  cell: { size: 10.5, weight: 'regular', color: INK, leading: 1.45 },
  footer: { size: 8.5, weight: 'regular', color: MUTED, leading: 1.2 },
} satisfies Record<string, Style>;

class Layout {
  y = MARGIN.top;
  private readonly widths = new Map<string, number>();
  readonly doc: PDFKit.PDFDocument;
  readonly fonts: FontSet;

  constructor(doc: PDFKit.PDFDocument, fonts: FontSet) {
    this.doc = doc;
    this.fonts = fonts;
  }

  /** The text as runs of one font each. */
  runs(text: string, weight: Weight): { font: string; text: string }[] {
    const out: { font: string; text: string }[] = [];
    for (const char of text) {
      const font = this.fonts.fontOf(char, weight);
      const last = out.at(-1);
      if (last?.font === font) last.text += char;
      else out.push({ font, text: char });
    }
    return out;
  }

  width(text: string, style: Style): number {
    const key = `${style.weight}/${style.size}/${text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      width = 0;
      for (const run of this.runs(text, style.weight))
        width += this.doc.font(run.font).fontSize(style.size).widthOfString(run.text);
      this.widths.set(key, width);
    }
    return width;
  }

  /** The text broken into lines of at most `width` points. */
  lines(text: string, style: Style, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const piece of pieces(text)) {
      const next = line === '' ? piece.text : `${line}${piece.space ? ' ' : ''}${piece.text}`;
      if (line !== '' && this.width(next, style) > width) {
        lines.push(line);
        line = piece.text;
      } else line = next;
      // A piece wider than a line (a long address) is cut where it must.
      while (this.width(line, style) > width && [...line].length > 1) {
        const chars = [...line];
        let cut = chars.length - 1;
        while (cut > 1 && this.width(chars.slice(0, cut).join(''), style) > width) cut -= 1;
        lines.push(chars.slice(0, cut).join(''));
        line = chars.slice(cut).join('');
      }
    }
    if (line !== '') lines.push(line);
    return lines;
  }

  /** Draws one line with its baseline at `baseline`. */
  drawLine(text: string, style: Style, x: number, baseline: number) {
    this.doc.fillColor(style.color);
    let left = x;
    for (const run of this.runs(text, style.weight)) {
      this.doc.font(run.font).fontSize(style.size);
      this.doc.text(run.text, left, baseline, { lineBreak: false, baseline: 'alphabetic' });
      left += this.doc.widthOfString(run.text);
    }
  }

  /** A new page when `height` more points do not fit on this one. */
  room(height: number) {
    if (this.y + height > PAGE.height - MARGIN.bottom) {
      this.doc.addPage();
      this.y = MARGIN.top;
    }
  }

  /** A block of text, wrapped, from the left edge `x` to the right margin. */
  paragraph(text: string, style: Style, x = MARGIN.left, after = 8) {
    const lineHeight = style.size * style.leading;
    for (const line of this.lines(text, style, PAGE.width - MARGIN.right - x)) {
      this.room(lineHeight);
      this.drawLine(line, style, x, this.y + style.size);
      this.y += lineHeight;
    }
    this.y += after;
  }

  heading(text: string) {
    const style = styles.heading;
    // A heading never ends a page: it keeps two lines of text with it.
    this.room(style.size * style.leading + 10 + styles.body.size * styles.body.leading * 2);
    this.y += 10;
    this.doc.rect(MARGIN.left, this.y + 2, 4, style.size).fill(ACCENT);
    this.paragraph(text, style, MARGIN.left + 12, 6);
  }

  /** Numbered steps or bullet points with a hanging indent. */
  items(items: readonly string[], numbered: boolean) {
    const style = styles.body;
    items.forEach((item, index) => {
      this.room(style.size * style.leading);
      if (numbered) this.drawLine(`${index + 1}.`, styles.label, MARGIN.left, this.y + style.size);
      else this.doc.circle(MARGIN.left + 4, this.y + style.size * 0.62, 1.8).fill(INK);
      this.paragraph(item, style, MARGIN.left + 18, 4);
    });
    this.y += 4;
  }

  /** Rows of a label and a value, ruled, the first column 38 % wide. */
  table(rows: readonly (readonly [string, string])[], head?: readonly [string, string]) {
    const labelWidth = TEXT_WIDTH * 0.38;
    const pad = 5;
    const row = ([label, value]: readonly [string, string], bold: boolean) => {
      const labelStyle = bold ? styles.label : { ...styles.label, color: MUTED };
      const valueStyle = bold ? styles.label : styles.cell;
      const left = this.lines(label, labelStyle, labelWidth - 10);
      const right = this.lines(value, valueStyle, TEXT_WIDTH - labelWidth);
      const lineHeight = styles.cell.size * styles.cell.leading;
      const height = Math.max(left.length, right.length) * lineHeight + pad * 2;
      this.room(height);
      left.forEach((line, i) =>
        this.drawLine(
          line,
          labelStyle,
          MARGIN.left,
          this.y + pad + styles.cell.size + i * lineHeight,
        ),
      );
      right.forEach((line, i) =>
        this.drawLine(
          line,
          valueStyle,
          MARGIN.left + labelWidth,
          this.y + pad + styles.cell.size + i * lineHeight,
        ),
      );
      this.y += height;
      this.doc
        .moveTo(MARGIN.left, this.y)
        .lineTo(PAGE.width - MARGIN.right, this.y)
        .lineWidth(bold ? 1 : 0.5)
        .stroke(bold ? INK : RULE);
    };
    if (head) row(head, true);
    for (const line of rows) row(line, false);
    this.y += 10;
  }

  block(block: ManualBlock) {
    switch (block.kind) {
      case 'paragraph':
        return this.paragraph(block.text, styles.body);
      case 'steps':
        return this.items(block.items, true);
      case 'list':
        return this.items(block.items, false);
      case 'table':
        return this.table(block.rows, block.head);
    }
  }
}

/** Every text of a manual, to know which characters its fonts need. */
const manualTexts = (manual: ManualDocument): string[] => [
  manual.title,
  manual.subtitle,
  manual.footer,
  ...manual.lead,
  ...manual.sections.flatMap((section) => [
    section.heading,
    ...section.blocks.flatMap((block) =>
      block.kind === 'paragraph'
        ? [block.text]
        : block.kind === 'table'
          ? [...(block.head ?? []), ...block.rows.flat()]
          : block.items,
    ),
  ]),
];

/**
 * What prints one language's manuals: the fonts cut to the characters of `manuals` (all
 * that language's manuals, so each font file is cut once), and a function that lays out
 * one manual as a PDF.
 */
export async function manualPrinter(
  language: Language,
  manuals: readonly ManualDocument[],
): Promise<(manual: ManualDocument) => Promise<Uint8Array>> {
  const texts = manuals.flatMap(manualTexts);
  const family = cjkFamilies[language];
  const fonts = family ? await notoSans(family, [...texts, '0123456789 /.']) : helvetica();
  const missing = fonts.missing(texts.join(''));
  if (missing.length > 0)
    throw new Error(
      `The ${language} manuals have characters their font lacks: ${missing.join(' ')}`,
    );
  return (manual) => print(manual, fonts);
}

function print(manual: ManualDocument, fonts: FontSet): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    bufferPages: true,
    lang: manual.lang,
    displayTitle: true,
    info: {
      Title: `${manual.title} · ${manual.subtitle}`,
      Author: 'XOSS',
      Subject: manual.subtitle,
      Creator: 'XOSS web build',
      Producer: 'XOSS web build',
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  fonts.register(doc);
  const layout = new Layout(doc, fonts);

  // The title: the product's name, what this is, and what the product is for.
  doc.rect(0, 0, PAGE.width, 10).fill(ACCENT);
  layout.y = MARGIN.top + 10;
  layout.paragraph(manual.title, styles.title, MARGIN.left, 2);
  layout.paragraph(manual.subtitle, styles.subtitle, MARGIN.left, 14);
  for (const lead of manual.lead) layout.paragraph(lead, styles.lead, MARGIN.left, 8);
  layout.y += 6;
  for (const section of manual.sections) {
    layout.heading(section.heading);
    for (const block of section.blocks) layout.block(block);
  }

  // Every page's footer: the manual and the page of how many.
  const range = doc.bufferedPageRange();
  for (let page = range.start; page < range.start + range.count; page++) {
    doc.switchToPage(page);
    const baseline = PAGE.height - MARGIN.bottom / 2;
    doc
      .moveTo(MARGIN.left, baseline - 16)
      .lineTo(PAGE.width - MARGIN.right, baseline - 16)
      .lineWidth(0.5)
      .stroke(RULE);
    layout.drawLine(manual.footer, styles.footer, MARGIN.left, baseline);
    const number = `${page + 1} / ${range.count}`;
    layout.drawLine(
      number,
      styles.footer,
      PAGE.width - MARGIN.right - layout.width(number, styles.footer),
      baseline,
    );
  }
  doc.end();
  return done;
}
