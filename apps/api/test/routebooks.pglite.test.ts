import { describe } from 'vitest';
import { pgliteFactory } from './harness.ts';
import { defineRoutebooksSuite } from './routebooksSuite.ts';

describe('routebooks on the embedded database (PGlite)', () => {
  defineRoutebooksSuite(pgliteFactory);
});
