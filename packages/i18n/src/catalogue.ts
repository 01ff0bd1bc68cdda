import type IntlMessageFormat from 'intl-messageformat';
import type english from '../messages/en-US.json';
import { normalizeLanguage, type Language } from './languages.ts';

/** Every message id of the catalogue; the English file is the source of truth. */
export type MessageId = keyof typeof english;

/** A language's messages, precompiled to ICU ASTs by `@formatjs/cli compile --ast`. */
export type CompiledMessages = Readonly<Record<string, ReturnType<IntlMessageFormat['getAst']>>>;

/** Accented, bracketed English for spotting hard-coded text and truncation (Storybook). */
export const PSEUDO_LOCALE = 'en-XA';
export type Locale = Language | typeof PSEUDO_LOCALE;

// One dynamic import per language: bundlers emit one chunk each, so a visitor downloads
// only the language they read.
const loaders: Readonly<Record<Locale, () => Promise<{ default: unknown }>>> = {
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
};

const loaded = new Map<Locale, Promise<CompiledMessages>>();

/**
 * Loads one language's compiled messages (once; later calls share the promise). An
 * unsupported language falls back as `normalizeLanguage` decides (spec 4).
 */
export function loadMessages(requested: string): Promise<CompiledMessages> {
  const locale: Locale = requested === PSEUDO_LOCALE ? PSEUDO_LOCALE : normalizeLanguage(requested);
  let messages = loaded.get(locale);
  if (!messages) {
    messages = loaders[locale]().then((module) => module.default as CompiledMessages);
    loaded.set(locale, messages);
  }
  return messages;
}

/** The locale `loadMessages` serves for a requested language. */
export const localeFor = (requested: string): Locale =>
  requested === PSEUDO_LOCALE ? PSEUDO_LOCALE : normalizeLanguage(requested);
