import { useId } from 'react';
import { languageNames, menuLanguages, normalizeLanguage } from '@xoss/i18n';
import { Message } from '@xoss/i18n/react';

export { languageNames };

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
            {languageNames[language as keyof typeof languageNames] ?? language}
          </option>
        ))}
      </select>
    </span>
  );
}
