import { describe } from 'vitest';
import { defineAnalysisSuite } from './analysisSuite.ts';
import { pgliteFactory, suiteHarnesses } from './harness.ts';

describe('ride and training analysis on the embedded database (PGlite)', () => {
  defineAnalysisSuite(suiteHarnesses(pgliteFactory));
});
