// @vitest-environment happy-dom
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loadMessages } from './catalogue.ts';
import { Message, XossIntlProvider, useLocale, useT } from './react.tsx';

function Probe() {
  const t = useT();
  return (
    <p aria-label={t('nav.menu')} data-locale={useLocale()}>
      <Message id="nav.download" />
      {' · '}
      <Message
        id="login.agree"
        values={{
          terms: (text) => <a href="/t">{text}</a>,
          privacy: (text) => <a href="/p">{text}</a>,
        }}
      />
    </p>
  );
}

describe('XossIntlProvider', () => {
  it('loads the chosen language, then renders its texts', async () => {
    render(
      <XossIntlProvider language="ja" fallback={<span>loading</span>}>
        <Probe />
      </XossIntlProvider>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    const paragraph = await screen.findByLabelText('メニュー');
    expect(paragraph.textContent).toContain('ダウンロード');
    expect(paragraph.getAttribute('data-locale')).toBe('ja');
    expect(screen.getByRole('link', { name: '利用規約' }).getAttribute('href')).toBe('/t');
  });

  it('keeps the old language on screen while the new one loads, and falls back to English', async () => {
    const view = render(
      <XossIntlProvider language="de" messages={await loadMessages('de')}>
        <Probe />
      </XossIntlProvider>,
    );
    expect(screen.getByLabelText('Menü')).toBeTruthy();
    view.rerender(
      <XossIntlProvider language="klingon">
        <Probe />
      </XossIntlProvider>,
    );
    expect(screen.queryByLabelText('Menü') ?? screen.queryByLabelText('Menu')).toBeTruthy();
    await act(() => loadMessages('en-US'));
    expect(await screen.findByLabelText('Menu')).toBeTruthy();
  });
});
