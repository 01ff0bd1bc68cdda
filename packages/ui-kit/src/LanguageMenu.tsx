import { useId } from 'react';
import { menuLanguages, normalizeLanguage } from '@xoss/i18n';
import { Message } from '@xoss/i18n/react';

/** Language names as their speakers write them (never translated). */
export const languageNames: Readonly<Record<string, string>> = {
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

export interface LanguageMenuProps {
  readonly value: string;
  /** Called with a supported language (spec 4: validated, else English). */
  readonly onChange: (language: string) => void;
  /** The offered languages; spec 1's configured list by default. */
  readonly languages?: readonly string[];
}

/** The language menu: a labelled native select, keyboard- and screen-reader-friendly. */
export function LanguageMenu({ value, onChange, languages = menuLanguages }: LanguageMenuProps) {
  const id = useId();
  const current = normalizeLanguage(value);
  return (
    <span className="xoss-root">
      <label htmlFor={id} className="xoss-visually-hidden">
        <Message id="nav.language" />
      </label>
      <select
        id={id}
        className="xoss-select"
        value={languages.includes(current) ? current : languages[0]}
        onChange={(event) => onChange(normalizeLanguage(event.target.value))}
      >
        {languages.map((language) => (
          <option key={language} value={language} lang={language}>
            {languageNames[language] ?? language}
          </option>
        ))}
      </select>
    </span>
  );
}
