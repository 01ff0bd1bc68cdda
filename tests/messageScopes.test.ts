import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appExcludes, inScope, scopeExcludes, textLanguages } from '@xoss/i18n';
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

  it("athlete-portal's first load and ride pages name only its first part (`portal`)", () => {
    // The pages that edit and import add `portalPages` under <MoreMessages> (`editingPage` in
    // routes.tsx); every other page, with what it loads lazily, must do without it.
    const dist = join(apps, 'athlete-portal', 'dist');
    const manifest = JSON.parse(
      readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'),
    ) as Record<
      string,
      { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }
    >;
    const routes = readFileSync(join(apps, 'athlete-portal', 'src', 'routes.tsx'), 'utf8');
    const pages = [
      ...routes.matchAll(/lazy: (page|editingPage)\(\(\) => import\('\.\/([^']+)'\)/g),
    ].map((match) => ({ editing: match[1] === 'editingPage', key: `src/${match[2]}` }));
    const pageKeys = new Set(pages.map((page) => page.key));
    /** A chunk's files with everything it imports, statically or lazily, other pages aside. */
    const closure = (key: string, files = new Set<string>()) => {
      const chunk = manifest[key]!;
      if (files.has(chunk.file)) return files;
      files.add(chunk.file);
      for (const next of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])])
        if (!pageKeys.has(next) && !catalogueChunk.test(manifest[next]!.file.split('/').pop()!))
          closure(next, files);
      return files;
    };
    const english = readFileSync(join(apps, '..', 'packages', 'i18n', 'messages', 'en-US.json'));
    const portalPages = [
      ...new Set(
        Object.keys(JSON.parse(english.toString()) as object).map((id) => id.split('.')[0]!),
      ),
    ].filter((namespace) => inScope(`${namespace}.`, 'portalPages'));
    expect(portalPages).toContain('dataFields');
    const assets = join(dist, 'assets', 'portal');
    const namesIn = (files: Set<string>) =>
      named(
        assets,
        [...files].map((file) => file.split('/').pop()!),
        portalPages,
      );
    const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
    expect(namesIn(closure(entry))).toEqual([]);
    expect(pages.filter((page) => !page.editing).length).toBeGreaterThan(5);
    for (const page of pages.filter((candidate) => !candidate.editing))
      expect(namesIn(closure(page.key)), page.key).toEqual([]);
    // The check itself: the editing pages do name them.
    const editing = new Set<string>();
    for (const page of pages.filter((candidate) => candidate.editing)) closure(page.key, editing);
    expect(namesIn(editing).length).toBeGreaterThan(3);
  });
});
