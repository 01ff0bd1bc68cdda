import { cleanup, screen } from '@testing-library/react';
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
