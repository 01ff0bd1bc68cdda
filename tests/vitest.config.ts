import { xossProject } from '../vitest.shared.ts';

// Checks of the repository as a whole: README commands, the docs and the references to them.
export default xossProject('repo', { test: { include: ['*.test.ts'] } });
