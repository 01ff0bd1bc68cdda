import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tests'],
    reporters: ['default'],
    // Vitest's default is one worker fewer than the cores: a single worker on CI's two
    // cores, with most files waiting on a browser, a database thread or a child process.
    // Two keep both cores busy (README: Tests on a loaded machine).
    maxWorkers: 2,
  },
});
