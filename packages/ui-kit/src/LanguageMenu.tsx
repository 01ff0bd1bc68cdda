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

/**
 * The language menu: a labelled native select, keyboard- and screen-reader-friendly. It
 * offers the configured languages; a page in another of the text languages (a `?lang=`
 * link, the app's setting) shows that one too, so the menu always names the page's real
 * language and choosing English from it is a change.
 */
export function LanguageMenu({ value, onChange, languages = menuLanguages }: LanguageMenuProps) {
  const id = useId();
  const current = normalizeLanguage(value);
  const offered = languages.includes(current) ? languages : [...languages, current];
  return (
    <span className="xoss-root">
      <label htmlFor={id} className="xoss-visually-hidden">
        <Message id="nav.language" />
      </label>
      <select
        id={id}
        className="xoss-select"
        value={current}
        onChange={(event) => onChange(normalizeLanguage(event.target.value))}
      >
        {offered.map((language) => (
          <option key={language} value={language} lang={language}>
            {languageNames[language as keyof typeof languageNames] ?? language}
          </option>
        ))}
      </select>
    </span>
  );
}
