import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { Navbar } from './Navbar.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';

afterEach(cleanup);

describe('Navbar', () => {
  it('shows the visitor entries of spec 2, marks the current page, and passes axe', async () => {
    const { container } = await renderIn(
      <Navbar loggedIn={false} currentPath="/product/manuals" layout="pc" />,
    );
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const names = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(names).toEqual([
      'XOSS',
      'Products',
      'Download',
      'Resources',
      'Shop',
      'Sign Up',
      'Log In',
    ]);
    expect(within(nav).getByRole('link', { name: 'Resources' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(within(nav).queryByRole('button', { name: /Log Out/ })).toBeNull();
    await expectAccessible(container);
  });

  it('shows the rider entries and Log Out when signed in', async () => {
    const onLogOut = vi.fn();
    const { container } = await renderIn(
      <Navbar
        loggedIn
        userName="Ada"
        currentPath="/dashboard/main"
        layout="pc"
        onLogOut={onLogOut}
      />,
      'de',
    );
    const nav = screen.getByRole('navigation', { name: 'Hauptnavigation' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'Gerät' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Einstellungen' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Anmelden' })).toBeNull();
    await userEvent.click(within(nav).getByRole('button', { name: /Abmelden/ }));
    expect(onLogOut).toHaveBeenCalledOnce();
    await expectAccessible(container);
  });

  it('folds into a menu button on mobile, opened and closed from the keyboard', async () => {
    await renderIn(<Navbar loggedIn={false} layout="mobile" />);
    const toggle = screen.getByRole('button', { name: 'Menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('link', { name: 'Products', hidden: true }).checkVisibility()).toBe(
      false,
    );
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: 'Products' }).checkVisibility()).toBe(true);
    // Esc from inside the open menu closes it and puts the focus back on its button.
    screen.getByRole('link', { name: 'Products' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });

  it('gives every entry of the open phone menu a target 24 px tall or more, 8 px apart (WCAG 2.2)', async () => {
    const { page } = await import('vitest/browser');
    await page.viewport(360, 800);
    try {
      for (const loggedIn of [false, true]) {
        await renderIn(
          <Navbar
            loggedIn={loggedIn}
            userName="Ada"
            languageMenu={<select aria-label="Language" className="xoss-select" />}
          />,
        );
        await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
        const nav = screen.getByRole('navigation');
        const targets = [
          ...within(nav).getAllByRole('link'),
          ...within(nav).queryAllByRole('button', { name: /Log Out/ }),
        ].filter((target) => !target.querySelector('.xoss-navbar__brand'));
        const boxes = targets
          .map((target) => ({ name: target.textContent, box: target.getBoundingClientRect() }))
          .sort((a, b) => a.box.top - b.box.top);
        expect(boxes.length).toBeGreaterThanOrEqual(loggedIn ? 10 : 6);
        for (const { name, box } of boxes) {
          expect(box.height, String(name)).toBeGreaterThanOrEqual(24);
          expect(box.right, String(name)).toBeLessThanOrEqual(360);
        }
        // The menu is one column: each target starts at least 8 px below the one above.
        for (const [index, { name, box }] of boxes.slice(1).entries())
          expect(box.top - boxes[index]!.box.bottom, String(name)).toBeGreaterThanOrEqual(8);
        cleanup();
      }
    } finally {
      await page.viewport(1200, 800);
    }
  });

  it('follows the window width when no layout is forced (<= 800 px is mobile)', async () => {
    const { page } = await import('vitest/browser');
    await page.viewport(700, 800);
    await renderIn(<Navbar loggedIn={false} />);
    // Decided in CSS, so prerendered HTML is laid out right before any script runs.
    expect(screen.getByRole('navigation').getAttribute('data-layout')).toBe('auto');
    const toggle = screen.getByRole('button', { name: 'Menu' });
    expect(toggle.checkVisibility()).toBe(true);
    expect(screen.getByRole('link', { name: 'Products', hidden: true }).checkVisibility()).toBe(
      false,
    );
    await page.viewport(1200, 800);
    await vi.waitFor(() => expect(toggle.checkVisibility()).toBe(false));
    expect(screen.getByRole('link', { name: 'Products' }).checkVisibility()).toBe(true);
  });
});
