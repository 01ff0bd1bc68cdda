import type IntlMessageFormat from 'intl-messageformat';
import type english from '../messages/en-US.json';
import { DEFAULT_LANGUAGE, normalizeLanguage, type Language } from './languages.ts';
import type { MessageScope } from './scopes.ts';

/** Every message id of the catalogue; the English file is the source of truth. */
export type MessageId = keyof typeof english;

/** A language's messages, precompiled to ICU ASTs by `@formatjs/cli compile --ast`. */
export type CompiledMessages = Readonly<Record<string, ReturnType<IntlMessageFormat['getAst']>>>;

/** Accented, bracketed English for spotting hard-coded text and truncation (Storybook). */
export const PSEUDO_LOCALE = 'en-XA';
export type Locale = Language | typeof PSEUDO_LOCALE;

/**
 * The locale numbers, dates and plurals are formatted in: the locale itself, or for the
 * pseudo-locale (accented English for finding untranslated text) the default language.
 */
export const formattingLocale = (locale: Locale): Language =>
  locale === PSEUDO_LOCALE ? DEFAULT_LANGUAGE : locale;

// One dynamic import per language and scope: bundlers emit one chunk each, so a visitor
// downloads only the language they read, and only their app's part of it.
type Loaders = Readonly<Record<Locale, () => Promise<{ default: unknown }>>>;
const loaders: Readonly<Record<MessageScope, Loaders>> = {
  all: {
    'en-US': () => import('../compiled/en-US.js'),
    ja: () => import('../compiled/ja.js'),
    ko: () => import('../compiled/ko.js'),
    de: () => import('../compiled/de.js'),
    it: () => import('../compiled/it.js'),
    'pt-BR': () => import('../compiled/pt-BR.js'),
    es: () => import('../compiled/es.js'),
    'zh-CN': () => import('../compiled/zh-CN.js'),
    'zh-TW': () => import('../compiled/zh-TW.js'),
    'en-XA': () => import('../compiled/en-XA.js'),
  },
  site: {
    'en-US': () => import('../compiled/site/en-US.js'),
    ja: () => import('../compiled/site/ja.js'),
    ko: () => import('../compiled/site/ko.js'),
    de: () => import('../compiled/site/de.js'),
    it: () => import('../compiled/site/it.js'),
    'pt-BR': () => import('../compiled/site/pt-BR.js'),
    es: () => import('../compiled/site/es.js'),
    'zh-CN': () => import('../compiled/site/zh-CN.js'),
    'zh-TW': () => import('../compiled/site/zh-TW.js'),
    'en-XA': () => import('../compiled/site/en-XA.js'),
  },
  sitePages: {
    'en-US': () => import('../compiled/sitePages/en-US.js'),
    ja: () => import('../compiled/sitePages/ja.js'),
    ko: () => import('../compiled/sitePages/ko.js'),
    de: () => import('../compiled/sitePages/de.js'),
    it: () => import('../compiled/sitePages/it.js'),
    'pt-BR': () => import('../compiled/sitePages/pt-BR.js'),
    es: () => import('../compiled/sitePages/es.js'),
    'zh-CN': () => import('../compiled/sitePages/zh-CN.js'),
    'zh-TW': () => import('../compiled/sitePages/zh-TW.js'),
    'en-XA': () => import('../compiled/sitePages/en-XA.js'),
  },
  portal: {
    'en-US': () => import('../compiled/portal/en-US.js'),
    ja: () => import('../compiled/portal/ja.js'),
    ko: () => import('../compiled/portal/ko.js'),
    de: () => import('../compiled/portal/de.js'),
    it: () => import('../compiled/portal/it.js'),
    'pt-BR': () => import('../compiled/portal/pt-BR.js'),
    es: () => import('../compiled/portal/es.js'),
    'zh-CN': () => import('../compiled/portal/zh-CN.js'),
    'zh-TW': () => import('../compiled/portal/zh-TW.js'),
    'en-XA': () => import('../compiled/portal/en-XA.js'),
  },
  portalPages: {
    'en-US': () => import('../compiled/portalPages/en-US.js'),
    ja: () => import('../compiled/portalPages/ja.js'),
    ko: () => import('../compiled/portalPages/ko.js'),
    de: () => import('../compiled/portalPages/de.js'),
    it: () => import('../compiled/portalPages/it.js'),
    'pt-BR': () => import('../compiled/portalPages/pt-BR.js'),
    es: () => import('../compiled/portalPages/es.js'),
    'zh-CN': () => import('../compiled/portalPages/zh-CN.js'),
    'zh-TW': () => import('../compiled/portalPages/zh-TW.js'),
    'en-XA': () => import('../compiled/portalPages/en-XA.js'),
  },
};

type Settled = Promise<CompiledMessages> & { status?: 'fulfilled'; value?: CompiledMessages };
const loaded = new Map<string, Settled>();

/**
 * Loads one language's compiled messages (once; later calls share the promise), the whole
 * catalogue or one app's part of it (`scope`, src/scopes.ts). An unsupported language falls
 * back as `normalizeLanguage` decides (spec 4).
 */
export function loadMessages(
  requested: string,
  scope: MessageScope = 'all',
): Promise<CompiledMessages> {
  const locale: Locale = requested === PSEUDO_LOCALE ? PSEUDO_LOCALE : normalizeLanguage(requested);
  const key = `${scope}:${locale}`;
  let messages = loaded.get(key);
  if (!messages) {
    // A failure stays (a reload asks again): asking again at once would have a suspended
    // render retry forever.
    const loading: Settled = loaders[scope][locale]().then((module) => {
      const value = module.default as CompiledMessages;
      // Marked settled the way React's `use()` reads a promise, so a component asking for
      // messages already here renders at once instead of suspending.
      loading.status = 'fulfilled';
      loading.value = value;
      return value;
    });
    messages = loading;
    loaded.set(key, messages);
  }
  return messages;
}

/** The locale `loadMessages` serves for a requested language. */
export const localeFor = (requested: string): Locale =>
  requested === PSEUDO_LOCALE ? PSEUDO_LOCALE : normalizeLanguage(requested);
