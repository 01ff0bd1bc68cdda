import type { ManualLanguage, MessageId } from '@xoss/i18n';
import type { DeviceShape } from '@xoss/ui-kit';

export interface Product {
  /** The path segment: `/product/{slug}` (spec 2; `{product}` is the brand, xoss). */
  readonly slug:
    | 'xossnav'
    | 'xossg2'
    | 'xossG'
    | 'xossSprint'
    | 'xossHeartRate'
    | 'xossCadence'
    | 'xossSpeed'
    | 'xossLights';
  /**
   * The product's name in the catalogue (`productName.*`), the one source of product names
   * in every language: cards, headings, tables and manuals all read it, so one product is
   * never "G 2nd generation" in one place and something else in another.
   */
  readonly name: MessageId;
  /** Bike computers are on the home page's first list; accessories follow. */
  readonly kind: 'computer' | 'accessory';
  readonly shape: DeviceShape;
  readonly tagline: MessageId;
  readonly intro: MessageId;
  /** xossnav is shown on black (spec 2). */
  readonly theme: 'light' | 'night';
}

export { SHOP_URL } from '@xoss/ui-kit';

/** The line-up (spec 1, 9; its figures are in productSpecs.ts). */
export const products: readonly Product[] = [
  {
    slug: 'xossnav',
    name: 'productName.NAV',
    kind: 'computer',
    shape: 'NAV',
    tagline: 'product.nav.tagline',
    intro: 'product.nav.intro',
    theme: 'night',
  },
  {
    slug: 'xossg2',
    name: 'productName.G2',
    kind: 'computer',
    shape: 'G2',
    tagline: 'product.g2.tagline',
    intro: 'product.g2.intro',
    theme: 'light',
  },
  {
    slug: 'xossG',
    name: 'productName.G',
    kind: 'computer',
    shape: 'G',
    tagline: 'product.g.tagline',
    intro: 'product.g.intro',
    theme: 'light',
  },
  {
    slug: 'xossSprint',
    name: 'productName.SPRINT',
    kind: 'computer',
    shape: 'SPRINT',
    tagline: 'product.sprint.tagline',
    intro: 'product.sprint.intro',
    theme: 'light',
  },
  // Spec 1: heart-rate, cadence and speed sensors, and bike lights.
  {
    slug: 'xossHeartRate',
    name: 'productName.heartRate',
    kind: 'accessory',
    shape: 'HEART_RATE',
    tagline: 'product.heartRate.tagline',
    intro: 'product.heartRate.intro',
    theme: 'light',
  },
  {
    slug: 'xossCadence',
    name: 'productName.cadence',
    kind: 'accessory',
    shape: 'SENSOR',
    tagline: 'product.cadence.tagline',
    intro: 'product.cadence.intro',
    theme: 'light',
  },
  {
    slug: 'xossSpeed',
    name: 'productName.speed',
    kind: 'accessory',
    shape: 'SENSOR',
    tagline: 'product.speed.tagline',
    intro: 'product.speed.intro',
    theme: 'light',
  },
  {
    slug: 'xossLights',
    name: 'productName.lights',
    kind: 'accessory',
    shape: 'LIGHTS',
    tagline: 'product.lights.tagline',
    intro: 'product.lights.intro',
    theme: 'light',
  },
];

/** The bike computers. */
export const computers = products.filter((product) => product.kind === 'computer');
/** The sensors and lights. */
export const accessories = products.filter((product) => product.kind === 'accessory');

export const productBySlug = (slug: string | undefined) =>
  products.find((product) => product.slug === slug);

/** Manuals per product in these languages (file names use these codes). */
export { manualLanguages } from '@xoss/i18n';

/** The manual's file on this origin (served by the site's static files). */
export const manualHref = (slug: Product['slug'], language: ManualLanguage) =>
  `/manuals/${slug}-${language}.pdf`;

/**
 * The app download page in the visitor's language (`/product/download/{lang}`): its store
 * links open in that language.
 */
export const appHref = (language: string) => `/product/download/${encodeURIComponent(language)}`;
