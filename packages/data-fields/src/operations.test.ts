import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataFields, fieldByKey } from './fieldCatalogue.ts';
import {
  addPage,
  changeLayout,
  defaultDocument,
  deletePage,
  movePage,
  setChartType,
  setField,
} from './operations.ts';
import type { LayoutDocument } from './panelsJson.ts';
import { deviceModels, deviceProfiles, type DeviceProfile } from './profiles.ts';
import type { Result } from './result.ts';
import { validate } from './validate.ts';

const nav = deviceProfiles.NAV;
const start = () => defaultDocument(nav, 'XN1', 1718782574);
const value = <T>(result: Result<T>): T => {
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
};
const code = (result: Result<unknown>) =>
  result.ok ? 'ok' : result.error.map((found) => found.messageId.split('.').pop()).join();

describe('defaultDocument', () => {
  it('is valid for every profile', () => {
    for (const model of deviceModels) {
      const profile = deviceProfiles[model];
      const document = defaultDocument(profile, 'SN', 0);
      expect(validate(document, profile), model).toEqual([]);
      expect(document.pages.length).toBeGreaterThanOrEqual(profile.minPages);
    }
  });
});

describe('operations', () => {
  it('adds pages up to the limit of 6, then refuses', () => {
    let document = start();
    while (document.pages.length < 6) document = value(addPage(document, nav, 0));
    expect(code(addPage(document, nav, 0))).toBe('tooManyPages');
  });

  it('never deletes the last page, and refuses page edits on fixed-page devices', () => {
    let document = start();
    while (document.pages.length > 1) document = value(deletePage(document, nav, 0));
    expect(code(deletePage(document, nav, 0))).toBe('tooFewPages');
    const g2 = defaultDocument(deviceProfiles.G2, 'G', 0);
    expect(code(addPage(g2, deviceProfiles.G2, 0))).toBe('fixedPages');
    expect(code(deletePage(g2, deviceProfiles.G2, 0))).toBe('fixedPages');
  });

  it('keeps fields where the new layout allows, charts only in Large slots', () => {
    let document = value(changeLayout(start(), nav, 0, 1)); // L L
    document = value(setField(document, nav, 0, 0, 'ElevationLineChart', 'area'));
    document = value(setField(document, nav, 0, 1, 'Power'));
    const chart = fieldByKey('ElevationLineChart')!.id;
    const power = fieldByKey('Power')!.id;
    expect(document.pages[0]!.chartTypes).toEqual(['area', null]);
    const relaid = value(changeLayout(document, nav, 0, 4)); // L S S
    expect(relaid.pages[0]!.items[0]).toBe(chart);
    expect(relaid.pages[0]!.items).toContain(power);
    expect(relaid.pages[0]!.chartTypes).toEqual(['area', null, null]);
    const noLarge = value(changeLayout(document, nav, 0, 11)); // S S S
    expect(noLarge.pages[0]!.items).not.toContain(chart);
    expect(noLarge.pages[0]!.items).toContain(power);
    expect(noLarge.pages[0]!.chartTypes).toBeUndefined();
  });

  it('refuses a chart in a Small slot and a field the device lacks', () => {
    const document = value(changeLayout(start(), nav, 0, 11));
    expect(code(setField(document, nav, 0, 0, 'SpeedLineChart'))).toBe('needsLargeSlot');
    const g2 = defaultDocument(deviceProfiles.G2, 'G', 0);
    expect(code(setField(g2, deviceProfiles.G2, 0, 0, 'NP'))).toBe('fieldNotSupported');
    expect(code(setField(g2, deviceProfiles.G2, 9, 0, 'Speed'))).toBe('pageOutOfRange');
    expect(code(setField(g2, deviceProfiles.G2, 0, 99, 'Speed'))).toBe('slotOutOfRange');
    expect(code(setField(g2, deviceProfiles.G2, 0, 0, 12345))).toBe('unknownField');
    expect(code(setChartType(g2, 0, 0, 'area'))).toBe('chartTypeOnValue');
  });

  it('moves pages and renumbers them', () => {
    const document = start();
    const moved = value(movePage(document, 0, 2));
    expect(moved.pages.map((page) => page.index)).toEqual([0, 1, 2]);
    expect(moved.pages[2]!.items).toEqual(document.pages[0]!.items);
    expect(code(movePage(document, 0, 3))).toBe('pageOutOfRange');
  });
});

describe('validate', () => {
  it('lists every problem of a document against its profile', () => {
    const document: LayoutDocument = {
      version: '2.0.0',
      deviceModel: 'G2',
      sn: 'G',
      updatedAt: 0,
      extra: {},
      pages: [
        { index: 0, pid: 11, items: [900, 707, 99999, 300, 200, 100], extra: {} },
        { index: 1, pid: 42, items: [300], extra: {} },
      ],
    };
    const problems = validate(document, deviceProfiles.G2).map(
      (found) => `${found.path}:${found.messageId.split('.').pop()}`,
    );
    expect(problems).toEqual([
      'pages:tooFewPages',
      'pages[0].pid:layoutNotSupported',
      'pages[0].items[0]:fieldNotSupported',
      'pages[0].items[0]:needsLargeSlot',
      'pages[0].items[1]:fieldNotSupported',
      'pages[0].items[2]:unknownField',
      'pages[1].pid:unknownLayout',
    ]);
  });
});

type Operation = (document: LayoutDocument, profile: DeviceProfile) => Result<LayoutDocument>;
const anyIndex = fc.integer({ min: -1, max: 7 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.tuple(fc.integer({ min: -1, max: 18 }), anyIndex).map(
    ([pid, at]): Operation =>
      (document, profile) =>
        addPage(document, profile, pid, at < 0 ? undefined : at),
  ),
  anyIndex.map(
    (index): Operation =>
      (document, profile) =>
        deletePage(document, profile, index),
  ),
  fc.tuple(anyIndex, fc.integer({ min: -1, max: 18 })).map(
    ([index, pid]): Operation =>
      (document, profile) =>
        changeLayout(document, profile, index, pid),
  ),
  fc
    .tuple(
      anyIndex,
      fc.integer({ min: -1, max: 10 }),
      fc.constantFrom(...dataFields.map((field) => field.id), 0, 4242),
      fc.constantFrom('line', 'area', undefined),
    )
    .map(
      ([index, slot, id, type]): Operation =>
        (document, profile) =>
          setField(document, profile, index, slot, id, type),
    ),
  fc.tuple(anyIndex, fc.integer({ min: 0, max: 10 }), fc.constantFrom('line', 'area')).map(
    ([index, slot, type]): Operation =>
      (document) =>
        setChartType(document, index, slot, type),
  ),
  fc.tuple(anyIndex, anyIndex).map(
    ([from, to]): Operation =>
      (document) =>
        movePage(document, from, to),
  ),
);

describe('operations, for any sequence', () => {
  it('keep a valid document valid for its profile, and leave it untouched when they refuse', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...deviceModels),
        fc.array(operation, { maxLength: 30 }),
        (model, operations) => {
          const profile = deviceProfiles[model];
          let document = defaultDocument(profile, 'SN', 0);
          for (const apply of operations) {
            const before = JSON.stringify(document);
            const result = apply(document, profile);
            expect(JSON.stringify(document)).toBe(before);
            if (result.ok) {
              expect(validate(result.value, profile)).toEqual([]);
              document = result.value;
            } else {
              expect(result.error.length).toBeGreaterThan(0);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
