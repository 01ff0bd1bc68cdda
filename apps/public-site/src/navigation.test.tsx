import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, type ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMessages } from '@xoss/i18n';
import { Message, XossIntlProvider } from '@xoss/i18n/react';
import { lazyPage, track, useLoading } from './navigation.ts';

afterEach(cleanup);

function Bar() {
  return <p>{useLoading() ? 'loading' : 'idle'}</p>;
}

describe('navigation progress', () => {
  it('is busy while any tracked work runs, failed work included', async () => {
    render(<Bar />);
    expect(screen.getByText('idle')).toBeTruthy();
    let finish = () => {};
    let fail = () => {};
    const first = track(new Promise<void>((resolve) => (finish = resolve)));
    const second = track(new Promise<void>((_, reject) => (fail = () => reject(new Error('x')))));
    await act(async () => {});
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => {
      finish();
      await first;
    });
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => {
      fail();
      await second.catch(() => undefined);
    });
    expect(screen.getByText('idle')).toBeTruthy();
  });

  it('shows a lazy page once its code is there, with its messages, busy meanwhile', async () => {
    let load = (_: () => ReactElement) => {};
    let asked = 0;
    const Page = lazyPage(() => {
      asked++;
      return new Promise<() => ReactElement>(
        (resolve) => (load = (component) => resolve(component)),
      );
    });
    // The page's part of the catalogue (`sitePages`) is here already: its code alone is
    // awaited (the i18n package tests the wait for messages).
    const messages = await loadMessages('en-US', 'site');
    await loadMessages('en-US', 'sitePages');
    expect(messages['maps.limit']).toBeUndefined();
    await act(() =>
      Promise.resolve(
        render(
          <XossIntlProvider language="en-US" messages={messages}>
            <Bar />
            <Suspense fallback={<p>waiting</p>}>
              <Page />
            </Suspense>
          </XossIntlProvider>,
        ),
      ),
    );
    expect(await screen.findByText('loading')).toBeTruthy();
    expect(screen.getByText('waiting')).toBeTruthy();
    act(() =>
      load(() => (
        <h1>
          <Message id="maps.limit" />
        </h1>
      )),
    );
    expect(
      await screen.findByRole('heading', {
        name: 'Keep the map files on your NAV+ under about 3.6 GB in total.',
      }),
    ).toBeTruthy();
    expect(screen.getByText('idle')).toBeTruthy();
    expect(asked).toBe(1);
  });
});
