import { act, cleanup, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { ChatBubble } from './ChatBubble.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { CookieNotice } from './CookieNotice.tsx';
import { Alert, EmptyState, Loading, RouteProgress } from './Feedback.tsx';
import { SubmitButton } from './Forms.tsx';
import { ErrorBoundary, PageFailed } from './PageErrors.tsx';
import { LanguageMenu } from './LanguageMenu.tsx';
import { Navbar } from './Navbar.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';
import { ToastViewport, useToasts } from './Toasts.tsx';

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

describe('ConfirmDialog', () => {
  function Harness({ onConfirm }: { onConfirm: () => void }) {
    const [open, setOpen] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Remove
        </button>
        <ConfirmDialog
          open={open}
          tone="danger"
          message="Remove NAV+ from your account?"
          onConfirm={() => {
            setOpen(false);
            onConfirm();
          }}
          onCancel={() => setOpen(false)}
        />
      </>
    );
  }

  it('is modal, takes focus, cancels on Escape and confirms on Confirm', async () => {
    const onConfirm = vi.fn();
    await renderIn(<Harness onConfirm={onConfirm} />);
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('dialog', { name: 'Please confirm' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    await expectAccessible(dialog);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onConfirm).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

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
    await vi.waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), { timeout: 2000 });
    expect(screen.getByRole('status')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('feedback', () => {
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
