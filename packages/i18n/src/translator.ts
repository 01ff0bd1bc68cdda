import IntlMessageFormat from 'intl-messageformat';
import {
  formattingLocale,
  loadMessages,
  localeFor,
  type CompiledMessages,
  type Locale,
  type MessageId,
} from './catalogue.ts';

export type MessageValues = Readonly<Record<string, string | number | Date>>;

/** Formats catalogue messages of one language, without React. */
export interface Translator {
  readonly locale: Locale;
  /** The message with its values; the id itself when the catalogue lacks it. */
  t(id: MessageId, values?: MessageValues): string;
  /** The same for ids built at run time (`sport.${type}`); unknown ids give `fallback`. */
  tDynamic(id: string, values?: MessageValues, fallback?: string): string;
  has(id: string): boolean;
}

/** A translator over already loaded messages (see `loadMessages`). */
export function createTranslator(locale: Locale, messages: CompiledMessages): Translator {
  const formats = new Map<string, IntlMessageFormat>();
  const formatLocale = formattingLocale(locale);
  const format = (id: string, values: MessageValues | undefined, fallback: string) => {
    const ast = Object.hasOwn(messages, id) ? messages[id] : undefined;
    if (!ast) return fallback;
    let formatter = formats.get(id);
    if (!formatter) {
      formatter = new IntlMessageFormat(ast, formatLocale);
      formats.set(id, formatter);
    }
    const result = formatter.format(values);
    return Array.isArray(result) ? result.join('') : String(result);
  };
  return {
    locale,
    t: (id, values) => format(id, values, id),
    tDynamic: (id, values, fallback) => format(id, values, fallback ?? id),
    has: (id) => Object.hasOwn(messages, id),
  };
}

/**
 * Loads a language and returns its translator: the pure API for non-React users (the API
 * server's e-mails and errors, scripts).
 *
 * @example
 * const { t } = await translatorFor('de');
 * t('errors.10301'); // 'Benutzername oder Passwort falsch'
 */
export async function translatorFor(requested: string): Promise<Translator> {
  const locale = localeFor(requested);
  return createTranslator(locale, await loadMessages(locale));
}
