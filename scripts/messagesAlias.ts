/**
 * Both apps ship their messages precompiled (@xoss/i18n), so the ICU parser never runs in
 * the browser: formatjs's parser-less build takes its place (about 8 kB gzip less).
 */
export const precompiledMessagesAlias = [
  {
    find: /^@formatjs\/icu-messageformat-parser$/,
    replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
  },
];
