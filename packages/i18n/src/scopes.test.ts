import { describe, expect, it } from 'vitest';
import { loadMessages } from './catalogue.ts';
import { appExcludes, inScope, messageScopes, scopeExcludes } from './scopes.ts';

describe('message scopes', () => {
  it('gives each app its part of every language: the whole catalogue minus what it never shows', async () => {
    for (const language of ['en-US', 'de', 'zh-TW', 'en-XA']) {
      const all = await loadMessages(language);
      for (const scope of ['site', 'sitePages', 'portal', 'portalPages'] as const) {
        const part = await loadMessages(language, scope);
        const expected = Object.keys(all).filter((id) => inScope(id, scope));
        expect(Object.keys(part).sort()).toEqual(expected.sort());
        for (const id of expected) expect(part[id]).toEqual(all[id]);
        expect(expected.length).toBeGreaterThan(50);
        expect(expected.length).toBeLessThan(Object.keys(all).length);
      }
    }
    const site = await loadMessages('en-US', 'site');
    expect(site['product.g.intro']).toBeDefined();
    expect(site['maps.estimate']).toBeUndefined();
    expect((await loadMessages('en-US', 'sitePages'))['maps.estimate']).toBeDefined();
    expect(Object.keys(site).some((id) => id.startsWith('dataFields.'))).toBe(false);
    const portal = await loadMessages('en-US', 'portal');
    expect(Object.keys(portal).some((id) => id.startsWith('workouts.'))).toBe(true);
    expect(Object.keys(portal).some((id) => id.startsWith('dataFields.'))).toBe(false);
    expect(Object.keys(portal).some((id) => id.startsWith('spec.'))).toBe(false);
    const portalPages = await loadMessages('en-US', 'portalPages');
    expect(Object.keys(portalPages).some((id) => id.startsWith('dataFields.'))).toBe(true);
    expect(Object.keys(portalPages).some((id) => id.startsWith('workouts.'))).toBe(false);
  });

  it('splits each app in two with nothing shared or lost, and never leaves out a namespace both apps need', async () => {
    const all = Object.keys(await loadMessages('de'));
    for (const [app, first, pages] of [
      ['site', 'site', 'sitePages'],
      ['portal', 'portal', 'portalPages'],
    ] as const) {
      const firstLoad = all.filter((id) => inScope(id, first));
      const added = all.filter((id) => inScope(id, pages));
      expect(firstLoad.filter((id) => added.includes(id))).toEqual([]);
      expect(added.length).toBeGreaterThan(100);
      expect([...firstLoad, ...added].length).toBe(all.length - appExcludesCount(app, all));
    }
    // Only the manuals' texts, which the site's build prints to PDF and no page shows.
    const both = appExcludes('site').filter((name) => appExcludes('portal').includes(name));
    expect(both).toEqual(['manual']);
    expect(appExcludes('site')).toContain('dataFields');
    expect(appExcludes('site')).not.toContain('maps');
    expect(scopeExcludes.site).toContain('maps');
    expect(appExcludes('portal')).toContain('spec');
    expect(appExcludes('portal')).not.toContain('dataFields');
    expect(scopeExcludes.portal).toContain('dataFields');
    expect(messageScopes).toEqual(['all', 'site', 'sitePages', 'portal', 'portalPages']);
    expect(inScope('common.loading', 'site')).toBe(true);
    expect(inScope('workouts.title', 'site')).toBe(false);
    expect(inScope('workouts.title', 'all')).toBe(true);
  });
});

/** How many ids of `all` none of an app's scopes keeps. */
function appExcludesCount(app: 'site' | 'portal', all: readonly string[]) {
  return all.filter((id) => appExcludes(app).includes(id.slice(0, id.indexOf('.')))).length;
}
