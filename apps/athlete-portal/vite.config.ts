import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { devServer } from '../../scripts/devProxy.ts';
import { precompiledMessagesAlias } from '../../scripts/messagesAlias.ts';
import { preloadApp } from './preloadApp.ts';

export default defineConfig({
  plugins: [react(), preloadApp('/src/app.tsx')],
  resolve: { conditions: ['@xoss/source'], alias: precompiledMessagesAlias },
  // Both apps share one origin, so their hashed assets live in separate folders. The
  // manifest (dist/.vite/manifest.json, never served) tells the tests which chunks a page loads.
  build: { assetsDir: 'assets/portal', sourcemap: true, manifest: true },
  server: devServer('athlete-portal'),
});
