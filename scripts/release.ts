/**
 * The release of the published packages (docs/packages.md):
 *
 *   node scripts/release.ts            version, commit, build, publish (`pnpm release`)
 *   node scripts/release.ts version    `changeset version`, then the API baselines (`pnpm version-packages`)
 *   node scripts/release.ts publish    `changeset publish` of what is built; extra arguments go to it
 *
 * The registry is the one the usual npm settings name: `NPM_CONFIG_REGISTRY` (or
 * `npm_config_registry`) or `registry=` in an `.npmrc`. Changesets publishes through pnpm,
 * and pnpm 12 reads `pnpm_config_registry` rather than the npm variable, so the npm one is
 * passed on to it here; the publish step names the registry before it starts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pendingChangesets, snapshot } from './apiBreaks.ts';
import { writeDependentsChangesets } from './dependentBumps.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

/** The environment with the npm registry setting passed on to pnpm. */
export function publishEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const registry = env.NPM_CONFIG_REGISTRY ?? env.npm_config_registry;
  return registry && !env.pnpm_config_registry ? { ...env, pnpm_config_registry: registry } : env;
}

/**
 * The files of the packages and changesets that differ from the last commit (`git status`):
 * a publish tags the commit it runs on, so it must hold the versions it publishes.
 */
export function uncommittedReleaseFiles(at: string): string[] {
  return execFileSync('git', ['status', '--porcelain', '--', 'packages', '.changeset'], {
    cwd: at,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.slice(3));
}

/** Whether `version` changed anything (false when nothing was pending). */
function version(): boolean {
  // Nothing pending: the versions are already committed (a release after `pnpm version-packages`).
  if (pendingChangesets(root).length === 0) {
    console.log('No pending changesets: publishing the versions as they are.');
    return false;
  }
  // A dependent of a release that leaves its range gets a breaking bump of its own.
  for (const { name, bump, because } of writeDependentsChangesets(root))
    console.log(`${name}: ${bump}, as it depends on ${because.join(' and ')}`);
  run('pnpm', ['exec', 'changeset', 'version']);
  const written = snapshot(root);
  // Changesets writes CHANGELOG.md as it likes; the repository's Prettier check must pass.
  run('pnpm', ['exec', 'prettier', '--write', '--log-level', 'warn', 'packages/*/CHANGELOG.md']);
  console.log(
    `Versioned. Review and commit package.json, CHANGELOG.md and the removed changesets` +
      (written.length ? `, with the API baselines:\n  ${written.join('\n  ')}` : '.'),
  );
  return true;
}

/** Commits what `version` wrote, so the tags of the publish point at the release's commit. */
function commitVersions(): void {
  const versions = readdirSync(join(root, 'packages'))
    .map((folder) => join(root, 'packages', folder, 'package.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string })
    .map(({ name, version: at }) => `${name}@${at}`);
  run('git', ['add', '--all', '--', 'packages', '.changeset']);
  run('git', ['commit', '--quiet', '--message', `Release ${versions.join(', ')}`]);
}

function publish(extra: string[]): void {
  // Tags go on the commit the publish runs on: it must hold what is published.
  const uncommitted = extra.includes('--no-git-tag') ? [] : uncommittedReleaseFiles(root);
  if (uncommitted.length > 0) {
    console.error(
      `Commit the release first: its tags would point at a commit without these changes:\n  ${uncommitted.join('\n  ')}`,
    );
    process.exit(1);
  }
  const env = publishEnv(process.env);
  const registry = execFileSync('pnpm', ['config', 'get', 'registry'], {
    cwd: root,
    env,
    encoding: 'utf8',
  }).trim();
  console.log(`Publishing to ${registry}`);
  run('pnpm', ['exec', 'changeset', 'publish', ...extra], env);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [step, ...extra] = process.argv.slice(2);
  if (step === 'version') version();
  else if (step === 'publish') publish(extra);
  else if (step === undefined) {
    if (version()) commitVersions();
    run('pnpm', ['turbo', 'run', 'build', '--filter=./packages/*', '--output-logs=errors-only']);
    publish([]);
  } else {
    console.error(`Unknown step ${step}: version, publish, or none for both with a build`);
    process.exit(2);
  }
}
