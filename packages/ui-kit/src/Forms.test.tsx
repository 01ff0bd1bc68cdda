import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { SubmitButton } from './Forms.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';
import { Alert } from './Feedback.tsx';

afterEach(cleanup);

describe('SubmitButton', () => {
  it('shows a form problem only when there is one, and a busy submit button cannot be pressed again', async () => {
    const onSubmit = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
    const form = (problem: string | null, busy: boolean) => (
      <form onSubmit={onSubmit} aria-label="Upload">
        <Alert>{problem}</Alert>
        <SubmitButton busy={busy}>Upload</SubmitButton>
      </form>
    );
    const { container, rerender } = await renderIn(form(null, false));
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(onSubmit).toHaveBeenCalledOnce();
    rerender(form('Please check required fields', true));
    expect(screen.getByRole('alert').textContent).toBe('Please check required fields');
    const button = screen.getByRole('button', { name: 'Upload' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(button, { force: true });
    expect(onSubmit).toHaveBeenCalledOnce();
    await expectAccessible(container);
    rerender(form('', false));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
