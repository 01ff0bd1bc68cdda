/** The nine languages the site has texts in (spec 1), as BCP 47 tags. */
export const textLanguages = [
  'en-US',
  'ja',
  'ko',
  'de',
  'it',
  'pt-BR',
  'es',
  'zh-CN',
  'zh-TW',
] as const;

export type Language = (typeof textLanguages)[number];

/** The languages the language menu offers (spec 1): a configured subset of `textLanguages`. */
export const menuLanguages = ['en-US', 'zh-CN', 'zh-TW'] as const satisfies readonly Language[];

/** Languages manuals exist in, with the codes the manual files use (spec 1). */
export const manualLanguages = [
  'en',
  'ja',
  'de',
  'es',
  'fr',
  'it',
  'ko',
  'tw',
  'cn',
  'pt',
] as const;
export type ManualLanguage = (typeof manualLanguages)[number];

/** The default language (spec 9). */
export const DEFAULT_LANGUAGE: Language = 'en-US';

const aliases: Readonly<Record<string, Language>> = {
  en: 'en-US',
  zh: 'zh-CN',
  'zh-hans': 'zh-CN',
  'zh-sg': 'zh-CN',
  cn: 'zh-CN',
  'zh-hant': 'zh-TW',
  'zh-hk': 'zh-TW',
  tw: 'zh-TW',
  pt: 'pt-BR',
};

/**
 * Validates a requested language against the supported ones and falls back to English
 * (spec 4). Matching ignores case and accepts a bare language (`pt` -> `pt-BR`, `zh` ->
 * `zh-CN`) or script tags (`zh-Hant` -> `zh-TW`).
 *
 * @example
 * normalizeLanguage('ZH-tw'); // 'zh-TW'
 * normalizeLanguage('xx'); // 'en-US'
 */
export function normalizeLanguage(requested: unknown): Language {
  if (typeof requested !== 'string') return DEFAULT_LANGUAGE;
  const tag = requested.trim().replace(/_/g, '-').toLowerCase();
  const exact = textLanguages.find((language) => language.toLowerCase() === tag);
  if (exact) return exact;
  const alias = aliases[tag];
  if (alias) return alias;
  const base = tag.split('-')[0] ?? '';
  const byBase = textLanguages.find((language) => language.toLowerCase() === base);
  return byBase ?? aliases[base] ?? DEFAULT_LANGUAGE;
}

/** Language names as their speakers write them, for menus and toolbars (never translated). */
export const languageNames: Readonly<Record<Language, string>> = {
  'en-US': 'English',
  ja: '日本語',
  ko: '한국어',
  de: 'Deutsch',
  it: 'Italiano',
  'pt-BR': 'Português (Brasil)',
  es: 'Español',
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
};
