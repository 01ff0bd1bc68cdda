import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { LanguageMenu } from './LanguageMenu.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';

afterEach(cleanup);

describe('LanguageMenu', () => {
  it('offers the configured languages by their own names and reports a supported choice', async () => {
    const onChange = vi.fn();
    const { container } = await renderIn(<LanguageMenu value="zh-TW" onChange={onChange} />);
    const select = screen.getByRole('combobox', { name: 'Language' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['English', '简体中文', '繁體中文']);
    expect((select as HTMLSelectElement).value).toBe('zh-TW');
    await userEvent.selectOptions(select, 'zh-CN');
    expect(onChange).toHaveBeenCalledWith('zh-CN');
    await expectAccessible(container);
  });

  it("names the page's language when it is not on the menu, so choosing English changes it", async () => {
    const onChange = vi.fn();
    await renderIn(<LanguageMenu value="de" onChange={onChange} />, 'de');
    const select = screen.getByRole('combobox', { name: 'Sprache' });
    expect((select as HTMLSelectElement).value).toBe('de');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['English', '简体中文', '繁體中文', 'Deutsch']);
    await userEvent.selectOptions(select, 'en-US');
    expect(onChange).toHaveBeenCalledWith('en-US');
  });
});
