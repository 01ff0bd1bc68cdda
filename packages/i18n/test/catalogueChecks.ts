import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
/** The formatjs CLI, run with this Node. */
const cli = require.resolve('@formatjs/cli/bin/formatjs');

/** Runs `formatjs` with arguments; the exit status and everything it printed. */
function formatjs(args: string[], cwd: string): { status: number; output: string } {
  try {
    const output = execFileSync(process.execPath, [cli, ...args], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { status: 0, output };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { status: failed.status, output: `${failed.stdout}${failed.stderr}` };
  }
}

/** `formatjs verify` with every check on: missing and extra keys, broken ICU structure. */
export const verifyCatalogues = (messagesDir: string) =>
  formatjs(
    [
      'verify',
      '--source-locale',
      'en-US',
      '--missing-keys',
      '--extra-keys',
      '--structural-equality',
      ...readdirSync(messagesDir)
        .filter((name) => name.endsWith('.json'))
        .map((name) => join(messagesDir, name)),
    ],
    messagesDir,
  );

/**
 * The message ids a source tree uses: formatjs extraction (`<Message id>`,
 * `formatMessage({ id })`, `defineMessages`) plus calls of the `t('id')` hook.
 */
export function usedIds(root: string, files: string[]): Set<string> {
  const ids = new Set<string>();
  if (files.length === 0) return ids;
  const extracted = formatjs(
    ['extract', ...files, '--additional-component-names', 'Message', '--throws'],
    root,
  );
  if (extracted.status !== 0) throw new Error(`formatjs extract failed: ${extracted.output}`);
  for (const id of Object.keys(JSON.parse(extracted.output || '{}') as object)) ids.add(id);
  for (const file of files) {
    const source = readFileSync(join(root, file), 'utf8');
    for (const match of source.matchAll(/\bt\(\s*['"]([\w.-]+)['"]/g)) ids.add(match[1]!);
  }
  return ids;
}

/** Source files (ts, tsx) under `dir`, relative to `root`, tests and stories included. */
export function sourceFiles(root: string, dir: string): string[] {
  const found: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(join(root, dir), { recursive: true }) as string[];
  } catch {
    return found;
  }
  for (const entry of entries)
    if (/\.(ts|tsx)$/.test(entry) && !entry.includes('node_modules')) found.push(join(dir, entry));
  return found;
}
