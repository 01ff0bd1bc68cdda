import { defineProject, mergeConfig, type UserWorkspaceConfig } from 'vitest/config';

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
      },
    }),
    overrides,
  );
}
