// @vitest-environment happy-dom
/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { categories } from './categories.ts';
import { dataFields, fieldById, fieldByKey, isFieldKey } from './fieldCatalogue.ts';

// The 42 fields spec 3 names, spelled as it spells them.
const specKeys = [
  'Speed',
  'MaxSpeed',
  'AvgMovingSpeed',
  'SpeedPanel',
  'SpeedLineChart',
  'ElevationLineChart',
  'MovingTime',
  'TotalTime',
  'PausedTime',
  'CurrentTime',
  'SunriseTime',
  'SunsetTime',
  'Distance',
  'Odometer',
  'Elevation',
  'MaxElevation',
  'MinElevation',
  'Grade',
  'ElevationGain',
  'ElevationLoss',
  'MaxGrade',
  'MinGrade',
  'Heartrate',
  'MaxHR',
  'AvgHR',
  'MAX_HR',
  'LTHR',
  'Cadence',
  'MaxCadence',
  'AvgCadence',
  'Power',
  'MaxPower',
  'AvgPower',
  'AvgPower_3s',
  'AvgPower_10s',
  'AvgPower_30s',
  'FTP',
  'NP',
  'TSS',
  'IF',
  'Calories',
  'Temperature',
];

describe('the data-field catalogue', () => {
  it('has 49 fields with unique keys and ids', () => {
    expect(dataFields).toHaveLength(49);
    expect(new Set(dataFields.map((field) => field.key)).size).toBe(49);
    expect(new Set(dataFields.map((field) => field.id)).size).toBe(49);
  });

  it("holds the spec's 42 keys, and marks exactly the 7 others as added with a reason", () => {
    expect(specKeys).toHaveLength(42);
    for (const key of specKeys) expect(isFieldKey(key), key).toBe(true);
    const added = dataFields.filter((field) => field.addedBecause !== undefined);
    expect(added).toHaveLength(7);
    for (const field of added) {
      expect(specKeys).not.toContain(field.key);
      expect(field.addedBecause!.length).toBeGreaterThan(20);
    }
  });

  it('keeps the ids devices already use', () => {
    const known: Record<number, string> = {
      100: 'MovingTime',
      103: 'CurrentTime',
      200: 'Distance',
      300: 'Speed',
      400: 'Elevation',
      403: 'Grade',
      404: 'ElevationGain',
      500: 'Heartrate',
      600: 'Cadence',
      801: 'NavigationInstruction',
    };
    for (const [id, key] of Object.entries(known)) expect(fieldById(Number(id))?.key).toBe(key);
  });

  it('groups ids by hundreds per category and uses all ten categories', () => {
    const hundredsOf = new Map<string, Set<number>>();
    for (const field of dataFields) {
      const set = hundredsOf.get(field.category) ?? new Set();
      set.add(Math.floor(field.id / 100));
      hundredsOf.set(field.category, set);
    }
    expect([...hundredsOf.keys()].sort()).toEqual([...categories].sort());
    for (const set of hundredsOf.values()) expect(set.size).toBe(1);
  });

  it('marks charts and gauges as needing a Large slot', () => {
    expect(fieldByKey('SpeedLineChart')).toMatchObject({
      display: 'chart',
      needsLargeSlot: true,
      category: 'Chart',
    });
    expect(fieldByKey('SpeedPanel')).toMatchObject({ display: 'gauge', needsLargeSlot: true });
    expect(fieldByKey('Speed')).toMatchObject({ display: 'value', needsLargeSlot: false });
  });

  it('gives every field namespaced message ids and English texts', () => {
    for (const field of dataFields) {
      expect(field.messageIds).toEqual({
        name: `dataFields.${field.key}.name`,
        description: `dataFields.${field.key}.description`,
      });
      expect(field.defaultText.name.length).toBeGreaterThan(1);
      expect(field.defaultText.description).toMatch(/\.$/);
    }
  });

  it('has two icons per field that parse as SVG with viewBox 0 0 36 36', () => {
    const parser = new DOMParser();
    for (const field of dataFields) {
      for (const variant of ['normal', 'selected'] as const) {
        const svg = parser.parseFromString(field.icons[variant], 'image/svg+xml').documentElement;
        expect(svg.tagName.toLowerCase(), `${field.key} ${variant}`).toBe('svg');
        expect(svg.getAttribute('viewBox')).toBe('0 0 36 36');
        expect(svg.querySelector('parsererror')).toBeNull();
        expect(svg.querySelectorAll('path, circle, rect').length).toBeGreaterThan(0);
      }
      expect(field.icons.normal).not.toBe(field.icons.selected);
      expect(field.icons.selected).toContain('#ffffff');
    }
  });
});
