/**
 * Semver across the workspace (docs/packages.md, "Versions"). A package that depends on
 * another of ours with `workspace:^` is published with `^<its version>`. When a release
 * takes that dependency out of the range (a major, or below 1.0 a minor), a patch of the
 * dependent would hand its users the new dependency: a second copy beside the one they
 * installed themselves, and its breaks with it. Changesets bumps such a dependent only as
 * `updateInternalDependencies` says (a patch); this rule raises it to a breaking bump of its
 * own (a minor below 1.0, a major from 1.0), through a changeset it writes before
 * `changeset version`, and on through the dependents of that dependent.
 */
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pendingChangesets } from './apiBreaks.ts';

type Bump = 'major' | 'minor' | 'patch';
const ORDER: Record<Bump | 'none', number> = { none: 0, patch: 1, minor: 2, major: 3 };

/** How the changesets this rule writes are named; written again each time it runs. */
export const DEPENDENTS_PREFIX = 'workspace-dependent-';

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** A dependent raised to a breaking bump, and the releases that made it so. */
export interface DependentBump {
  readonly name: string;
  readonly bump: Bump;
  readonly because: readonly string[];
}

/** `version` raised by `bump`. */
export function bumped(version: string, bump: Bump | 'none'): string {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  if (bump === 'patch') return `${major}.${minor}.${patch + 1}`;
  return version;
}

/** Whether `next` is inside the caret range of `current` (`^current`). */
export function inCaret(current: string, next: string): boolean {
  const [a, b, c] = current.split('.').map(Number) as [number, number, number];
  const [x, y, z] = next.split('.').map(Number) as [number, number, number];
  if (a > 0) return x === a && (y > b || (y === b && z >= c));
  if (b > 0) return x === 0 && y === b && z >= c;
  return x === 0 && y === 0 && z === c;
}

/** The bump that breaks a package at `version`: a minor below 1.0, a major from 1.0. */
const breaking = (version: string): Bump => (version.startsWith('0.') ? 'minor' : 'major');

function manifests(root: string): Manifest[] {
  const folder = join(root, 'packages');
  return readdirSync(folder)
    .sort()
    .map((name) => join(folder, name, 'package.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as Manifest);
}

/**
 * The dependents whose pending bump is below the breaking one their dependencies' releases
 * call for, with the bump they need. The pending changesets (but this rule's own file) say
 * what each package's release is.
 */
export function dependentBumps(root: string): DependentBump[] {
  const packages = manifests(root).filter((manifest) => !manifest.private);
  const planned = new Map<string, Bump | 'none'>(packages.map(({ name }) => [name, 'none']));
  for (const { file, bumps } of pendingChangesets(root)) {
    if (file.startsWith(DEPENDENTS_PREFIX)) continue;
    for (const [name, bump] of bumps) {
      const before = planned.get(name);
      if (before !== undefined && bump !== 'none' && ORDER[bump] > ORDER[before])
        planned.set(name, bump);
    }
  }
  const byName = new Map(packages.map((manifest) => [manifest.name, manifest]));
  const raised = new Map<string, string[]>();
  // Until nothing changes: a dependent raised here takes its own dependents out of range.
  for (let changed = true; changed;) {
    changed = false;
    for (const dependent of packages) {
      const needs = breaking(dependent.version);
      const own = planned.get(dependent.name)!;
      const ranges = { ...dependent.dependencies, ...dependent.peerDependencies };
      const out = Object.entries(ranges)
        .filter(([, range]) => range.startsWith('workspace:'))
        .map(([name]) => byName.get(name))
        .filter((dependency): dependency is Manifest => dependency !== undefined)
        .filter((dependency) => {
          const next = bumped(dependency.version, planned.get(dependency.name)!);
          return !inCaret(dependency.version, next);
        });
      if (out.length === 0) continue;
      const because = out.map(
        (dependency) =>
          `${dependency.name} ${bumped(dependency.version, planned.get(dependency.name)!)}`,
      );
      raised.set(dependent.name, because);
      if (ORDER[own] < ORDER[needs]) {
        planned.set(dependent.name, needs);
        changed = true;
      }
    }
  }
  return packages
    .filter(({ name }) => raised.has(name))
    .map(({ name }) => ({ name, bump: planned.get(name) as Bump, because: raised.get(name)! }));
}

/** The changeset this rule writes for a dependent (one each, so each changelog gets its own). */
const changesetFile = (name: string) => `${DEPENDENTS_PREFIX}${name.replace(/^@xoss\//, '')}.md`;

/**
 * Writes `.changeset/workspace-dependent-<package>.md` for each bump of `dependentBumps`,
 * removing those of an earlier run it no longer finds; returns the bumps. Each says why
 * on a line that starts with BREAKING, as the rule of breaks asks.
 */
export function writeDependentsChangesets(root: string): DependentBump[] {
  const folder = join(root, '.changeset');
  for (const file of readdirSync(folder))
    if (file.startsWith(DEPENDENTS_PREFIX)) unlinkSync(join(folder, file));
  const found = dependentBumps(root);
  for (const { name, bump, because } of found)
    writeFileSync(
      join(folder, changesetFile(name)),
      `---\n'${name}': ${bump}\n---\n\n` +
        `BREAKING: depends on ${because.join(' and ')}, outside the range its last release ` +
        'named: a project that installs this release gets those too (update your own ' +
        'dependency on them with it).\n',
    );
  return found;
}
