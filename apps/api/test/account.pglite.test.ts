import { describe } from 'vitest';
import { defineAccountSuite } from './accountSuite.ts';
import { pgliteFactory } from './harness.ts';

describe('passwords and sessions on the embedded database (PGlite)', () => {
  defineAccountSuite(pgliteFactory);
});
