import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tests'],
    reporters: ['default'],
    // Vitest's default is one worker fewer than the cores: a single worker on CI's two
    // cores, with most files waiting on a browser, a database thread, a child process or a
    // server's restart. Three keep both cores busy through those waits (README: Tests on a
    // loaded machine); no test depends on an idle machine.
    maxWorkers: 3,
  },
});
