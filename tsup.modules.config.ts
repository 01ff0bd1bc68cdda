import { defineConfig } from 'tsup';
import shared from './tsup.config.ts';

// The shared build, one module a source file (shared code in chunks), for the packages an
// app imports a piece of (`@xoss/ui-kit`, `@xoss/data-fields`): the entry re-exports each
// module, and with `sideEffects` false a bundler keeps only the modules a consumer's imports
// reach. In one file, `Loading` alone brought the charts' d3-shape, visx and OpenLayers
// (15 of its 18.5 kB), and `formatDuration` every field icon (12.3 kB): a top-level call
// (the catalogue built from its definitions) is kept by a bundler that cannot prove it pure.
// The types stay one declaration file for the one public entry.
export default defineConfig({
  ...shared,
  entry: [
    'src/**/*.ts',
    'src/**/*.tsx',
    '!src/**/*.test.ts',
    '!src/**/*.test.tsx',
    '!src/**/*.test-d.ts',
    '!src/**/*.stories.tsx',
    '!src/testing/**',
  ],
  splitting: true,
  dts: { entry: 'src/index.ts' },
});
