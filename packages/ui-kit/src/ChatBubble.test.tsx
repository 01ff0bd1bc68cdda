import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { ChatBubble } from './ChatBubble.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';

afterEach(cleanup);

describe('ChatBubble', () => {
  it('opens the help bubble panel and hides it where the app says', async () => {
    const { container, rerender } = await renderIn(<ChatBubble visible />);
    await userEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    expect(screen.getByRole('link', { name: 'E-mail support' }).getAttribute('href')).toBe(
      'mailto:support@xoss.co',
    );
    await expectAccessible(container);
    rerender(<ChatBubble visible={false} />);
    expect(screen.queryByTestId('chat-bubble')).toBeNull();
  });
});
