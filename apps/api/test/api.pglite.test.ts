import { describe } from 'vitest';
import { defineApiSuite } from './apiSuite.ts';
import { pgliteFactory } from './harness.ts';

describe('API on the embedded database (PGlite)', () => {
  defineApiSuite(pgliteFactory);
});
