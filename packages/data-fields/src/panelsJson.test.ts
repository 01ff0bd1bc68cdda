import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePanels, serializePanels, type LayoutDocument } from './panelsJson.ts';
import { deviceProfiles } from './profiles.ts';
import { validate } from './validate.ts';
import { arbitraryDocument } from './testing/arbitraries.ts';

const sample =
  '{"version":"2.0.0","device_model":"NAV","sn":"XN2401000123","updated_at":1718782574,"pages_count":2,' +
  '"pages":[{"index":0,"pid":0,"count":1,"items":[103]},{"index":1,"pid":4,"count":3,"items":[300,200,100],"brightness":3}],' +
  '"theme":{"dark":true}}';

describe('parsePanels', () => {
  it('reads a device file and writes it back exactly, unknown members included', () => {
    const result = parsePanels(sample);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({
      version: '2.0.0',
      deviceModel: 'NAV',
      sn: 'XN2401000123',
      updatedAt: 1718782574,
    });
    expect(result.value.pages[1]).toMatchObject({
      pid: 4,
      items: [300, 200, 100],
      extra: { brightness: 3 },
    });
    expect(result.value.extra).toEqual({ theme: { dark: true } });
    expect(serializePanels(result.value)).toBe(sample);
    expect(validate(result.value, deviceProfiles.NAV)).toEqual([]);
  });

  it('round-trips any document: parse(serialize(d)) is d and serialize(parse(t)) is t', () => {
    fc.assert(
      fc.property(arbitraryDocument(), (document: LayoutDocument) => {
        const text = serializePanels(document);
        const parsed = parsePanels(text);
        expect(parsed).toEqual({ ok: true, value: document });
        if (parsed.ok) expect(serializePanels(parsed.value)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps a __proto__ member as data, never as a prototype', () => {
    const text =
      '{"version":"2.0.0","device_model":"NAV","sn":"1","updated_at":0,"pages_count":0,"pages":[],"__proto__":{"polluted":true}}';
    const result = parsePanels(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result.value.extra)).toBe(Object.prototype);
    expect(serializePanels(result.value)).toBe(text);
  });

  it('lists every problem of a bad document without throwing', () => {
    const bad = {
      version: 2,
      device_model: 'NAV',
      updated_at: -5,
      pages_count: 3,
      pages: [
        { index: 0, pid: 'zero', count: 2, items: [300, 'speed'] },
        { index: 7, pid: 1, count: 3, items: [300] },
        null,
      ],
    };
    const result = parsePanels(bad);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const paths = result.error.map((found) => `${found.path}:${found.messageId.split('.').pop()}`);
    expect(paths).toEqual([
      'version:wrongType',
      'sn:missing',
      'updated_at:wrongType',
      'pages[0].pid:wrongType',
      'pages[0].items[1]:wrongType',
      'pages[1].index:indexMismatch',
      'pages[1].count:countMismatch',
      'pages[2]:wrongType',
    ]);
  });

  it('rejects a 50 MB file before parsing it, and non-JSON with a message', () => {
    const huge = `{"version":"${'x'.repeat(50 * 1024 * 1024)}"}`;
    const result = parsePanels(huge);
    expect(result).toMatchObject({
      ok: false,
      error: [{ messageId: 'dataFields.problem.tooLarge' }],
    });
    expect(parsePanels('{"version":')).toMatchObject({
      ok: false,
      error: [{ messageId: 'dataFields.problem.invalidJson' }],
    });
    expect(parsePanels(42)).toMatchObject({
      ok: false,
      error: [{ messageId: 'dataFields.problem.wrongType' }],
    });
  });

  it('rejects an over-long string member and too many pages', () => {
    const long = {
      version: '2.0.0',
      device_model: 'NAV',
      sn: 'x'.repeat(300),
      updated_at: 0,
      pages_count: 0,
      pages: [],
    };
    expect(parsePanels(long)).toMatchObject({
      ok: false,
      error: [{ path: 'sn', messageId: 'dataFields.problem.tooLong' }],
    });
    const many = {
      ...long,
      sn: '1',
      pages_count: 65,
      pages: Array.from({ length: 65 }, (_, index) => ({ index, pid: 0, count: 1, items: [300] })),
    };
    expect(parsePanels(many)).toMatchObject({
      ok: false,
      error: [{ path: 'pages', messageId: 'dataFields.problem.tooManyPages' }],
    });
  });
});
