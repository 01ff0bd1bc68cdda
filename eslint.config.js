// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';

const reactFiles = [
  'packages/ui-kit/**/*.tsx',
  'apps/**/*.tsx',
  'packages/api-client/**/*.tsx',
  'packages/i18n/**/*.tsx',
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      // The site's server-side build, there while its build runs (turbo may lint meanwhile).
      '**/dist-ssr/**',
      '**/storybook-static/**',
      '**/coverage/**',
      '**/.turbo/**',
      '**/data/**',
      'packages/i18n/compiled/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportDefaultDeclaration',
          message: 'Named exports only (config and story files aside).',
        },
      ],
    },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
  {
    files: [
      '**/*.config.ts',
      '**/*.config.js',
      '**/*.stories.tsx',
      '.storybook/**',
      'tsup.config.ts',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: reactFiles,
    ...jsxA11y.flatConfigs.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: reactFiles,
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Pure packages: no React, no DOM (the arrows of docs/architecture.md).
  {
    files: ['packages/{data-fields,workout-stats,activity-files,api-contract}/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-dom', 'react/*', '@xoss/ui-kit', '@xoss/api-client'],
              message: 'Pure packages never import React, the DOM or upper layers.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/ui-kit/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@xoss/api-client', '@reduxjs/toolkit/query*'],
              message: 'ui-kit never calls the network: take data and callbacks by props.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/api/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-dom', '@xoss/ui-kit', '@xoss/api-client'],
              message: 'The API server never imports React, ui-kit or api-client.',
            },
          ],
        },
      ],
    },
  },
);
