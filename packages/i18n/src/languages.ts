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

/**
 * Languages manuals exist in, with the codes the manual files use (spec 1): each of the
 * nine languages we have texts in, since the manuals are printed from the catalogue (spec
 * 1's list also named French, which has no texts here).
 */
export const manualLanguages = ['en', 'ja', 'de', 'es', 'it', 'ko', 'tw', 'cn', 'pt'] as const;
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
  return matchLanguage(requested) ?? DEFAULT_LANGUAGE;
}

/** One of our languages for a tag (exact, alias, or its bare language), else undefined. */
function matchLanguage(requested: unknown): Language | undefined {
  if (typeof requested !== 'string') return undefined;
  const tag = requested.trim().replace(/_/g, '-').toLowerCase();
  if (!tag) return undefined;
  const exact = textLanguages.find((language) => language.toLowerCase() === tag);
  if (exact) return exact;
  const alias = aliases[tag];
  if (alias) return alias;
  // A script or region we do not have by name: Traditional Chinese by its script or place.
  if (/^zh-(hant|tw|hk|mo)\b/.test(tag)) return 'zh-TW';
  if (/^zh-hans\b/.test(tag)) return 'zh-CN';
  const base = tag.split('-')[0] ?? '';
  return textLanguages.find((language) => language.toLowerCase() === base) ?? aliases[base];
}

/**
 * The language of a first visit, before any choice: the first of the browser's languages
 * that we have texts in (`navigator.languages`, or an `Accept-Language` header with its
 * q-values), else English. Unlike `normalizeLanguage`, a language we lack passes to the next
 * one the rider reads (`fr-FR, de` -> `de`).
 *
 * @example
 * negotiateLanguage(['fr-FR', 'de-AT', 'en']); // 'de'
 * negotiateLanguage('fr;q=0.9, zh-Hant-HK;q=0.8, en;q=0.5'); // 'zh-TW'
 */
export function negotiateLanguage(
  preferred: readonly string[] | string | null | undefined,
): Language {
  const tags =
    typeof preferred === 'string'
      ? preferred
          .split(',')
          .map((part, index) => {
            const [tag = '', ...params] = part.split(';').map((piece) => piece.trim());
            const q = params.find((param) => param.startsWith('q='));
            const weight = q ? Number(q.slice(2)) : 1;
            return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
          })
          .filter(({ tag, weight }) => tag !== '*' && weight > 0)
          .sort((a, b) => b.weight - a.weight || a.index - b.index)
          .map(({ tag }) => tag)
      : (preferred ?? []);
  for (const tag of tags) {
    const found = matchLanguage(tag);
    if (found) return found;
  }
  return DEFAULT_LANGUAGE;
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
