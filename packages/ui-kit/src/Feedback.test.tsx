import { cleanup, render, screen } from '@testing-library/react';
import { Message, XossIntlProvider } from '@xoss/i18n/react';
import { afterEach, describe, expect, it } from 'vitest';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';
import { EmptyState, Loading, RouteProgress } from './Feedback.tsx';

afterEach(cleanup);

describe('Feedback', () => {
  it('has a progress bar only while a navigation runs, loading and empty states', async () => {
    const { container, rerender } = await renderIn(<RouteProgress active />);
    expect(screen.getByRole('progressbar', { name: 'Loading…' })).toBeTruthy();
    rerender(<RouteProgress active={false} />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    rerender(
      <>
        <Loading />
        <EmptyState title="No workouts yet">Import a .FIT file.</EmptyState>
      </>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.getByRole('heading', { name: 'No workouts yet' })).toBeTruthy();
    await expectAccessible(container);
  });
});

describe('Loading before the language is here', () => {
  it('shows a plain label without a provider', async () => {
    const { container } = render(<Loading />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    await expectAccessible(container);
  });

  it('shows the progress bar and an empty state without a provider too', async () => {
    const { container } = render(
      <>
        <RouteProgress active />
        <EmptyState />
      </>,
    );
    expect(screen.getByRole('progressbar', { name: 'Loading…' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Nothing here yet' })).toBeTruthy();
    await expectAccessible(container);
  });

  it('is the documented fallback of XossIntlProvider while its first language loads', async () => {
    render(
      <XossIntlProvider language="de" fallback={<Loading />}>
        <p>
          <Message id="common.loading" />
        </p>
      </XossIntlProvider>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    // Then the page itself, in German.
    expect(await screen.findByText('Wird geladen …')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
