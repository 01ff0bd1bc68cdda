import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scopeExcludes, textLanguages } from '@xoss/i18n';
import { describe, expect, it } from 'vitest';

// Each app loads only its part of the catalogue (@xoss/i18n scopes). The shipped code is
// what counts, ui-kit components included: no script of an app may name a message of a
// namespace its scope leaves out, or a rider would see an id instead of a text.
const apps = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const catalogueChunk = new RegExp(`^(${[...textLanguages, 'en-XA'].join('|')})-[\\w-]+\\.js$`);

describe('message scopes of the built apps', () => {
  for (const [app, folder, scope] of [
    ['public-site', 'site', 'site'],
    ['athlete-portal', 'portal', 'portal'],
  ] as const) {
    it(`${app} names no message outside its scope`, () => {
      const assets = join(apps, app, 'dist', 'assets', folder);
      const scripts = readdirSync(assets).filter(
        (name) => name.endsWith('.js') && !catalogueChunk.test(name),
      );
      expect(scripts.length).toBeGreaterThan(3);
      const named = new Set<string>();
      for (const name of scripts) {
        const code = readFileSync(join(assets, name), 'utf8');
        for (const namespace of scopeExcludes[scope])
          if (new RegExp(`["'\`]${namespace}\\.[A-Za-z$]`).test(code))
            named.add(`${namespace} in ${name}`);
      }
      expect([...named]).toEqual([]);
    });
  }
});
