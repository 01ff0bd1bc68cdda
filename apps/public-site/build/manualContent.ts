// What a product's manual says, in one language: the product's own data (its name, tagline
// and specification table from src/products.ts and src/productSpecs.ts, the figures the
// product pages show) and the `manual.*` texts of the catalogue, chosen by what the product
// is: its buttons, how it pairs, what powers it, how to look after it.
import type { Language, MessageId, MessageValues, Translator } from '@xoss/i18n';
import { productSpecs, type SpecLine } from '../src/productSpecs.ts';
import type { Product } from '../src/products.ts';

export type ManualBlock =
  | { readonly kind: 'paragraph'; readonly text: string }
  /** Numbered steps. */
  | { readonly kind: 'steps'; readonly items: readonly string[] }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | {
      readonly kind: 'table';
      readonly head?: readonly [string, string];
      readonly rows: readonly (readonly [string, string])[];
    };

interface ManualSection {
  /** What the section is about (the tests find sections by it). */
  readonly id: 'specs' | 'controls' | 'pairing' | 'charging' | 'battery' | 'care' | 'support';
  readonly heading: string;
  readonly blocks: readonly ManualBlock[];
}

/** A manual, laid out by build/manualPdf.ts. */
export interface ManualDocument {
  readonly language: Language;
  /** BCP 47 tag for the PDF's /Lang. */
  readonly lang: string;
  /** `XOSS NAV`. */
  readonly title: string;
  /** `User manual`. */
  readonly subtitle: string;
  readonly lead: readonly string[];
  readonly footer: string;
  readonly sections: readonly ManualSection[];
}

interface Control {
  readonly button: MessageId;
  readonly does: MessageId;
}

/** What each product's manual says beyond its table: its controls, pairing and power. */
interface ManualFacts {
  /** A table of buttons, or the paragraph of a product without any. */
  readonly controls: readonly Control[] | MessageId;
  /** Steps (or one paragraph) to pair it. */
  readonly pairing: readonly MessageId[];
  /** A built-in battery charged over USB, or a coin cell the rider replaces. */
  readonly power:
    { readonly kind: 'rechargeable'; readonly how: MessageId } | { readonly kind: 'coinCell' };
  /** Care points of this kind of product, before the common ones. */
  readonly care: readonly MessageId[];
}

const fourButtons: readonly Control[] = [
  { button: 'manual.button.power', does: 'manual.does.power' },
  { button: 'manual.button.startPause', does: 'manual.does.startPause' },
  { button: 'manual.button.lap', does: 'manual.does.lap' },
  { button: 'manual.button.page', does: 'manual.does.page' },
];
/** The G models: power (which also turns the pages) and start. */
const twoButtons: readonly Control[] = [
  { button: 'manual.button.power', does: 'manual.does.powerPage' },
  { button: 'manual.button.startPause', does: 'manual.does.startPause' },
];
const computer = (controls: readonly Control[]): ManualFacts => ({
  controls,
  pairing: [
    'manual.pair.computer1',
    'manual.pair.computer2',
    'manual.pair.computer3',
    'manual.pair.computer4',
  ],
  power: { kind: 'rechargeable', how: 'manual.charge.computer' },
  care: ['manual.care.road', 'manual.care.firmware'],
});
const sensor = (controls: MessageId, wake: MessageId, care: readonly MessageId[] = []) =>
  ({
    controls,
    pairing: [wake, 'manual.pair.sensor2', 'manual.pair.sensor3'],
    power: { kind: 'coinCell' },
    care,
  }) satisfies ManualFacts;

const manualFacts: Readonly<Record<Product['slug'], ManualFacts>> = {
  xossnav: computer(fourButtons),
  xossSprint: computer(fourButtons),
  xossg2: computer(twoButtons),
  xossG: computer(twoButtons),
  xossHeartRate: sensor('manual.controls.heartRate', 'manual.pair.heartRate', [
    'manual.care.strap',
  ]),
  xossCadence: sensor('manual.controls.motion', 'manual.pair.cadence'),
  xossSpeed: sensor('manual.controls.motion', 'manual.pair.speed'),
  xossLights: {
    controls: [{ button: 'manual.button.mode', does: 'manual.does.mode' }],
    pairing: ['manual.pair.lights'],
    power: { kind: 'rechargeable', how: 'manual.charge.lights' },
    care: ['manual.care.lights'],
  },
};

/** Where the manual sends a rider for help. */
export const SUPPORT = { email: 'support@xoss.co', site: 'www.xoss.co' };

/** The product's tagline and intro messages are the site's; so is its name. */
export function manualDocument(product: Product, translator: Translator): ManualDocument {
  const t = (id: MessageId, values?: MessageValues) => translator.t(id, values);
  const locale = translator.locale;
  const specs = productSpecs[product.slug];
  const facts = manualFacts[product.slug];
  const name = t(product.name);
  /** A line of the specification table as the product page writes it. */
  const spec = (label: SpecLine['label']) => {
    const line = specs.find((candidate) => candidate.label === label);
    return line ? t(line.value, line.values) : undefined;
  };
  const temperature = specs.find((line) => line.label === 'spec.temperature');

  const controls: ManualBlock =
    typeof facts.controls === 'string'
      ? { kind: 'paragraph', text: t(facts.controls) }
      : {
          kind: 'table',
          head: [t('manual.controls.button'), t('manual.controls.action')],
          rows: facts.controls.map((control) => [t(control.button), t(control.does)] as const),
        };
  const pairing = facts.pairing.map((id) => t(id, { name }));
  const runtime = spec('spec.battery');
  const capacity = spec('spec.capacity');
  const cell = spec('spec.cell');
  const waterproof = spec('spec.waterproof');
  const power: ManualSection =
    facts.power.kind === 'rechargeable'
      ? {
          id: 'charging',
          heading: t('manual.section.charging'),
          blocks: [
            { kind: 'paragraph', text: t(facts.power.how) },
            {
              kind: 'list',
              items: [
                ...(runtime ? [t('manual.charge.runtime', { runtime })] : []),
                ...(capacity ? [t('manual.charge.capacity', { capacity })] : []),
                t('manual.charge.temperature'),
              ],
            },
          ],
        }
      : {
          id: 'battery',
          heading: t('manual.section.battery'),
          blocks: [{ kind: 'paragraph', text: t('manual.battery.coinCell', { cell: cell ?? '' }) }],
        };
  const care = [
    t('manual.care.clean'),
    ...(waterproof ? [t('manual.care.waterproof', { rating: waterproof })] : []),
    ...(temperature
      ? [t('manual.care.temperature', { range: t(temperature.value, temperature.values) })]
      : []),
    ...(facts.power.kind === 'rechargeable' ? [t('manual.care.store')] : []),
    ...facts.care.map((id) => t(id)),
    t('manual.care.recycle'),
  ];
  return {
    language: locale as Language,
    lang: locale,
    title: `XOSS ${name}`,
    subtitle: t('manual.title'),
    lead: [t(product.tagline), t(product.intro), t('manual.intro', { name })],
    footer: `XOSS ${name} · ${t('manual.title')}`,
    sections: [
      {
        id: 'specs',
        heading: t('manual.section.specs'),
        blocks: [
          {
            kind: 'table',
            rows: [
              [t('spec.model'), name],
              ...specs.map((line) => [t(line.label), t(line.value, line.values)] as const),
            ],
          },
        ],
      },
      { id: 'controls', heading: t('manual.section.controls'), blocks: [controls] },
      {
        id: 'pairing',
        heading: t('manual.section.pairing'),
        blocks: [
          pairing.length > 1
            ? { kind: 'steps', items: pairing }
            : { kind: 'paragraph', text: pairing[0] ?? '' },
        ],
      },
      power,
      { id: 'care', heading: t('manual.section.care'), blocks: [{ kind: 'list', items: care }] },
      {
        id: 'support',
        heading: t('manual.section.support'),
        blocks: [{ kind: 'paragraph', text: t('manual.support', SUPPORT) }],
      },
    ],
  };
}
