import { xossProject } from '../../vitest.shared.ts';

// Type tests (`src/**/*.test-d.ts`): how a failed call narrows.
// Testing Library waits up to the wait guard (vitest.dom.ts), never its default second.
export default xossProject('api-client', {
  test: {
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'] },
    setupFiles: ['../../vitest.dom.ts'],
  },
});
