import { fileURLToPath } from 'node:url';
import { defineProject, mergeConfig, type UserWorkspaceConfig } from 'vitest/config';
import { HANG_GUARD_MS, WAIT_GUARD_MS } from './vitest.guards.ts';

/**
 * Test files run at once, in every project. Vitest 5 reads `maxWorkers` of each project, not
 * the root's: set only in the root config it left every project at its default, one fewer
 * than the cores, and on CI's two cores that put every node file into one queue run one file
 * at a time (six 4-second files took 27 s with the root's setting, 11 s with each project's).
 * Most files wait on a browser, a database thread, a child process or a server's restart:
 * three keep both cores busy through those waits.
 */
const TEST_WORKERS = 3;

/**
 * The settings every Vitest project here shares: workspace packages resolve to their
 * TypeScript sources (the `@xoss/source` export condition), so tests never need a build.
 */
export function xossProject(
  name: string,
  overrides: UserWorkspaceConfig = {},
): UserWorkspaceConfig {
  return mergeConfig(
    defineProject({
      resolve: { conditions: ['@xoss/source'] },
      ssr: { resolve: { conditions: ['@xoss/source'] } },
      test: {
        name,
        maxWorkers: TEST_WORKERS,
        include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
        environment: 'node',
        // Every API process a test starts hashes passwords at argon2id's floor (OWASP's
        // minimum, a fifth of the default's CPU): README, where CI's time goes.
        env: { PASSWORD_HASH_MEMORY_KIB: '19456', PASSWORD_HASH_ITERATIONS: '2' },
        // Guards against a hang, never a budget: a test waits for what it waits for (an
        // event, a row, a line), and a loaded 2-core machine may take minutes where an idle
        // one takes seconds. A test or hook still running after this is stuck.
        testTimeout: HANG_GUARD_MS,
        hookTimeout: HANG_GUARD_MS,
        // `expect.poll` and `vi.waitFor` (vitest.wait.ts) wait up to the wait guard, not
        // their default second.
        expect: { poll: { timeout: WAIT_GUARD_MS } },
        setupFiles: [fileURLToPath(new URL('./vitest.wait.ts', import.meta.url))],
      },
    }),
    overrides,
  );
}
