import { describe } from 'vitest';
import { defineHardeningSuite } from './hardeningSuite.ts';
import { pgliteFactory } from './harness.ts';

describe('hardening on the embedded database (PGlite)', () => {
  defineHardeningSuite(pgliteFactory);
});
