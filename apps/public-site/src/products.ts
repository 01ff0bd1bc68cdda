import type { ManualLanguage, MessageId, MessageValues } from '@xoss/i18n';
import type { DeviceShape } from '@xoss/ui-kit';

/** One row of a specification table: a label and a value, both catalogue messages. */
export interface SpecLine {
  readonly label: MessageId;
  readonly value: MessageId;
  readonly values?: MessageValues;
}

export interface Product {
  /** The path segment: `/product/{slug}` (spec 2; `{product}` is the brand, xoss). */
  readonly slug: 'xossnav' | 'xossg2' | 'xossG' | 'xossSprint';
  readonly name: string;
  readonly shape: DeviceShape;
  readonly tagline: MessageId;
  readonly intro: MessageId;
  /** xossnav is shown on black (spec 2). */
  readonly theme: 'light' | 'night';
  readonly specs: readonly SpecLine[];
}

export const SHOP_URL = 'https://shop.xoss.co';

const common: readonly SpecLine[] = [
  { label: 'spec.waterproof', value: 'common.ipx7' },
  { label: 'spec.temperature', value: 'spec.tempRange', values: { min: -10, max: 50 } },
];

/** The line-up with the figures of spec 9. */
export const products: readonly Product[] = [
  {
    slug: 'xossnav',
    name: 'NAV',
    shape: 'NAV',
    tagline: 'product.nav.tagline',
    intro: 'product.nav.intro',
    theme: 'night',
    specs: [
      { label: 'spec.screen', value: 'spec.inch', values: { size: 2.4 } },
      { label: 'spec.battery', value: 'spec.hoursPlus', values: { hours: 33 } },
      { label: 'spec.capacity', value: 'common.mAh', values: { value: 600 } },
      { label: 'spec.sensors', value: 'spec.peripheralsValue', values: { count: 4 } },
      { label: 'spec.pages', value: 'spec.pagesValue', values: { pages: 6, layouts: 17 } },
      { label: 'spec.dataTypes', value: 'common.number', values: { value: 49 } },
      { label: 'spec.maps', value: 'spec.mapsValue', values: { gb: 3.6 } },
      ...common,
    ],
  },
  {
    slug: 'xossg2',
    name: 'G 2nd generation',
    shape: 'G2',
    tagline: 'product.g2.tagline',
    intro: 'product.g2.intro',
    theme: 'light',
    specs: [
      { label: 'spec.battery', value: 'spec.hours', values: { hours: 28 } },
      { label: 'spec.capacity', value: 'common.mAh', values: { value: 500 } },
      { label: 'spec.pages', value: 'spec.fixedPagesValue', values: { pages: 3 } },
      { label: 'spec.dataTypes', value: 'spec.dataTypesG2', values: { g: 12, gPlus: 24 } },
      ...common,
    ],
  },
  {
    slug: 'xossG',
    name: 'G',
    shape: 'G',
    tagline: 'product.g.tagline',
    intro: 'product.g.intro',
    theme: 'light',
    specs: [
      { label: 'spec.battery', value: 'spec.hours', values: { hours: 25 } },
      { label: 'spec.capacity', value: 'common.mAh', values: { value: 500 } },
      { label: 'spec.history', value: 'spec.historyValue', values: { km: 1500 } },
      ...common,
    ],
  },
  {
    slug: 'xossSprint',
    name: 'SPRINT',
    shape: 'SPRINT',
    tagline: 'product.sprint.tagline',
    intro: 'product.sprint.intro',
    theme: 'light',
    specs: [{ label: 'spec.screen', value: 'spec.inch', values: { size: 2.7 } }, ...common],
  },
];

export const productBySlug = (slug: string | undefined) =>
  products.find((product) => product.slug === slug);

/** Spec 1: manuals per product in these languages (file names use these codes). */
export { manualLanguages } from '@xoss/i18n';

/** The manual's file on this origin (served by the site's static files). */
export const manualHref = (slug: Product['slug'], language: ManualLanguage) =>
  `/manuals/${slug}-${language}.pdf`;
