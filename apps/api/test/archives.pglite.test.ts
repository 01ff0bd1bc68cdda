import { describe } from 'vitest';
import { defineArchivesSuite } from './archivesSuite.ts';
import { pgliteFactory } from './harness.ts';

describe('export archives on the embedded database (PGlite)', () => {
  defineArchivesSuite(pgliteFactory);
});
