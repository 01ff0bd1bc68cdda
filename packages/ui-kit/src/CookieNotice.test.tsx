import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { CookieNotice } from './CookieNotice.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';

afterEach(cleanup);

describe('CookieNotice', () => {
  it('answers Accept or Decline', async () => {
    const onAccept = vi.fn();
    const onDecline = vi.fn();
    const { container } = await renderIn(
      <CookieNotice onAccept={onAccept} onDecline={onDecline} />,
      'ja',
    );
    await userEvent.click(screen.getByRole('button', { name: '同意しない' }));
    await userEvent.click(screen.getByRole('button', { name: '同意する' }));
    expect(onDecline).toHaveBeenCalledOnce();
    expect(onAccept).toHaveBeenCalledOnce();
    await expectAccessible(container);
  });
});
