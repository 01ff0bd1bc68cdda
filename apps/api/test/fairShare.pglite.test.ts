import { describe } from 'vitest';
import { defineFairShareSuite } from './fairShareSuite.ts';
import { pgliteFactory } from './harness.ts';

describe('fair share on the embedded database (PGlite)', () => {
  defineFairShareSuite('pglite', pgliteFactory);
});
