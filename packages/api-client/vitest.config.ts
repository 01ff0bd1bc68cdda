import { xossProject } from '../../vitest.shared.ts';

// Type tests (`src/**/*.test-d.ts`): how a failed call narrows.
export default xossProject('api-client', {
  test: { typecheck: { enabled: true, include: ['src/**/*.test-d.ts'] } },
});
