import { xossProject } from '../../vitest.shared.ts';

// The contract's generics have type tests (`src/**/*.test-d.ts`), checked by `tsc` here.
export default xossProject('api-contract', {
  test: { typecheck: { enabled: true, include: ['src/**/*.test-d.ts'] } },
});
