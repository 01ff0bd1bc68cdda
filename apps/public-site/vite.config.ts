import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { devServer } from '../../scripts/devProxy.ts';
import { precompiledMessagesAlias } from '../../scripts/messagesAlias.ts';
import { manualsPlugin } from './build/manuals.ts';
import { seoPlugin } from './build/seo.ts';

export default defineConfig({
  plugins: [react(), manualsPlugin(), seoPlugin()],
  resolve: { conditions: ['@xoss/source'], alias: precompiledMessagesAlias },
  // Both apps share one origin, so their hashed assets live in separate folders.
  build: {
    assetsDir: 'assets/site',
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'runtime',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-intl|@formatjs[\\/][^\\/]+|intl-messageformat)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: devServer('public-site'),
});
