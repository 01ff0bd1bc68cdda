import type { ManualLanguage, MessageId } from '@xoss/i18n';
import type { DeviceShape } from '@xoss/ui-kit';

export interface Product {
  /** The path segment: `/product/{slug}` (spec 2; `{product}` is the brand, xoss). */
  readonly slug: 'xossnav' | 'xossg2' | 'xossG' | 'xossSprint';
  readonly name: string;
  readonly shape: DeviceShape;
  readonly tagline: MessageId;
  readonly intro: MessageId;
  /** xossnav is shown on black (spec 2). */
  readonly theme: 'light' | 'night';
}

export { SHOP_URL } from '@xoss/ui-kit';

/** The line-up (spec 9; its figures are in productSpecs.ts). */
export const products: readonly Product[] = [
  {
    slug: 'xossnav',
    name: 'NAV',
    shape: 'NAV',
    tagline: 'product.nav.tagline',
    intro: 'product.nav.intro',
    theme: 'night',
  },
  {
    slug: 'xossg2',
    name: 'G 2nd generation',
    shape: 'G2',
    tagline: 'product.g2.tagline',
    intro: 'product.g2.intro',
    theme: 'light',
  },
  {
    slug: 'xossG',
    name: 'G',
    shape: 'G',
    tagline: 'product.g.tagline',
    intro: 'product.g.intro',
    theme: 'light',
  },
  {
    slug: 'xossSprint',
    name: 'SPRINT',
    shape: 'SPRINT',
    tagline: 'product.sprint.tagline',
    intro: 'product.sprint.intro',
    theme: 'light',
  },
];

export const productBySlug = (slug: string | undefined) =>
  products.find((product) => product.slug === slug);

/** Spec 1: manuals per product in these languages (file names use these codes). */
export { manualLanguages } from '@xoss/i18n';

/** The manual's file on this origin (served by the site's static files). */
export const manualHref = (slug: Product['slug'], language: ManualLanguage) =>
  `/manuals/${slug}-${language}.pdf`;
