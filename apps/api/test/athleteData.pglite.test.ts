import { describe } from 'vitest';
import { defineAthleteDataSuite } from './athleteDataSuite.ts';
import { pgliteFactory } from './harness.ts';

describe('a rider’s own data on the embedded database (PGlite)', () => {
  defineAthleteDataSuite(pgliteFactory);
});
