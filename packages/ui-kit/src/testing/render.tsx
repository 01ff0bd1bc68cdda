import { render, type RenderResult } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import type { ReactNode } from 'react';
import '../styles.css';

/** Renders inside the i18n provider with the language already loaded. */
export async function renderIn(ui: ReactNode, language = 'en-US'): Promise<RenderResult> {
  const messages = await loadMessages(language);
  const result = render(
    <XossIntlProvider language={language} messages={messages}>
      {ui}
    </XossIntlProvider>,
  );
  return {
    ...result,
    rerender: (next: ReactNode) =>
      result.rerender(
        <XossIntlProvider language={language} messages={messages}>
          {next}
        </XossIntlProvider>,
      ),
  };
}
