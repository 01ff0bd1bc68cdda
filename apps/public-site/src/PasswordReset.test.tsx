import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { client } from './client.ts';
import { SiteRoutes } from './routes.tsx';

/** "Forgot password?" on the login page, and the page the mailed link opens. */

let english: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
  await loadMessages('en-US', 'sitePages');
});

afterEach(() => {
  cleanup();
  client.session.clear();
  localStorage.clear();
  vi.unstubAllGlobals();
});

/** Renders the site at `path` and waits for the lazily loaded page's heading. */
async function renderAt(path: string) {
  await act(() =>
    Promise.resolve(
      render(
        <Provider store={client.store}>
          <XossIntlProvider language="en-US" messages={english}>
            <MemoryRouter initialEntries={[path]}>
              <SiteRoutes />
            </MemoryRouter>
          </XossIntlProvider>
        </Provider>,
      ),
    ),
  );
  await screen.findByRole('heading', { level: 1 });
}

/** The API answering `path` with the next of `replies` (the last repeats); what it was sent. */
function stubApi(path: string, replies: (() => Response)[]) {
  const sent: unknown[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    if (new URL(url, 'http://site.test').pathname !== path)
      return Promise.resolve(new Response(JSON.stringify({ code: 0, msg: 'ok', data: [] })));
    sent.push(JSON.parse(init.body as string));
    return Promise.resolve((replies.length > 1 ? replies.shift()! : replies[0]!)());
  });
  return sent;
}

const accepted = () =>
  new Response(JSON.stringify({ code: 0, msg: 'success', data: {} }), { status: 202 });
const ok = () => new Response(JSON.stringify({ code: 0, msg: 'success', data: {} }));
const refused = (code: number, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ code, msg: 'refused', detail: '' }), { status, headers });

const SENT =
  "If an account exists for that address, we've sent a link to it. The link is valid for 30 minutes.";
const TOKEN = 'A'.repeat(20) + '_-' + 'b9'.repeat(10) + 'z';

describe('forgot password', () => {
  it('opens a form that checks the address, sends it, and says the same thing whatever the answer', async () => {
    const sent = stubApi('/api/v1/password-reset/', [accepted]);
    await renderAt('/login');
    expect(screen.queryByLabelText("Your account's e-mail")).toBeNull();
    const toggle = screen.getByRole('button', { name: 'Forgot password?' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const email = screen.getByLabelText<HTMLInputElement>("Your account's e-mail");
    fireEvent.change(email, { target: { value: 'not an address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    const problem = await screen.findByText('Enter an e-mail address like name@example.com');
    expect(email.getAttribute('aria-describedby')).toBe(problem.id);
    expect(sent).toEqual([]);
    fireEvent.change(email, { target: { value: ' rider@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    expect((await screen.findByRole('status')).textContent).toBe(SENT);
    expect(screen.queryByText('Enter an e-mail address like name@example.com')).toBeNull();
    expect(sent).toEqual([{ email: 'rider@example.com' }]);
  });

  it('says how long to wait when the requests are limited', async () => {
    stubApi('/api/v1/password-reset/', [() => refused(10302, 429, { 'Retry-After': '900' })]);
    await renderAt('/login?forgot');
    fireEvent.change(screen.getByLabelText("Your account's e-mail"), {
      target: { value: 'rider@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please try again in 15 minutes.',
    );
    expect(screen.queryByText(SENT)).toBeNull();
  });

  it('says the account is gone when the portal sends a deleted rider here', async () => {
    await renderAt('/login?account=deleted');
    expect(screen.getByRole('status').textContent).toBe(
      'Your account and all its data have been deleted.',
    );
  });
});

describe('the reset page', () => {
  const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save the new password' }));

  it('refuses a short or unrepeated password beside its field, then sets it and links to login', async () => {
    const sent = stubApi('/api/v1/password-reset/confirm/', [ok]);
    client.session.setTokens({ access: 'a', refresh: 'r' });
    await renderAt(`/login/reset?token=${TOKEN}`);
    expect(client.session.isLoggedIn()).toBe(true);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Set a new password');
    const password = screen.getByLabelText<HTMLInputElement>('New password');
    fireEvent.change(password, { target: { value: '  seven7  ' } });
    save();
    const short = await screen.findByText('The password needs at least 8 characters.');
    expect(password.getAttribute('aria-describedby')).toBe(short.id);
    expect(document.activeElement).toBe(password);
    fireEvent.change(password, { target: { value: 'a long secret' } });
    fireEvent.change(screen.getByLabelText('Repeat the new password'), {
      target: { value: 'a long secreT' },
    });
    save();
    expect(await screen.findByText('The two passwords are not the same.')).toBeDefined();
    expect(sent).toEqual([]);
    fireEvent.change(screen.getByLabelText('Repeat the new password'), {
      target: { value: 'a long secret' },
    });
    save();
    expect((await screen.findByRole('status')).textContent).toBe(
      'Your new password is set, and every session of your account was signed out.',
    );
    expect(
      screen.getByRole('link', { name: 'Log in with the new password' }).getAttribute('href'),
    ).toBe('/login');
    expect(sent).toEqual([{ token: TOKEN, password: 'a long secret' }]);
    // The server ended this browser's session too.
    expect(client.session.isLoggedIn()).toBe(false);
  });

  it('says a used or expired link is no longer valid, with a way to ask for a new one', async () => {
    const sent = stubApi('/api/v1/password-reset/confirm/', [() => refused(10304, 400)]);
    await renderAt(`/login/reset?token=${TOKEN}`);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a long secret' } });
    fireEvent.change(screen.getByLabelText('Repeat the new password'), {
      target: { value: 'a long secret' },
    });
    save();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This password reset link is no longer valid. Please ask for a new one.',
    );
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe(
      '/login?forgot',
    );
    expect(sent).toHaveLength(1);
  });

  it('says so at once for a link cut short, without asking for a password', async () => {
    const sent = stubApi('/api/v1/password-reset/confirm/', [ok]);
    await renderAt(`/login/reset?token=${TOKEN.slice(0, 30)}`);
    expect(screen.getByRole('alert').textContent).toBe(
      'This password reset link is no longer valid. Please ask for a new one.',
    );
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(sent).toEqual([]);
  });
});
