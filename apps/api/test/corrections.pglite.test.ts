import { describe } from 'vitest';
import { pgliteFactory } from './harness.ts';
import { defineCorrectionsSuite } from './correctionsSuite.ts';

describe('corrections on the embedded database (PGlite)', () => {
  defineCorrectionsSuite(pgliteFactory);
});
