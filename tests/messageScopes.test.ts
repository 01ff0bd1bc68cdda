import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appExcludes, scopeExcludes, textLanguages } from '@xoss/i18n';
import { describe, expect, it } from 'vitest';

// Each app loads only its part of the catalogue (@xoss/i18n scopes). The shipped code is
// what counts, ui-kit components included: no script of an app may name a message of a
// namespace its scope leaves out, or a rider would see an id instead of a text.
const apps = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps');
const catalogueChunk = new RegExp(`^(${[...textLanguages, 'en-XA'].join('|')})-[\\w-]+\\.js$`);

/** Which of `namespaces` the scripts name, as `namespace in file`. */
function named(assets: string, scripts: readonly string[], namespaces: readonly string[]) {
  const found: string[] = [];
  for (const name of scripts) {
    const code = readFileSync(join(assets, name), 'utf8');
    for (const namespace of namespaces)
      if (new RegExp(`["'\`]${namespace}\\.[A-Za-z$]`).test(code))
        found.push(`${namespace} in ${name}`);
  }
  return found;
}

describe('message scopes of the built apps', () => {
  for (const [app, folder] of [
    ['public-site', 'site'],
    ['athlete-portal', 'portal'],
  ] as const) {
    it(`${app} names no message outside its scopes`, () => {
      const assets = join(apps, app, 'dist', 'assets', folder);
      const scripts = readdirSync(assets).filter(
        (name) => name.endsWith('.js') && !catalogueChunk.test(name),
      );
      expect(scripts.length).toBeGreaterThan(3);
      expect(named(assets, scripts, appExcludes(folder))).toEqual([]);
    });
  }

  it("public-site's first load names only messages of its first part (`site`)", () => {
    // The entry and its preloads, as the home page's HTML names them; the lazily loaded
    // pages add `sitePages` under <MoreMessages>.
    const dist = join(apps, 'public-site', 'dist');
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const firstLoad = [...html.matchAll(/(?:src|href)="\/assets\/site\/([^"]+\.js)"/g)].map(
      (match) => match[1]!,
    );
    expect(firstLoad.length).toBeGreaterThan(1);
    const assets = join(dist, 'assets', 'site');
    expect(named(assets, firstLoad, scopeExcludes.site)).toEqual([]);
    // The check itself: the lazily loaded pages do name `sitePages` messages.
    const lazy = readdirSync(assets).filter(
      (name) => name.endsWith('.js') && !catalogueChunk.test(name) && !firstLoad.includes(name),
    );
    expect(named(assets, lazy, scopeExcludes.site).length).toBeGreaterThan(3);
  });
});
