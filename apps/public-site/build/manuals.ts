import type { Plugin } from 'vite';
import { manualLanguages, translatorFor, type ManualLanguage } from '@xoss/i18n';
import { manualHref, products, type Product } from '../src/products.ts';
import { manualDocument, type ManualDocument } from './manualContent.ts';
import { manualPrinter } from './manualPdf.ts';

/**
 * The manuals the site links to: one PDF per product (bike computers, sensors and lights)
 * and manual language, printed at build time from the product's data and the catalogue's
 * `manual.*` texts in that language (build/manualContent.ts), laid out by build/manualPdf.ts.
 */

export interface BuiltManual {
  readonly product: Product;
  readonly language: ManualLanguage;
  /** `manuals/xossnav-en.pdf`: where the site links it, without the leading slash. */
  readonly fileName: string;
  readonly manual: ManualDocument;
  readonly pdf: Uint8Array;
}

/** Every manual, printed. */
export async function buildManuals(): Promise<BuiltManual[]> {
  const perLanguage = await Promise.all(
    manualLanguages.map(async (language) => {
      const translator = await translatorFor(language);
      const manuals = products.map((product) => manualDocument(product, translator));
      // The fonts are cut once per language, to what all its manuals print.
      const print = await manualPrinter(manuals[0]!.language, manuals);
      return Promise.all(
        products.map(async (product, index) => ({
          product,
          language,
          fileName: manualHref(product.slug, language).slice(1),
          manual: manuals[index]!,
          pdf: await print(manuals[index]!),
        })),
      );
    }),
  );
  return perLanguage.flat();
}

export function manualsPlugin(): Plugin {
  let ssr = false;
  return {
    name: 'xoss-manuals',
    apply: 'build',
    configResolved(config) {
      // The prerender's server build has no use for them.
      ssr = Boolean(config.build.ssr);
    },
    async generateBundle() {
      if (ssr) return;
      for (const manual of await buildManuals())
        this.emitFile({ type: 'asset', fileName: manual.fileName, source: manual.pdf });
    },
  };
}
