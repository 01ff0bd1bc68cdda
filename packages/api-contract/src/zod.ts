import { z } from 'zod';

// Every module of this package takes `z` from here, so this runs before any schema exists.
// No code generation: zod's JIT probes `new Function`, which a page's CSP (no
// 'unsafe-eval') reports as a violation. The interpreted parser is fast enough here.
z.config({ jitless: true });

export { z };
