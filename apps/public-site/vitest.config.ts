import react from '@vitejs/plugin-react';
import { mergeConfig } from 'vitest/config';
import { xossProject } from '../../vitest.shared.ts';

export default mergeConfig(
  xossProject('public-site', {
    test: { environment: 'happy-dom', setupFiles: ['../../vitest.dom.ts'] },
  }),
  {
    plugins: [react()],
  },
);
