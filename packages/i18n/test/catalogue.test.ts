import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataFields } from '@xoss/data-fields';
import IntlMessageFormat from 'intl-messageformat';
import { afterAll, describe, expect, it } from 'vitest';
import { textLanguages } from '../src/languages.ts';
import { appScopes, inScope, messageScopes } from '../src/scopes.ts';
import { sourceFiles, usedIds, verifyCatalogues } from './catalogueChecks.ts';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..');
const repo = join(packageDir, '..', '..');
const messagesDir = join(packageDir, 'messages');
const read = (language: string) =>
  JSON.parse(readFileSync(join(messagesDir, `${language}.json`), 'utf8')) as Record<string, string>;
const english = read('en-US');
const scratch: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'xoss-i18n-'));
  scratch.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the catalogues', () => {
  it('has one file per text language, and nothing else', () => {
    expect(readdirSync(messagesDir).sort()).toEqual(
      textLanguages.map((language) => `${language}.json`).sort(),
    );
  });

  it('passes formatjs verify: no missing or extra key, no broken placeholder or plural', () => {
    const result = verifyCatalogues(messagesDir);
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });

  it('makes verify fail on a missing key, an extra key and a broken placeholder', () => {
    for (const damage of [
      (messages: Record<string, string>) => delete messages['nav.download'],
      (messages: Record<string, string>) => (messages['nav.extra'] = 'Extra'),
      (messages: Record<string, string>) =>
        (messages['common.pageOf'] = 'Seite {seite} von {pages}'),
      (messages: Record<string, string>) =>
        (messages['workouts.count'] = '{count, plural, one {# Training}}'),
    ]) {
      const dir = tempDir();
      cpSync(messagesDir, dir, { recursive: true });
      const german = read('de');
      damage(german);
      writeFileSync(join(dir, 'de.json'), JSON.stringify(german));
      expect(verifyCatalogues(dir).status).not.toBe(0);
    }
  });

  it('formats every message in every language with sample values, and translates them', () => {
    const sample = (ast: ReturnType<IntlMessageFormat['getAst']>): Record<string, unknown> => {
      const values: Record<string, unknown> = {};
      const walk = (nodes: typeof ast) => {
        for (const node of nodes as {
          type: number;
          value?: string;
          options?: Record<string, { value: typeof ast }>;
          children?: typeof ast;
        }[]) {
          // 1 argument, 2 number, 3 date, 4 time, 5 select, 6 plural, 8 tag
          if (node.type === 8) values[node.value!] = (chunks: string[]) => chunks.join('');
          else if (node.type === 6 || node.type === 2) values[node.value!] = 3;
          else if (node.type === 5)
            values[node.value!] = Object.keys(node.options ?? {})[0] ?? 'other';
          else if (node.type === 1) values[node.value!] ??= 'X';
          for (const option of Object.values(node.options ?? {})) walk(option.value);
          if (node.children) walk(node.children);
        }
      };
      walk(ast);
      return values;
    };
    let same = 0;
    for (const language of textLanguages) {
      const messages = read(language);
      for (const [id, text] of Object.entries(messages)) {
        const format = new IntlMessageFormat(text, language);
        const out = format.format(sample(format.getAst()) as never);
        expect(String(out).length, `${language} ${id}`).toBeGreaterThan(0);
        if (language !== 'en-US' && text === english[id]) same += 1;
      }
    }
    // Some texts are the same in other languages (TSS, "Tempo", "Z{zone}"); never most.
    expect(same / (Object.keys(english).length * 8)).toBeLessThan(0.08);
  });

  it('has compiled ASTs that match the sources (run `pnpm --filter @xoss/i18n compile`)', () => {
    const out = tempDir();
    execFileSync(process.execPath, [join(packageDir, 'scripts', 'compile.ts'), out], {
      stdio: 'ignore',
    });
    // Every language (and en-XA) as a module and its types, whole and for each app's scope.
    const files = (dir: string) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.js') || name.endsWith('.ts'))
        .sort();
    const expected = files(out);
    expect(expected).toHaveLength((textLanguages.length + 1) * 2 * messageScopes.length);
    expect(files(join(packageDir, 'compiled'))).toEqual(expected);
    for (const name of expected)
      expect(
        readFileSync(join(packageDir, 'compiled', name), 'utf8'),
        `compiled/${name} is stale`,
      ).toBe(readFileSync(join(out, name), 'utf8'));
  });
});

describe('ids used by the code', () => {
  it('finds every id the apps and the ui-kit use in the catalogue', () => {
    const files = ['apps/public-site/src', 'apps/athlete-portal/src', 'packages/ui-kit/src']
      .flatMap((dir) => sourceFiles(repo, dir))
      .filter((file) => !file.includes('.test.'));
    const missing = [...usedIds(repo, files)].filter((id) => !(id in english));
    expect(missing).toEqual([]);
  });

  it("finds each app's own ids in its part of the catalogue (src/scopes.ts)", () => {
    for (const [dir, app] of [
      ['apps/public-site/src', 'site'],
      ['apps/athlete-portal/src', 'portal'],
    ] as const) {
      const files = sourceFiles(repo, dir).filter((file) => !file.includes('.test.'));
      const outside = [...usedIds(repo, files)].filter(
        (id) => !appScopes[app].some((scope) => inScope(id, scope)),
      );
      expect(outside, dir).toEqual([]);
    }
  });

  it('catches an id the catalogue lacks, in a component or a t() call', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'Page.tsx'),
      `export const Page = () => <p title={t('nav.download')}><Message id="nav.nope" />{t('errors.gone')}</p>;\n`,
    );
    const ids = usedIds(dir, ['Page.tsx']);
    expect([...ids].sort()).toEqual(['errors.gone', 'nav.download', 'nav.nope']);
    expect([...ids].filter((id) => !(id in english)).sort()).toEqual(['errors.gone', 'nav.nope']);
  });

  it('has the names and descriptions of all 49 data fields', () => {
    expect(dataFields).toHaveLength(49);
    for (const field of dataFields) {
      expect(english[field.messageIds.name], field.key).toBe(field.defaultText.name);
      expect(english[field.messageIds.description], field.key).toBe(field.defaultText.description);
    }
  });

  it('has a message for every problem code of data-fields and activity-files', () => {
    const codes = new Set<string>();
    const scan = (dir: string, pattern: RegExp, prefix: string) => {
      for (const file of sourceFiles(repo, dir).filter((name) => !name.includes('.test.')))
        for (const match of readFileSync(join(repo, file), 'utf8').matchAll(pattern))
          codes.add(prefix ? `${prefix}.${match[1]}` : match[1]!);
    };
    scan('packages/data-fields/src', /problem\(\s*[^,]+?,\s*'(\w+)'/g, 'dataFields.problem');
    scan('packages/activity-files/src', /fitError\(\s*'(\w+)'/g, 'activityFiles.fit');
    scan('packages/activity-files/src/gpx', /\bfail\(\s*'(\w+)'/g, 'activityFiles.gpx');
    scan('packages/activity-files/src/tcx', /\bfail\(\s*'(\w+)'/g, 'activityFiles.tcx');
    // The XML reader's codes serve both XML formats.
    scan('packages/activity-files/src/xml', /\bfail\(\s*'(\w+)'/g, 'activityFiles.gpx');
    scan('packages/activity-files/src/xml', /\bfail\(\s*'(\w+)'/g, 'activityFiles.tcx');
    scan('packages/activity-files/src/tcx', /\bfailure\(\s*'(\w+)'/g, 'activityFiles.tcx');
    // What the API's import refuses around the decoders: `refuse(code, 'archive' | format, …)`.
    for (const file of sourceFiles(repo, 'apps/api/src/workouts').filter(
      (n) => !n.includes('.test.'),
    ))
      for (const match of readFileSync(join(repo, file), 'utf8').matchAll(
        /\brefuse\(\s*'(\w+)',\s*(?:'(\w+)'|format)/g,
      ))
        for (const format of match[2] ? [match[2]] : ['fit', 'tcx', 'gpx'])
          codes.add(`activityFiles.${format}.${match[1]}`);
    // The worker pool's refusals: a file that takes too long or too much memory to analyse.
    codes.add('activityFiles.import.timeout');
    codes.add('activityFiles.import.memory');
    // Ids written out whole (`messageId: 'activityFiles.gpx.tooLarge'`).
    scan('packages/activity-files/src', /messageId: '(activityFiles\.\w+\.\w+)'/g, '');
    expect(codes.size).toBeGreaterThan(40);
    expect([...codes].filter((id) => !(id in english))).toEqual([]);
  });
});
