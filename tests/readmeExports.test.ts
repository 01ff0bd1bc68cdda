import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseReport } from '../scripts/apiBreaks.ts';

// Another team finds every function, component and constant of a package in its README
// (issue: packages other teams adopt without surprises): each value its API report lists is
// named there, by itself or in a documented family (`` `INTERVAL_*` ``, `` `*Schema` ``).
// Types and props are in the report itself (`api-report.md`), which the README links to.

const root = fileURLToPath(new URL('..', import.meta.url));
const folders = readdirSync(join(root, 'packages')).filter((folder) =>
  existsSync(join(root, 'packages', folder, 'api-report.md')),
);

/** The values (not types) a report lists: functions, constants, classes, enums. */
function valuesOf(report: string): string[] {
  return [...parseReport(report).entries()]
    .filter(([, signature]) => /^(?:declare\s+)?(?:function|const|class|enum)\s/.test(signature))
    .map(([key]) => key.split(' ')[1]!);
}

/** Whether `readme` names `name`, or a family (`` `PREFIX*` ``, `` `*Suffix` ``) it is of. */
function names(readme: string, name: string): boolean {
  if (new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(readme)) return true;
  for (const [, family] of readme.matchAll(/`(\w*\*\w*)`/g)) {
    const [start, end] = family!.split('*') as [string, string];
    if ((start || end) && name.startsWith(start) && name.endsWith(end)) return true;
  }
  return false;
}

describe('the READMEs of the packages', () => {
  it('match a name or a family, and nothing else', () => {
    expect(names('`formatClock(seconds)`', 'formatClock')).toBe(true);
    expect(names('the `INTERVAL_*` thresholds', 'INTERVAL_MIN_S')).toBe(true);
    expect(names('each `*Schema`', 'athleteSchema')).toBe(true);
    expect(names('each `*Schema`', 'schemaOf')).toBe(false);
    expect(names('`formatClockTime`', 'formatClock')).toBe(false);
  });

  it.each(folders)('of %s name every value its API report lists, and link the report', (folder) => {
    const readme = readFileSync(join(root, 'packages', folder, 'README.md'), 'utf8');
    const report = readFileSync(join(root, 'packages', folder, 'api-report.md'), 'utf8');
    const values = valuesOf(report);
    expect(values.length).toBeGreaterThan(0);
    expect(values.filter((name) => !names(readme, name))).toEqual([]);
    expect(readme).toContain('(api-report.md)');
  });
});
