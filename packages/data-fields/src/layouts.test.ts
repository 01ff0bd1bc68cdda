import { describe, expect, it } from 'vitest';
import { MAX_SLOTS_PER_PAGE, layoutTemplate, layoutTemplates } from './layouts.ts';
import { deviceProfiles } from './profiles.ts';

describe('layout templates', () => {
  it('has 17 templates with pid equal to position', () => {
    expect(layoutTemplates).toHaveLength(17);
    layoutTemplates.forEach((template, index) => expect(template.pid).toBe(index));
    expect(layoutTemplate(17)).toBeUndefined();
    expect(layoutTemplate(1.5)).toBeUndefined();
  });

  it('tiles the screen exactly, without overlaps', () => {
    for (const template of layoutTemplates) {
      const area = template.slots.reduce((sum, slot) => sum + slot.width * slot.height, 0);
      expect(area).toBeCloseTo(1, 9);
      for (const slot of template.slots) {
        expect(slot.x + slot.width).toBeLessThanOrEqual(1 + 1e-9);
        expect(slot.y + slot.height).toBeLessThanOrEqual(1 + 1e-9);
      }
    }
  });

  it('are all different, from 1 to 10 fields', () => {
    const shapes = new Set(
      layoutTemplates.map((template) =>
        template.slots.map((slot) => `${slot.size}@${slot.y.toFixed(3)}`).join(),
      ),
    );
    expect(shapes.size).toBe(17);
    expect(layoutTemplates[0]!.slots).toHaveLength(1);
    expect(MAX_SLOTS_PER_PAGE).toBe(10);
  });
});

describe('device profiles', () => {
  it('follows spec 9: NAV 6 pages, 17 layouts, 49 fields; G2 3 fixed pages, G 12 and G+ 24 fields', () => {
    expect(deviceProfiles.NAV).toMatchObject({ maxPages: 6, pages: 'free' });
    expect(deviceProfiles.NAV.layouts).toHaveLength(17);
    expect(deviceProfiles.NAV.fields).toHaveLength(49);
    expect(deviceProfiles['NAV+'].fields).toHaveLength(49);
    expect(deviceProfiles.G2).toMatchObject({ pages: 'fixed', minPages: 3, maxPages: 3 });
    expect(deviceProfiles.G2.fields).toHaveLength(12);
    expect(deviceProfiles['G2+'].fields).toHaveLength(24);
    expect(new Set(deviceProfiles['G2+'].fields).size).toBe(24);
    expect(deviceProfiles.G.historyLimitKm).toBe(1500);
  });
});
