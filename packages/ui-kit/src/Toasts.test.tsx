import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';
import { ToastViewport, useToasts } from './Toasts.tsx';

afterEach(cleanup);

describe('Toasts', () => {
  it('shows messages that leave by themselves or when dismissed', async () => {
    let api: ReturnType<typeof useToasts> | undefined;
    function Host() {
      api = useToasts();
      return <ToastViewport toasts={api.toasts} onDismiss={api.dismiss} />;
    }
    const { container } = await renderIn(<Host />);
    act(() => {
      api!.show('Save Successfully', { durationMs: 60_000 });
      api!.show('Submit Failed', { tone: 'error', durationMs: 300 });
    });
    expect(screen.getByRole('status').textContent).toContain('Save Successfully');
    expect(screen.getByRole('alert').textContent).toContain('Submit Failed');
    await expectAccessible(container);
    await vi.waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(screen.getByRole('status')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
