import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tests'],
    reporters: ['default'],
    // Each project's `maxWorkers` (vitest.shared.ts) decides how many files run at once; the
    // root's must match them (README: Tests on a loaded machine).
    maxWorkers: 3,
  },
});
