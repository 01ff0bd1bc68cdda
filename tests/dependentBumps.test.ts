import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bumped,
  DEPENDENTS_PREFIX,
  dependentBumps,
  inCaret,
  writeDependentsChangesets,
} from '../scripts/dependentBumps.ts';
import { uncommittedReleaseFiles } from '../scripts/release.ts';

// Semver across the workspace (scripts/dependentBumps.ts): a dependent of a release that
// leaves its range gets a breaking bump, shown on the workspace's own dependency graph in a
// throwaway repository, and through Changesets' own `version`.

const root = fileURLToPath(new URL('..', import.meta.url));
const folders = readdirSync(join(root, 'packages')).filter((name) =>
  existsSync(join(root, 'packages', name, 'package.json')),
);

let repo: string;

/** A copy of the workspace's manifests (names, dependencies) at `version`, with changesets. */
function workspace(version: string, changesets: Record<string, string>): string {
  repo = mkdtempSync(join(tmpdir(), 'dependent-bumps-'));
  mkdirSync(join(repo, '.changeset'));
  cpSync(join(root, '.changeset', 'config.json'), join(repo, '.changeset', 'config.json'));
  writeFileSync(join(repo, '.changeset', 'README.md'), '# Changesets\n');
  writeFileSync(join(repo, 'pnpm-workspace.yaml'), "packages:\n  - 'packages/*'\n");
  writeFileSync(
    join(repo, 'package.json'),
    JSON.stringify({ name: 'workspace', private: true, packageManager: 'pnpm@12.21.0' }),
  );
  for (const folder of folders) {
    const manifest = JSON.parse(
      readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    mkdirSync(join(repo, 'packages', folder), { recursive: true });
    writeFileSync(
      join(repo, 'packages', folder, 'package.json'),
      JSON.stringify({
        name: manifest.name,
        version,
        dependencies: manifest.dependencies,
        peerDependencies: manifest.peerDependencies,
      }),
    );
  }
  for (const [file, text] of Object.entries(changesets))
    writeFileSync(join(repo, '.changeset', file), text);
  return repo;
}

const changeset = (name: string, bump: string, summary = 'A change.') =>
  `---\n'@xoss/${name}': ${bump}\n---\n\n${summary}\n`;

const bumpsOf = (at: string) =>
  Object.fromEntries(dependentBumps(at).map(({ name, bump }) => [name, bump]));

afterEach(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

describe('semver across the workspace', () => {
  it('knows the caret range and the bumps', () => {
    expect(bumped('0.1.1', 'minor')).toBe('0.2.0');
    expect(bumped('1.2.3', 'major')).toBe('2.0.0');
    expect(bumped('1.2.3', 'patch')).toBe('1.2.4');
    expect(inCaret('0.1.0', '0.1.5')).toBe(true);
    expect(inCaret('0.1.0', '0.2.0')).toBe(false);
    expect(inCaret('1.2.0', '1.9.0')).toBe(true);
    expect(inCaret('1.2.0', '2.0.0')).toBe(false);
    expect(inCaret('0.0.3', '0.0.4')).toBe(false);
  });

  it("raises a patch of ui-kit to a minor when i18n's minor leaves its range, and api-client too", () => {
    workspace('0.1.0', {
      'i18n.md': changeset('i18n', 'minor', 'BREAKING: a message id renamed.'),
      'ui-kit.md': changeset('ui-kit', 'patch'),
    });
    expect(bumpsOf(repo)).toEqual({ '@xoss/api-client': 'minor', '@xoss/ui-kit': 'minor' });
    expect(dependentBumps(repo).find(({ name }) => name === '@xoss/ui-kit')!.because).toEqual([
      '@xoss/i18n 0.2.0',
    ]);
  });

  it('carries a break down the graph: data-fields to workout-stats to activity-files', () => {
    workspace('0.1.0', { 'fields.md': changeset('data-fields', 'minor', 'BREAKING: gone.') });
    expect(bumpsOf(repo)).toEqual({
      '@xoss/activity-files': 'minor',
      '@xoss/api-client': 'minor',
      '@xoss/ui-kit': 'minor',
      '@xoss/workout-stats': 'minor',
    });
  });

  it('leaves dependents alone for a release inside their range', () => {
    workspace('0.1.0', { 'i18n.md': changeset('i18n', 'patch') });
    expect(dependentBumps(repo)).toEqual([]);
    workspace('1.2.0', { 'i18n.md': changeset('i18n', 'minor') });
    expect(dependentBumps(repo)).toEqual([]);
  });

  it('asks a major of a dependent from 1.0', () => {
    workspace('1.2.0', { 'i18n.md': changeset('i18n', 'major') });
    expect(bumpsOf(repo)).toEqual({ '@xoss/api-client': 'major', '@xoss/ui-kit': 'major' });
  });

  it("writes changesets Changesets' own version applies: ui-kit 0.2.0 on i18n ^0.2.0, with the reason", () => {
    workspace('0.1.0', {
      'i18n.md': changeset('i18n', 'minor', 'BREAKING: a message id renamed.'),
      'ui-kit.md': changeset('ui-kit', 'patch', 'A fix.'),
      // Left by an earlier run that found another break: gone with this one.
      [`${DEPENDENTS_PREFIX}workout-stats.md`]: changeset('workout-stats', 'minor'),
    });
    const written = writeDependentsChangesets(repo);
    expect(written.map(({ name }) => name)).toEqual(['@xoss/api-client', '@xoss/ui-kit']);
    expect(
      readdirSync(join(repo, '.changeset')).filter((file) => file.startsWith(DEPENDENTS_PREFIX)),
    ).toEqual([`${DEPENDENTS_PREFIX}api-client.md`, `${DEPENDENTS_PREFIX}ui-kit.md`]);
    execFileSync(process.execPath, [join(root, 'node_modules/@changesets/cli/bin.js'), 'version'], {
      cwd: repo,
      stdio: 'pipe',
    });
    const uiKit = JSON.parse(readFileSync(join(repo, 'packages/ui-kit/package.json'), 'utf8')) as {
      version: string;
      dependencies: Record<string, string>;
    };
    expect(uiKit.version).toBe('0.2.0');
    expect(uiKit.dependencies['@xoss/i18n']).toBe('workspace:^');
    const log = readFileSync(join(repo, 'packages/ui-kit/CHANGELOG.md'), 'utf8');
    expect(log).toMatch(/^## 0\.2\.0$/m);
    expect(log).toMatch(/BREAKING: depends on @xoss\/i18n 0\.2\.0, outside the range/);
    expect(log).toContain('A fix.');
    const workoutStats = JSON.parse(
      readFileSync(join(repo, 'packages/workout-stats/package.json'), 'utf8'),
    ) as { version: string };
    expect(workoutStats.version).toBe('0.1.0');
  });

  it('finds the versions a publish would tag before they are committed', () => {
    workspace('0.1.0', { 'i18n.md': changeset('i18n', 'patch') });
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: repo,
        stdio: 'pipe',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@example.com',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@example.com',
        },
      });
    git('init', '--quiet');
    git('add', '--all');
    git('commit', '--quiet', '--message', 'start');
    expect(uncommittedReleaseFiles(repo)).toEqual([]);
    execFileSync(process.execPath, [join(root, 'node_modules/@changesets/cli/bin.js'), 'version'], {
      cwd: repo,
      stdio: 'pipe',
    });
    writeFileSync(join(repo, 'notes.txt'), 'not a release file');
    expect(uncommittedReleaseFiles(repo).sort()).toEqual(
      expect.arrayContaining(['.changeset/i18n.md', 'packages/i18n/package.json']),
    );
    expect(uncommittedReleaseFiles(repo)).not.toContain('notes.txt');
    git('add', '--all');
    git('commit', '--quiet', '--message', 'Release');
    expect(uncommittedReleaseFiles(repo)).toEqual([]);
  });
});
