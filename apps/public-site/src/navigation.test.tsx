import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, type ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
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

  it('shows a lazy page once its code is there, busy meanwhile', async () => {
    let load = (_: () => ReactElement) => {};
    const Page = lazyPage(
      () =>
        new Promise<() => ReactElement>((resolve) => (load = (component) => resolve(component))),
    );
    render(
      <>
        <Bar />
        <Suspense fallback={<p>waiting</p>}>
          <Page />
        </Suspense>
      </>,
    );
    expect(await screen.findByText('loading')).toBeTruthy();
    expect(screen.getByText('waiting')).toBeTruthy();
    act(() => load(() => <h1>The page</h1>));
    expect(await screen.findByRole('heading', { name: 'The page' })).toBeTruthy();
    expect(screen.getByText('idle')).toBeTruthy();
  });
});
