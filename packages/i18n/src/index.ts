export {
  DEFAULT_LANGUAGE,
  manualLanguages,
  menuLanguages,
  normalizeLanguage,
  textLanguages,
  type Language,
  type ManualLanguage,
} from './languages.ts';
