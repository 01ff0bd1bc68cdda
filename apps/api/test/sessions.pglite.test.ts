import { describe } from 'vitest';
import { defineSessionsSuite } from './sessionsSuite.ts';
import { pgliteFactory } from './harness.ts';

describe('sessions on the embedded database (PGlite)', () => {
  defineSessionsSuite(pgliteFactory);
});
