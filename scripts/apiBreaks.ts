/**
 * A public surface that breaks gets a major version (the rule is in docs/packages.md,
 * "Versions"). Each published package keeps, beside its `api-report.md`, the report as it
 * was at its last release (`api-report.released.md`, written by `pnpm version-packages`).
 * An export of the released report that is gone from the current one, or whose signature
 * changed, is a break; a break needs a pending changeset for that package that bumps it
 * `major`, or, while the package is below 1.0, `minor` with a line that starts with
 * "BREAKING". `pnpm test` runs `node scripts/apiBreaks.ts`, which fails otherwise.
 *
 * The baseline is a committed file, not a git tag: CI runs in a fresh clone where tags may
 * be missing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RELEASED = 'api-report.released.md';

/** Each export of a report, by entry point and name, with its signature as written. */
export function parseReport(text: string): Map<string, string> {
  const exports = new Map<string, string>();
  for (const section of text.matchAll(/^## (\S+)\n\n```ts\n([\s\S]*?)\n```$/gm)) {
    const [, entry, body] = section;
    for (const block of body!.split(/\n\n(?=\S)/)) {
      if (!block.trim()) continue;
      const name =
        /^(?:declare\s+)?(?:function|const enum|const|type|interface|class|enum)\s+([\w$]+)/.exec(
          block,
        )?.[1] ?? block.split('\n')[0]!;
      exports.set(`${entry} ${name}`, block.trim());
    }
  }
  return exports;
}

/** The exports a current report lost or changed against the released one. */
export function breaks(released: string, current: string): string[] {
  const before = parseReport(released);
  const after = parseReport(current);
  const found: string[] = [];
  for (const [key, signature] of before) {
    const now = after.get(key);
    if (now === undefined) found.push(`removed: ${key}`);
    else if (now !== signature) found.push(`changed: ${key}`);
  }
  return found;
}

type Bump = 'major' | 'minor' | 'patch' | 'none';
interface Changeset {
  file: string;
  bumps: Map<string, Bump>;
  summary: string;
}

/** The pending changesets of `.changeset/` (every Markdown file but its README). */
export function pendingChangesets(root: string): Changeset[] {
  const folder = join(root, '.changeset');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .sort()
    .map((file) => {
      const text = readFileSync(join(folder, file), 'utf8');
      const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text);
      const bumps = new Map<string, Bump>();
      for (const line of (match?.[1] ?? '').split('\n')) {
        const bump = /^\s*['"]?([^'":]+)['"]?\s*:\s*(major|minor|patch|none)\s*$/.exec(line);
        if (bump) bumps.set(bump[1]!, bump[2] as Bump);
      }
      return { file, bumps, summary: match?.[2] ?? '' };
    });
}

/** Whether the pending changesets allow a break of `name`, at `version`. */
function allowsBreak(changesets: Changeset[], name: string, version: string): boolean {
  const belowOne = version.startsWith('0.');
  return changesets.some(({ bumps, summary }) => {
    const bump = bumps.get(name);
    if (bump === 'major') return true;
    return belowOne && bump === 'minor' && /^BREAKING\b/m.test(summary);
  });
}

/** What is wrong in the repository at `root`: one line per problem; empty when all is well. */
export function check(root: string): string[] {
  const changesets = pendingChangesets(root);
  const problems: string[] = [];
  for (const folderName of readdirSync(join(root, 'packages')).sort()) {
    const folder = join(root, 'packages', folderName);
    if (!existsSync(join(folder, 'package.json'))) continue;
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      private?: boolean;
    };
    if (manifest.private) continue;
    const baseline = join(folder, RELEASED);
    const report = join(folder, 'api-report.md');
    if (!existsSync(baseline) || !existsSync(report)) continue;
    const released = readFileSync(baseline, 'utf8');
    const releasedVersion = /^<!-- released as (\S+) -->$/m.exec(released)?.[1];
    if (releasedVersion !== manifest.version) {
      problems.push(
        `packages/${folderName}/${RELEASED} is of ${releasedVersion ?? 'no version'} but the ` +
          `package is ${manifest.version}: version packages with \`pnpm version-packages\``,
      );
      continue;
    }
    const found = breaks(released, readFileSync(report, 'utf8'));
    if (found.length === 0 || allowsBreak(changesets, manifest.name, manifest.version)) continue;
    const needed = manifest.version.startsWith('0.')
      ? "a 'major' changeset, or a 'minor' one with a line starting with BREAKING"
      : "a 'major' changeset";
    problems.push(
      `${manifest.name} ${manifest.version} breaks its public surface without ${needed}:\n` +
        found.map((line) => `    ${line}`).join('\n'),
    );
  }
  return problems;
}

/** The baseline text of a report at a release. */
export function baseline(report: string, version: string): string {
  return `<!-- released as ${version} -->\n\n${report}`;
}

/** Writes the baseline of each package whose version is not the one its baseline was taken at. */
export function snapshot(root: string): string[] {
  const written: string[] = [];
  for (const folderName of readdirSync(join(root, 'packages')).sort()) {
    const folder = join(root, 'packages', folderName);
    const report = join(folder, 'api-report.md');
    if (!existsSync(join(folder, 'package.json')) || !existsSync(report)) continue;
    const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      version: string;
    };
    const path = join(folder, RELEASED);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (current.includes(`<!-- released as ${version} -->`)) continue;
    writeFileSync(path, baseline(readFileSync(report, 'utf8'), version));
    written.push(`packages/${folderName}/${RELEASED}`);
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const problems = check(root);
  if (problems.length > 0) {
    console.error(`A public surface broke without a major version:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
}
