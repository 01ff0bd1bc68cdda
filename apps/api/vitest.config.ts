import { xossProject } from '../../vitest.shared.ts';

// Route contexts have type tests (`src/**/*.test-d.ts`), checked by `tsc` here too.
export default xossProject('api', {
  test: { typecheck: { enabled: true, include: ['src/**/*.test-d.ts'] } },
});
