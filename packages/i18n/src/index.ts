export {
  DEFAULT_LANGUAGE,
  languageNames,
  manualLanguages,
  menuLanguages,
  negotiateLanguage,
  normalizeLanguage,
  textLanguages,
  type Language,
  type ManualLanguage,
} from './languages.ts';
export {
  PSEUDO_LOCALE,
  formattingLocale,
  loadMessages,
  localeFor,
  type CompiledMessages,
  type Locale,
  type MessageId,
} from './catalogue.ts';
export {
  appExcludes,
  appScopes,
  inScope,
  messageScopes,
  scopeExcludes,
  type MessageScope,
} from './scopes.ts';
export {
  createTranslator,
  translatorFor,
  type MessageValues,
  type Translator,
} from './translator.ts';
