// @vitest-environment node
/// <reference types="node" />
import {
  manualLanguages,
  translatorFor,
  type MessageId,
  type MessageValues,
  type Translator,
} from '@xoss/i18n';
import { OPS, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT } from '../build/manualContent.ts';
import { buildManuals, type BuiltManual } from '../build/manuals.ts';
import { productSpecs } from '../src/productSpecs.ts';
import { products } from '../src/products.ts';

// Every product's manual in every manual language, printed as the build prints them, then
// read back with pdf.js (Mozilla's PDF reader): the file parses, and its text, as a reader
// extracts it, is the product's and the language's.

interface ReadPdf {
  pages: number;
  /** Every page's text, whitespace removed (lines wrap anywhere). */
  text: string;
  lang: unknown;
  /** The fonts the pages set text in. */
  fonts: { name: string; embedded: boolean }[];
}

async function read(pdf: Uint8Array): Promise<ReadPdf> {
  const task = getDocument({
    data: new Uint8Array(pdf),
    disableFontFace: true,
    fontExtraProperties: true,
    verbosity: 0,
  });
  const document = await task.promise;
  let text = '';
  const fonts = new Map<string, boolean>();
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    for (const item of content.items) if ('str' in item) text += item.str;
    const operators = await page.getOperatorList();
    operators.fnArray.forEach((fn, index) => {
      if (fn !== OPS.setFont) return;
      const font = page.commonObjs.get(String((operators.argsArray[index] as unknown[])[0])) as {
        name: string;
        missingFile: boolean;
        data?: Uint8Array;
      };
      fonts.set(font.name, !font.missingFile && (font.data?.length ?? 0) > 0);
    });
  }
  const info = (await document.getMetadata()).info as { Language?: unknown };
  const pages = document.numPages;
  await task.destroy();
  return {
    pages,
    text: text.replace(/\s+/g, ''),
    lang: info.Language,
    fonts: [...fonts].map(([name, embedded]) => ({ name, embedded })),
  };
}

const squeeze = (text: string) => text.replace(/\s+/g, '');
const CJK = { ja: 'NotoSansJP', ko: 'NotoSansKR', cn: 'NotoSansSC', tw: 'NotoSansTC' } as const;

let manuals: BuiltManual[];
const translators = new Map<string, Translator>();
const readBack = new Map<string, ReadPdf>();
beforeAll(async () => {
  manuals = await buildManuals();
  for (const language of manualLanguages) translators.set(language, await translatorFor(language));
  for (const manual of manuals) readBack.set(manual.fileName, await read(manual.pdf));
});

const find = (slug: string, language: string) => {
  const manual = manuals.find(
    (candidate) => candidate.product.slug === slug && candidate.language === language,
  )!;
  const translator = translators.get(language)!;
  const t = (id: MessageId, values?: MessageValues) => translator.t(id, values);
  return { manual, pdf: readBack.get(manual.fileName)!, t };
};

describe('the manuals', () => {
  it('are one PDF per product, sensors and lights included, and per language we have texts in', () => {
    expect(manualLanguages).toEqual(['en', 'ja', 'de', 'es', 'it', 'ko', 'tw', 'cn', 'pt']);
    expect(manuals.map((manual) => manual.fileName).sort()).toEqual(
      products
        .flatMap((product) =>
          manualLanguages.map((language) => `manuals/${product.slug}-${language}.pdf`),
        )
        .sort(),
    );
    expect(manuals).toHaveLength(8 * 9);
  });

  it("print each product's name, specifications and every section in the manual's language", () => {
    for (const { product, language, fileName, pdf: bytes } of manuals) {
      const { pdf, t } = find(product.slug, language);
      expect(new TextDecoder().decode(bytes.slice(0, 5)), fileName).toBe('%PDF-');
      expect(pdf.lang, fileName).toBe(translators.get(language)!.locale);
      const name = t(product.name);
      expect(pdf.text, fileName).toContain(squeeze(`XOSS ${name}`));
      // The product page's table, row by row: label and value.
      for (const line of productSpecs[product.slug]) {
        expect(pdf.text, `${fileName} ${line.value}`).toContain(squeeze(t(line.label)));
        expect(pdf.text, `${fileName} ${line.value}`).toContain(
          squeeze(t(line.value, line.values)),
        );
      }
      // The sections, in this order; sensors have a coin cell where others are charged.
      const power = product.slug.match(/HeartRate|Cadence|Speed/) ? 'battery' : 'charging';
      const headings = (['specs', 'controls', 'pairing', power, 'care', 'support'] as const).map(
        (id) => squeeze(t(`manual.section.${id}` as MessageId)),
      );
      // Each heading after the one before (a heading's word may also label a table row).
      let from = 0;
      for (const heading of headings) {
        const index = pdf.text.indexOf(heading, from);
        expect(index, `${fileName}: ${heading} after ${from}`).toBeGreaterThanOrEqual(from);
        from = index + heading.length;
      }
      expect(pdf.text, fileName).toContain(squeeze(t('manual.support', SUPPORT)));
      // Each paragraph is the catalogue's text, not a placeholder or an id.
      expect(pdf.text, fileName).not.toMatch(/manual\.[a-z]+\./);
      expect(pdf.pages, fileName).toBeGreaterThanOrEqual(2);
    }
  });

  it('say what each kind of product has: buttons, pairing, charging or a coin cell', () => {
    const nav = find('xossnav', 'en');
    for (const button of ['Power', 'Start/Pause', 'Lap/OK', 'Page'])
      expect(nav.pdf.text).toContain(button);
    expect(nav.pdf.text).toContain(squeeze(nav.t('manual.pair.computer3', { name: 'NAV' })));
    expect(nav.pdf.text).toContain(squeeze('Battery life on a full charge: 33+ hours.'));
    const g = find('xossG', 'de');
    expect(g.pdf.text).toContain(squeeze(g.t('manual.does.powerPage')));
    expect(g.pdf.text).not.toContain(squeeze(g.t('manual.button.lap')));
    const heartRate = find('xossHeartRate', 'es');
    expect(heartRate.pdf.text).toContain(squeeze(heartRate.t('manual.controls.heartRate')));
    expect(heartRate.pdf.text).toContain(squeeze(heartRate.t('manual.care.strap')));
    expect(heartRate.pdf.text).toContain('CR2032');
    expect(heartRate.pdf.text).not.toContain(squeeze(heartRate.t('manual.section.charging')));
    const lights = find('xossLights', 'pt');
    expect(lights.pdf.text).toContain(squeeze(lights.t('manual.charge.lights')));
    expect(lights.pdf.text).toContain(squeeze(lights.t('manual.does.mode')));
  });

  it('set Japanese, Korean and Chinese in embedded subsets of Noto Sans, so the text reads back', () => {
    for (const [language, family] of Object.entries(CJK)) {
      for (const product of products) {
        const { pdf, t, manual } = find(product.slug, language);
        expect(pdf.fonts.length, manual.fileName).toBeGreaterThan(1);
        for (const font of pdf.fonts) {
          // A subset (`ABCDEF+` before the name) of this language's Noto Sans, in the file.
          expect(font.name, manual.fileName).toMatch(new RegExp(`^[A-Z]{6}\\+${family}-`));
          expect(font.embedded, `${manual.fileName} ${font.name}`).toBe(true);
        }
        // Whole sentences of the language come back from the file's text.
        expect(pdf.text, manual.fileName).toContain(squeeze(t('manual.care.clean')));
        expect(pdf.text, manual.fileName).toContain(
          squeeze(t('manual.intro', { name: t(product.name) })),
        );
        // Subsets keep the files small (a whole Noto Sans CJK font is megabytes).
        expect(manual.pdf.byteLength, manual.fileName).toBeLessThan(200_000);
      }
    }
    // The Latin-script languages use the reader's own Helvetica: nothing to embed.
    const german = find('xossnav', 'de').pdf;
    expect(german.fonts.map((font) => font.name).sort()).toEqual(['Helvetica', 'Helvetica-Bold']);
    expect(german.text).toContain(
      squeeze('Wasserschutz IPX7: Regen und Spritzwasser schaden nicht'),
    );
  });
});
