import { defineProject, mergeConfig, type UserWorkspaceConfig } from 'vitest/config';

/** How long a test or hook may run before it is taken for stuck (README: Tests on a loaded machine). */
const HANG_GUARD_MS = 300_000;

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
        include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
        environment: 'node',
        // Guards against a hang, never a budget: a test waits for what it waits for (an
        // event, a row, a line), and a loaded 2-core machine may take minutes where an idle
        // one takes seconds. A test or hook still running after this is stuck.
        testTimeout: HANG_GUARD_MS,
        hookTimeout: HANG_GUARD_MS,
      },
    }),
    overrides,
  );
}
