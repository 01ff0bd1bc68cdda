import { defineConfig } from 'tsup';
import shared from '../../tsup.config.ts';

// The shared build, with the React entry beside the pure one. The compiled catalogues stay
// separate modules next to `dist/` (imported lazily, one per language), never inlined.
export default defineConfig({
  ...shared,
  entry: ['src/index.ts', 'src/react.tsx'],
  external: [/\.\.\/compiled\/.*\.js$/],
});
