import fc from 'fast-check';
import { chartTypes, dataFields } from '../fieldCatalogue.ts';
import { layoutTemplates } from '../layouts.ts';
import type { LayoutDocument, LayoutPage } from '../panelsJson.ts';
import { deviceModels } from '../profiles.ts';

// Test-only generators (not exported from the package).
const json: fc.Arbitrary<unknown> = fc
  .jsonValue()
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const extraKey = fc
  .string({ minLength: 1, maxLength: 8 })
  .filter(
    (key) =>
      ![
        'version',
        'device_model',
        'sn',
        'updated_at',
        'pages_count',
        'pages',
        'index',
        'pid',
        'count',
        'items',
        'chart_types',
        '__proto__',
      ].includes(key),
  );
const extra = fc.dictionary(extraKey, json, { maxKeys: 3 });

const page = (index: number): fc.Arbitrary<LayoutPage> =>
  fc
    .record({
      pid: fc.constantFrom(...layoutTemplates.map((template) => template.pid)),
      items: fc.array(fc.constantFrom(...dataFields.map((field) => field.id)), {
        minLength: 1,
        maxLength: 10,
      }),
      withCharts: fc.boolean(),
      types: fc.array(fc.constantFrom(...chartTypes, null), { minLength: 10, maxLength: 10 }),
      extra,
    })
    .map(({ pid, items, withCharts, types, extra: pageExtra }) => ({
      index,
      pid,
      items,
      ...(withCharts ? { chartTypes: items.map((_, slot) => types[slot] ?? null) } : {}),
      extra: pageExtra,
    }));

/** Any well-formed layout document (not necessarily valid for a profile). */
export function arbitraryDocument(): fc.Arbitrary<LayoutDocument> {
  return fc.integer({ min: 0, max: 8 }).chain((count) =>
    fc.record({
      version: fc.constantFrom('2.0.0', '2.1.0'),
      deviceModel: fc.constantFrom(...deviceModels),
      sn: fc.string({ maxLength: 20 }),
      updatedAt: fc.integer({ min: 0, max: 2 ** 31 }),
      pages: fc.tuple(...Array.from({ length: count }, (_, index) => page(index))),
      extra,
    }),
  );
}
