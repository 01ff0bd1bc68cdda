import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The API's layers (README, docs/architecture.md): the wiring at the root; `http/` the request
// pipeline; `platform/` what every feature uses; `commands/` what an operator runs; one
// folder per thing riders do; `routes/` their HTTP, with no SQL.

const src = new URL('./', import.meta.url);
const WIRING = ['app.ts', 'main.ts', 'server.ts', 'services.ts'];
const FEATURES = [
  'analysis',
  'athletes',
  'auth',
  'content',
  'devices',
  'imports',
  'rides',
  'routebooks',
  'share',
  'training',
];
const FOLDERS = ['commands', 'http', 'platform', 'routes', 'testing', ...FEATURES];

/** Every source file under `folder` (recursively, tests left out), with its text. */
function sources(folder: string): { file: string; text: string }[] {
  const base = new URL(`${folder}/`, src);
  return readdirSync(base, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .filter((entry) => !/\.test(-d)?\.tsx?$/.test(entry.name))
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return {
        file: path.slice(path.indexOf(`/src/${folder}/`) + 5),
        text: readFileSync(path, 'utf8'),
      };
    });
}

/** The folders of `src/` a file's relative imports reach (`http/route.ts`-style paths). */
const importsOf = (text: string) =>
  [...text.matchAll(/from\s+'(\.\.?\/[^']+)'/g)].map((match) => match[1]!);

describe('the API layers', () => {
  it('has only the wiring at the root, and a known kind of folder for everything else', () => {
    const entries = readdirSync(src, { withFileTypes: true });
    const files = entries
      .filter((entry) => entry.isFile() && !/\.test(-d)?\.ts$/.test(entry.name))
      .map((entry) => entry.name);
    expect(files.sort()).toEqual(WIRING);
    const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.sort()).toEqual([...FOLDERS].sort());
  });

  it('keep SQL out of the HTTP routes', () => {
    const files = sources('routes');
    expect(files.length).toBeGreaterThan(5);
    const withSql = files.filter(({ text }) =>
      /\.query\s*[<(]|\b(SELECT|INSERT INTO|DELETE FROM)\b|\bUPDATE \w+ SET\b/.test(text),
    );
    expect(withSql.map(({ file }) => file)).toEqual([]);
  });

  it('keep the platform free of features, routes and commands', () => {
    const reaching = sources('platform').filter(({ text }) =>
      importsOf(text).some((path) =>
        new RegExp(`^\\.\\./(${[...FEATURES, 'routes', 'commands'].join('|')})/`).test(path),
      ),
    );
    expect(reaching.map(({ file }) => file)).toEqual([]);
  });

  it('let features use only the error envelope of the request pipeline', () => {
    const reaching = FEATURES.flatMap((feature) =>
      sources(feature).filter(({ text }) =>
        importsOf(text).some(
          (path) => /^\.\.\/http\//.test(path) && path !== '../http/envelope.ts',
        ),
      ),
    );
    expect(reaching.map(({ file }) => file)).toEqual([]);
  });
});
