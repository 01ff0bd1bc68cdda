import type { Plugin } from 'vite';
import english from '@xoss/i18n/messages/en-US.json' with { type: 'json' };
import { computers, manualHref, manualLanguages } from '../src/products.ts';

/**
 * The manuals the site links to (spec 1: per product, per language), written at build time
 * as small valid PDF files, so every manual link answers in a local run. A real release
 * replaces them with the documentation team's files under the same names.
 */

/** A one-page PDF 1.4 with Helvetica text lines (ASCII only). */
function onePagePdf(lines: readonly string[]): Uint8Array {
  const escape = (text: string) => text.replace(/[\\()]/g, (char) => `\\${char}`);
  const content = [
    'BT /F1 18 Tf 72 760 Td',
    ...lines.map((line, index) => `${index === 0 ? '' : '0 -28 Td '}(${escape(line)}) Tj`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

export function manualsPlugin(): Plugin {
  return {
    name: 'xoss-manuals',
    apply: 'build',
    generateBundle() {
      // The bike computers' manuals; the product's English name from the catalogue.
      for (const product of computers)
        for (const language of manualLanguages)
          this.emitFile({
            type: 'asset',
            fileName: manualHref(product.slug, language).slice(1),
            source: onePagePdf([
              `XOSS ${english[product.name]}`,
              `User manual (${language})`,
              'Charge, pair with the XOSS app, and ride.',
              'Support: support@xoss.co',
            ]),
          });
    },
  };
}
