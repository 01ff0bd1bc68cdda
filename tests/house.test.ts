import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles } from '../scripts/importCycles.ts';

// The house a newcomer finds their way in (docs/architecture.md, "Inside the apps"): no
// import loops, no source file too long to read without a reason, and the documented trees
// of the apps equal to their folders.

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the house', () => {
  it('has no two files importing each other, directly or round a loop', () => {
    expect(importCycles(root)).toEqual([]);
  });

  it('has no source file over 500 lines unless its first line says why it stays whole', () => {
    const sources = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((file) => /\.(ts|tsx)$/.test(file) && !file.endsWith('.d.ts'))
      .filter((file) => !/\.(test|test-d|stories)\.tsx?$|(^|\/)tests?\//.test(file))
      .filter((file) => existsSync(join(root, file)));
    expect(sources.length).toBeGreaterThan(300);
    const long = sources.filter((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      if (text.split('\n').length <= 500) return false;
      // "Over N lines: why", or a data table kept whole.
      return !/^\/\/ (Over \d+ lines: |.*\b(kept whole|data table)\b)/i.test(text);
    });
    expect(long).toEqual([]);
  });

  it('documents each app as its folders are', () => {
    const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Inside the apps'));
    const tree = /```text\n([\s\S]*?)```/.exec(section)![1]!;
    const documented = new Map<string, string[]>();
    let app = '';
    const parents: string[] = [];
    for (const line of tree.split('\n')) {
      const top = /^(apps\/[\w-]+\/src)\s/.exec(line);
      if (top) {
        app = top[1]!;
        documented.set(app, []);
        continue;
      }
      const entry = /^((?:│ {3}| {4})*)[├└]── ([\w-]+)\//.exec(line);
      if (!entry) continue;
      const depth = entry[1]!.length / 4;
      parents.length = depth;
      parents.push(entry[2]!);
      documented.get(app)!.push(parents.join('/'));
    }
    expect([...documented.keys()]).toEqual(['apps/api/src', 'apps/athlete-portal/src']);
    for (const [src, folders] of documented) {
      const onDisk = readdirSync(join(root, src), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(entry.parentPath, entry.name).slice(join(root, src).length + 1));
      expect(folders.sort(), src).toEqual(onDisk.sort());
    }
  });

  it('has no test that gives a wait a limit of its own (README: Tests on a loaded machine)', () => {
    // A wait's limit is the wait guard (vitest.guards.ts), set once; a number here is a
    // budget a loaded machine can miss. A page's idle callback is the page's, not a wait.
    // A sleep of a second or more stands in for an event the test should wait for.
    const ownLimit =
      /\btimeout:\s*[0-9]|setDefaultTimeout\(\s*[0-9]|\bwaited\s*<\s*[0-9]|(setTimeout\(.*,|waitForTimeout\(|\bsleep\()\s*[1-9][0-9_]{3,}\s*,?\s*\)/;
    expect(ownLimit.test(`await row.waitFor({ time${'out'}: 30_000 });`)).toBe(true);
    expect(ownLimit.test(`for (let waited = 0; wai${'ted'} < 30_000; waited += 200)`)).toBe(true);
    expect(ownLimit.test(`setTime${'out'}(() => resolve('late'), 20000);`)).toBe(true);
    expect(ownLimit.test(`await page.waitForTime${'out'}(2000);`)).toBe(true);
    expect(ownLimit.test(`await page.waitForTime${'out'}(150);`)).toBe(false);
    expect(ownLimit.test(`await sle${'ep'}(1500);`)).toBe(true);
    expect(ownLimit.test(`sle${'ep'}(20_000).then(() => false)`)).toBe(true);
    const tests = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((file) => /\.(ts|tsx)$/.test(file))
      .filter((file) => /\.test\.tsx?$|(^|\/)tests?\//.test(file))
      .filter((file) => existsSync(join(root, file)));
    // Statements prettier wraps over lines are read joined (`setTimeout(\n () => …,\n 2000,\n)`).
    const limited = tests.flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .replace(/,\s*\n\s*([0-9][0-9_]*)\s*,?\s*\n\s*\)/g, ', $1)')
        .split('\n')
        .map((line, index) => ({ line, at: `${file}:${index + 1}` }))
        .filter(({ line }) => ownLimit.test(line) && !line.includes('requestIdleCallback'))
        .map(({ at }) => at),
    );
    expect(limited).toEqual([]);
  });

  it("gives Testing Library's waits the wait guard in every project whose tests use it", () => {
    // Without vitest.dom.ts a `findBy…` gives up after Testing Library's default second: a
    // catalogue's first load on a loaded CI machine took longer (i18n, a red CI run).
    const projects = ['packages', 'apps'].flatMap((group) =>
      readdirSync(join(root, group)).map((name) => join(root, group, name)),
    );
    const unguarded = projects.filter((project) => {
      const config = join(project, 'vitest.config.ts');
      if (!existsSync(config)) return false;
      const tests = execFileSync('git', ['ls-files', '-z', '--', 'src', 'test'], {
        cwd: project,
        encoding: 'utf8',
      })
        .split('\0')
        .filter((file) => /\.test\.tsx?$/.test(file) && existsSync(join(project, file)));
      const usesIt = tests.some((file) =>
        readFileSync(join(project, file), 'utf8').includes("from '@testing-library/"),
      );
      return usesIt && !readFileSync(config, 'utf8').includes('vitest.dom.ts');
    });
    expect(unguarded.map((project) => project.slice(root.length))).toEqual([]);
  });
});
