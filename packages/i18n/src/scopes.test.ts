import { describe, expect, it } from 'vitest';
import { loadMessages } from './catalogue.ts';
import { inScope, scopeExcludes } from './scopes.ts';

describe('message scopes', () => {
  it('gives each app its part of every language: the whole catalogue minus what it never shows', async () => {
    for (const language of ['en-US', 'de', 'zh-TW', 'en-XA']) {
      const all = await loadMessages(language);
      for (const scope of ['site', 'portal'] as const) {
        const part = await loadMessages(language, scope);
        const expected = Object.keys(all).filter((id) => inScope(id, scope));
        expect(Object.keys(part).sort()).toEqual(expected.sort());
        for (const id of expected) expect(part[id]).toEqual(all[id]);
        expect(expected.length).toBeGreaterThan(100);
        expect(expected.length).toBeLessThan(Object.keys(all).length);
      }
    }
    const site = await loadMessages('en-US', 'site');
    expect(site['product.g.intro']).toBeDefined();
    expect(Object.keys(site).some((id) => id.startsWith('dataFields.'))).toBe(false);
    const portal = await loadMessages('en-US', 'portal');
    expect(Object.keys(portal).some((id) => id.startsWith('dataFields.'))).toBe(true);
    expect(Object.keys(portal).some((id) => id.startsWith('spec.'))).toBe(false);
  });

  it('never leaves out a namespace both apps need', () => {
    const both = scopeExcludes.site.filter((name) => scopeExcludes.portal.includes(name));
    expect(both).toEqual([]);
    expect(inScope('common.loading', 'site')).toBe(true);
    expect(inScope('workouts.title', 'site')).toBe(false);
    expect(inScope('workouts.title', 'all')).toBe(true);
  });
});
