import { playwright } from '@vitest/browser-playwright';
import { xossProject } from '../../vitest.shared.ts';

// Components are tested in a real browser: Debian's Chromium, never a downloaded one.
export default xossProject('ui-kit', {
  // What the stories need at run time (storybook.test.ts loads them all), bundled before the
  // first test: found in the middle of a run, the browser would reload and drop that file.
  optimizeDeps: { include: ['storybook/test'] },
  test: {
    setupFiles: ['../../vitest.dom.ts'],
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
      }),
      instances: [{ browser: 'chromium' }],
      screenshotFailures: false,
    },
  },
});
