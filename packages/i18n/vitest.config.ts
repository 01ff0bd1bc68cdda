import { xossProject } from '../../vitest.shared.ts';

// Testing Library waits up to the wait guard (vitest.dom.ts), never its default second: a
// catalogue's first load took over a second on a loaded CI machine.
export default xossProject('i18n', { test: { setupFiles: ['../../vitest.dom.ts'] } });
