// @vitest-environment happy-dom
import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMessages } from './catalogue.ts';
import {
  Message,
  MoreMessages,
  XossIntlProvider,
  useHasIntl,
  useLocale,
  useT,
  useTranslateKnown,
} from './react.tsx';

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

function Known({ id }: { id: string }) {
  const known = useTranslateKnown();
  return <output>{known(id) ?? 'unknown id'}</output>;
}

describe('useTranslateKnown', () => {
  it('translates an id sent at run time when the catalogue has it, and says when it does not', async () => {
    render(
      <XossIntlProvider language="de" fallback={<span>loading</span>}>
        <Known id="activityFiles.gpx.noPoints" />
        <Known id="activityFiles.gpx.noSuchReason" />
      </XossIntlProvider>,
    );
    const [known, unknown] = await screen.findAllByRole('status');
    expect(known!.textContent).not.toBe('unknown id');
    expect(known!.textContent).not.toContain('activityFiles');
    expect(unknown!.textContent).toBe('unknown id');
  });
});

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

describe('MoreMessages', () => {
  afterEach(cleanup);

  function Page({ language }: { language: string }) {
    return (
      <XossIntlProvider language={language} scope="site" fallback={<span>loading</span>}>
        <p>
          <Message id="nav.menu" />
        </p>
        <Suspense fallback={<span>page loading</span>}>
          <MoreMessages scope="sitePages">
            <p>
              <Message id="maps.estimate" values={{ hours: 1, minutes: 5 }} />
              {' / '}
              <Message id="nav.menu" />
            </p>
          </MoreMessages>
        </Suspense>
      </XossIntlProvider>
    );
  }

  it("adds a page's part of the catalogue under the app's, in the provider's language", async () => {
    const view = render(<Page language="de" />);
    expect((await screen.findByText(/Geschätzte Importdauer: 1 h 5 min/)).textContent).toBe(
      'Geschätzte Importdauer: 1\u00a0h 5\u00a0min / Menü',
    );
    // The app's own part is not replaced: both texts come from one provider each.
    expect(screen.getByText('Menü').tagName).toBe('P');
    expect(Object.keys(await loadMessages('de', 'site'))).not.toContain('maps.estimate');

    // A language switch loads both parts before it shows, so the page never falls back.
    view.rerender(<Page language="ja" />);
    expect(screen.queryByText('page loading')).toBeNull();
    expect(await screen.findByText(/推定インポート時間：1時間5分/)).toBeTruthy();
    expect(screen.queryByText('page loading')).toBeNull();
    expect(screen.getByText('メニュー').tagName).toBe('P');
  });

  it('renders at once when its part has already loaded, and waits for it otherwise', async () => {
    await loadMessages('it', 'site');
    await loadMessages('it', 'sitePages');
    render(<Page language="it" />);
    await screen.findByText('Menu');
    // Already here: no suspended first render of the page.
    expect(screen.queryByText('page loading')).toBeNull();
    expect(screen.getByText(/1 h 5 min/)).toBeTruthy();
    cleanup();
    // Not here yet (the provider was handed its messages, so it loaded nothing itself).
    // Rendered as in a browser, outside act(), whose queue would hold React's retry.
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    const container = document.body.appendChild(document.createElement('div'));
    const root = createRoot(container);
    try {
      root.render(
        <XossIntlProvider language="ko" messages={await loadMessages('ko', 'site')}>
          <Suspense fallback={<span>page loading</span>}>
            <MoreMessages scope="sitePages">
              <Message id="maps.estimate" values={{ hours: 1, minutes: 5 }} />
            </MoreMessages>
          </Suspense>
        </XossIntlProvider>,
      );
      expect(await screen.findByText('page loading')).toBeTruthy();
      expect(await screen.findByText('예상 가져오기 시간: 1시간 5분')).toBeTruthy();
    } finally {
      root.unmount();
      container.remove();
      actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
    }
  });
});

describe('without a provider', () => {
  it('names the provider to add, and says whether one is above', () => {
    function Has() {
      return <output>{useHasIntl() ? 'provider' : 'none'}</output>;
    }
    render(<Has />);
    expect(screen.getByRole('status').textContent).toBe('none');
    cleanup();
    const quiet = console.error;
    console.error = () => undefined;
    try {
      expect(() => render(<Message id="nav.download" />)).toThrow(/<XossIntlProvider>/);
      expect(() => render(<Probe />)).toThrow(/@xoss\/i18n\/react/);
    } finally {
      console.error = quiet;
    }
  });
});
