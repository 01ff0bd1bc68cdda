import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { baseline, breaks, check, parseReport, snapshot } from '../scripts/apiBreaks.ts';

// A public surface that breaks gets a major (scripts/apiBreaks.ts), shown on a copy of a
// real package's report in a throwaway repository.

const root = fileURLToPath(new URL('..', import.meta.url));
const report = readFileSync(join(root, 'packages/data-fields/api-report.md'), 'utf8');
const addPage = /^function addPage\([^\n]*\n\n/m.exec(report)![0];

let folder: string;

function repository(options: { version: string; current: string; changesets?: string[] }) {
  folder = mkdtempSync(join(tmpdir(), 'api-breaks-'));
  const pkg = join(folder, 'packages', 'data-fields');
  mkdirSync(pkg, { recursive: true });
  mkdirSync(join(folder, '.changeset'));
  writeFileSync(join(folder, '.changeset', 'README.md'), '# Changesets\n');
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: '@xoss/data-fields', version: options.version }),
  );
  writeFileSync(join(pkg, 'api-report.released.md'), baseline(report, options.version));
  writeFileSync(join(pkg, 'api-report.md'), options.current);
  (options.changesets ?? []).forEach((text, index) =>
    writeFileSync(join(folder, '.changeset', `change-${index}.md`), text),
  );
  return folder;
}

const changeset = (bump: string, summary: string, name = '@xoss/data-fields') =>
  `---\n'${name}': ${bump}\n---\n\n${summary}\n`;

afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('the API break check', () => {
  it('passes on the repository as it is', () => {
    expect(check(root)).toEqual([]);
  });

  it('reads every export of a report under its entry point', () => {
    const exports = parseReport(report);
    expect(exports.size).toBeGreaterThan(40);
    expect(exports.get('@xoss/data-fields addPage')).toMatch(/^function addPage\(/);
    expect(exports.get('@xoss/data-fields DataField')).toMatch(/^interface DataField \{/);
  });

  it('fails on a removed export without a major changeset', () => {
    const current = report.replace(addPage, '');
    const problems = check(repository({ version: '0.1.0', current }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('@xoss/data-fields 0.1.0 breaks its public surface');
    expect(problems[0]).toContain('removed: @xoss/data-fields addPage');
  });

  it('fails when the changesets of that package are only a minor or patch without BREAKING', () => {
    const current = report.replace(addPage, '');
    const changesets = [
      changeset('minor', 'New fields.'),
      changeset('patch', 'A fix.'),
      changeset('major', 'BREAKING: another package.', '@xoss/workout-stats'),
    ];
    expect(check(repository({ version: '0.1.0', current, changesets }))).toHaveLength(1);
  });

  it('passes with a major changeset, or below 1.0 a minor with a BREAKING line', () => {
    const current = report.replace(addPage, '');
    for (const changesets of [
      [changeset('major', '`addPage` is gone.')],
      [changeset('minor', 'Pages.\n\nBREAKING: `addPage` is gone; use `insertPage`.')],
    ])
      expect(check(repository({ version: '0.1.0', current, changesets }))).toEqual([]);
  });

  it('asks for a major from 1.0 on', () => {
    const current = report.replace(addPage, '');
    const minor = [changeset('minor', 'BREAKING: `addPage` is gone.')];
    expect(check(repository({ version: '1.2.0', current, changesets: minor }))).toHaveLength(1);
    const major = [changeset('major', '`addPage` is gone.')];
    expect(check(repository({ version: '1.2.0', current, changesets: major }))).toEqual([]);
  });

  it('counts a changed signature as a break and a new export as none', () => {
    const changed = report.replace('at?: number) => Result', 'at: number) => Result');
    expect(changed).not.toBe(report);
    expect(breaks(report, changed)).toEqual(['changed: @xoss/data-fields addPage']);
    const added = report.replace(addPage, `${addPage}function addPages() => void\n\n`);
    expect(breaks(report, added)).toEqual([]);
  });

  it('fails when the baseline is not of the version the package is at', () => {
    const root = repository({ version: '0.1.0', current: report });
    const manifest = join(root, 'packages/data-fields/package.json');
    writeFileSync(manifest, JSON.stringify({ name: '@xoss/data-fields', version: '0.2.0' }));
    expect(check(root)[0]).toMatch(/is of 0\.1\.0 but the package is 0\.2\.0/);
    // The version step writes the baseline of the new version, after which all is well.
    expect(snapshot(root)).toEqual(['packages/data-fields/api-report.released.md']);
    expect(check(root)).toEqual([]);
    expect(snapshot(root)).toEqual([]);
  });
});
