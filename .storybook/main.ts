import type { StorybookConfig } from '@storybook/react-vite';

// Storybook is a private app over the ui-kit stories; changesets ignore it.
const config: StorybookConfig = {
  stories: ['../packages/ui-kit/src/**/*.stories.@(ts|tsx)', '../packages/ui-kit/src/**/*.mdx'],
  // Docs: a page per component with its props (autodocs); a11y: axe's findings per story.
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true },
  viteFinal: (viteConfig) => {
    viteConfig.resolve ??= {};
    viteConfig.resolve.conditions = ['@xoss/source', 'module', 'browser', 'development|production'];
    return viteConfig;
  },
};

export default config;
