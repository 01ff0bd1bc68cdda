/**
 * The release of the published packages (docs/packages.md):
 *
 *   node scripts/release.ts            version, build, publish (`pnpm release`)
 *   node scripts/release.ts version    `changeset version`, then the API baselines (`pnpm version-packages`)
 *   node scripts/release.ts publish    `changeset publish` of what is built; extra arguments go to it
 *
 * The registry is the one the usual npm settings name: `NPM_CONFIG_REGISTRY` (or
 * `npm_config_registry`) or `registry=` in an `.npmrc`. Changesets publishes through pnpm,
 * and pnpm 12 reads `pnpm_config_registry` rather than the npm variable, so the npm one is
 * passed on to it here; the publish step names the registry before it starts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pendingChangesets, snapshot } from './apiBreaks.ts';

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

function version(): void {
  // Nothing pending: the versions are already committed (a release after `pnpm version-packages`).
  if (pendingChangesets(root).length === 0) {
    console.log('No pending changesets: publishing the versions as they are.');
    return;
  }
  run('pnpm', ['exec', 'changeset', 'version']);
  const written = snapshot(root);
  // Changesets writes CHANGELOG.md as it likes; the repository's Prettier check must pass.
  run('pnpm', ['exec', 'prettier', '--write', '--log-level', 'warn', 'packages/*/CHANGELOG.md']);
  console.log(
    `Versioned. Review and commit package.json, CHANGELOG.md and the removed changesets` +
      (written.length ? `, with the API baselines:\n  ${written.join('\n  ')}` : '.'),
  );
}

function publish(extra: string[]): void {
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
    version();
    run('pnpm', ['turbo', 'run', 'build', '--filter=./packages/*', '--output-logs=errors-only']);
    publish([]);
  } else {
    console.error(`Unknown step ${step}: version, publish, or none for both with a build`);
    process.exit(2);
  }
}
