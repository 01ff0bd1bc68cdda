import { defineConfig } from 'tsup';

// The one build config every publishable package uses (`tsup --config ../../tsup.config.ts`).
// ESM only, with declarations; runs from the package folder, so paths are relative to it.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2023',
  treeshake: true,
  splitting: false,
});
