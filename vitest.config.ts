import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take minutes, longest first (measured in a fresh clone's run: README, Where
 * CI's time goes). Vitest's own order runs the projects one after the other (by name) and,
 * without timings from an earlier run, larger files first: on a fresh clone the repository's
 * browser checks started last and ran alone for the last quarter of an hour.
 */
const LONG_FILES = [
  'tests/stateMatrix.test.ts',
  'tests/crawl.test.ts',
  'apps/athlete-portal/test/e2e.test.ts',
  'apps/api/test/heavyImports.test.ts',
  'apps/api/test/faults.test.ts',
  'apps/api/test/upgrades.pglite.test.ts',
  'tests/storybook.test.ts',
  'apps/api/test/multiProcess.test.ts',
  'apps/api/test/backup.test.ts',
  'apps/public-site/test/e2e.test.ts',
];

/** Vitest's order, with the long files first: they overlap the many short ones. */
class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONG_FILES.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return at === -1 ? LONG_FILES.length : at;
    };
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tests'],
    reporters: ['default'],
    // Each project's `maxWorkers` (vitest.shared.ts) decides how many files run at once; the
    // root's must match them (README: Tests on a loaded machine).
    maxWorkers: 3,
    sequence: { sequencer: LongFilesFirst },
  },
});
