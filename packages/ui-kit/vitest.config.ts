import { playwright } from '@vitest/browser-playwright';
import { xossProject } from '../../vitest.shared.ts';

// Components are tested in a real browser: Debian's Chromium, never a downloaded one.
export default xossProject('ui-kit', {
  test: {
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
