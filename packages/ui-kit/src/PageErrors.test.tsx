import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';
import { ErrorBoundary, PageFailed } from './PageErrors.tsx';

afterEach(cleanup);

describe('ErrorBoundary and PageFailed', () => {
  it('puts a failing page in its place, not the whole app, until the page changes', async () => {
    const onRetry = vi.fn();
    let broken = true;
    function Page({ name }: { name: string }) {
      if (broken) throw new Error('chunk did not arrive');
      return <h1>{name}</h1>;
    }
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const view = (path: string) => (
      <main>
        <p>Frame</p>
        <ErrorBoundary resetKey={path} fallback={<PageFailed onRetry={onRetry} />}>
          <Page name={path} />
        </ErrorBoundary>
      </main>
    );
    const { container, rerender } = await renderIn(view('/a'));
    expect(screen.getByText('Frame')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'This page could not be loaded. Check your connection and try again.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
    await expectAccessible(container);
    // Same page: still failed. Another page: it gets its chance.
    broken = false;
    rerender(view('/a'));
    expect(screen.queryByRole('heading')).toBeNull();
    rerender(view('/b'));
    expect(screen.getByRole('heading', { name: '/b' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    quiet.mockRestore();
  });
});
