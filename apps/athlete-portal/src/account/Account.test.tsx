import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { client } from '../client.ts';
import { leave } from '../navigation.ts';
import { renderPortal, resetPortal, signIn } from '../testing.tsx';

/** The Account page: password change, sessions, the data export and deleting the account. */

let english: Awaited<ReturnType<typeof loadMessages>>;
let german: Awaited<ReturnType<typeof loadMessages>>;
let japanese: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
  german = await loadMessages('de');
  japanese = await loadMessages('ja');
});
afterEach(() => {
  resetPortal();
  vi.restoreAllMocks();
});

const json = (data: unknown, status = 200) =>
  new Response(JSON.stringify({ code: 0, msg: 'ok', data }), { status });
const failure = (code: number, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ code, msg: 'refused', detail: '' }), { status, headers });

const sessions = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    browser: 'Firefox on Linux',
    created_at: '2030-05-01T08:00:00Z',
    last_used_at: '2030-05-02T09:00:00Z',
    ip: '198.51.100.7',
    current: true,
  },
  {
    id: '22222222-2222-4222-8222-222222222222',
    browser: 'Safari on iOS',
    created_at: '2030-04-01T08:00:00Z',
    last_used_at: '2030-04-20T09:00:00Z',
    ip: null,
    current: false,
  },
  {
    id: '33333333-3333-4333-8333-333333333333',
    browser: 'Chrome on Windows',
    created_at: '2030-03-01T08:00:00Z',
    last_used_at: '2030-03-02T09:00:00Z',
    ip: '203.0.113.9',
    current: false,
  },
];

interface Sent {
  method: string;
  path: string;
  body: unknown;
  authorization: string | undefined;
}

/**
 * The API as the page calls it: each `method path` answered by the next of its replies (the
 * last one repeats), everything else an empty list. What was sent is recorded.
 */
function stubApi(replies: Record<string, (() => Response)[]>) {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    const path = new URL(url, 'http://portal.test').pathname;
    const method = init.method ?? 'GET';
    const headers = (init.headers ?? {}) as Record<string, string>;
    sent.push({
      method,
      path,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      authorization: headers.Authorization,
    });
    const queue = replies[`${method} ${path}`];
    const reply = queue ? (queue.length > 1 ? queue.shift()! : queue[0]!) : () => json([]);
    return Promise.resolve(reply());
  });
  return sent;
}

const calls = (sent: Sent[], method: string, path: string) =>
  sent.filter((call) => call.method === method && call.path === path);

async function openAccount() {
  client.session.setTokens({ access: 'the-access', refresh: 'r' });
  client.session.setUser({ name: 'Rider', avatar_url: null, uuid: 'u-5', id: '5' });
  renderPortal('/dashboard/settings/account', english);
  await screen.findByRole('heading', { level: 1, name: 'Account' });
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });

describe('changing the password', () => {
  const changePassword = () =>
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));

  it('names a missing, short or unrepeated password beside its field and sends nothing', async () => {
    const sent = stubApi({});
    await openAccount();
    type('New password', 'short');
    changePassword();
    const missing = await screen.findByText('Enter your current password.');
    const current = screen.getByLabelText<HTMLInputElement>('Current password');
    expect(current.getAttribute('aria-invalid')).toBe('true');
    expect(current.getAttribute('aria-describedby')).toBe(missing.id);
    expect(document.activeElement).toBe(current);
    expect(screen.getByText('The new password needs at least 8 characters.')).toBeDefined();
    // Spaces around the password do not count, as the API trims it.
    type('Current password', 'old secret');
    type('New password', '   seven7   ');
    changePassword();
    await screen.findByText('The new password needs at least 8 characters.');
    expect(screen.queryByText('Enter your current password.')).toBeNull();
    type('New password', 'a new secret');
    type('Repeat the new password', 'a new secret!');
    changePassword();
    expect(await screen.findByText('The two new passwords are not the same.')).toBeDefined();
    expect(calls(sent, 'POST', '/api/v2/athlete/password/')).toEqual([]);
  });

  it('says a wrong current password beside it, then that the change went through and others were signed out', async () => {
    const sent = stubApi({
      'POST /api/v2/athlete/password/': [() => failure(10303, 403), () => json({})],
    });
    await openAccount();
    type('Current password', 'not it');
    type('New password', 'a new secret');
    type('Repeat the new password', 'a new secret');
    changePassword();
    const wrong = await screen.findByText('The current password is wrong.');
    const current = screen.getByLabelText<HTMLInputElement>('Current password');
    expect(current.getAttribute('aria-describedby')).toBe(wrong.id);
    expect(screen.queryByRole('status')).toBeNull();
    type('Current password', 'the old secret');
    changePassword();
    expect((await screen.findByRole('status')).textContent).toBe(
      'Your password has been changed. Every other session was signed out; this browser stays signed in.',
    );
    expect(screen.queryByText('The current password is wrong.')).toBeNull();
    // The form is emptied: no password stays on screen.
    expect(current.value).toBe('');
    expect(calls(sent, 'POST', '/api/v2/athlete/password/').map((call) => call.body)).toEqual([
      { current_password: 'not it', new_password: 'a new secret' },
      { current_password: 'the old secret', new_password: 'a new secret' },
    ]);
  });

  it('says how long to wait after too many attempts', async () => {
    stubApi({
      'POST /api/v2/athlete/password/': [() => failure(10302, 429, { 'Retry-After': '600' })],
    });
    await openAccount();
    type('Current password', 'guess');
    type('New password', 'a new secret');
    type('Repeat the new password', 'a new secret');
    changePassword();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please try again in 10 minutes.',
    );
  });
});

describe('sessions', () => {
  it('lists each session with its times and address, marks this browser, and signs one out', async () => {
    const remaining = sessions.filter((session) => session.id !== sessions[1]!.id);
    const sent = stubApi({
      'GET /api/v2/athlete/sessions/': [() => json(sessions), () => json(remaining)],
      [`DELETE /api/v2/athlete/sessions/${sessions[1]!.id}/`]: [() => json({ signed_out: 1 })],
    });
    await openAccount();
    const mine = await screen.findByRole('listitem', { name: 'Firefox on Linux' });
    expect(mine.textContent).toContain('This browser');
    expect(mine.textContent).toContain('198.51.100.7');
    expect(mine.textContent).toContain('Signed in');
    expect(mine.textContent).toContain('Last used');
    // The rider's own session is signed out with Log Out, not from this list.
    expect(within(mine).queryByRole('button')).toBeNull();
    const phone = screen.getByRole('listitem', { name: 'Safari on iOS' });
    expect(phone.textContent).not.toContain('This browser');
    expect(phone.textContent).toContain('Unknown');
    fireEvent.click(within(phone).getByRole('button', { name: 'Sign out' }));
    expect((await screen.findByRole('status')).textContent).toBe('1 session signed out.');
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Safari on iOS' })).toBeNull(),
    );
    expect(calls(sent, 'DELETE', `/api/v2/athlete/sessions/${sessions[1]!.id}/`)).toHaveLength(1);
  });

  it('signs out all other sessions, then says this browser is the only one', async () => {
    const sent = stubApi({
      'GET /api/v2/athlete/sessions/': [() => json(sessions), () => json([sessions[0]])],
      'POST /api/v2/athlete/sessions/sign-out-others/': [() => json({ signed_out: 2 })],
    });
    await openAccount();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out all other sessions' }));
    expect((await screen.findByRole('status')).textContent).toBe('2 sessions signed out.');
    expect(await screen.findByText('You are signed in on this browser only.')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Sign out all other sessions' })).toBeNull();
    expect(calls(sent, 'POST', '/api/v2/athlete/sessions/sign-out-others/')).toHaveLength(1);
  });
});

describe('session names in the rider’s language', () => {
  const named = (browser: string, index: number) => ({
    ...sessions[1]!,
    id: `4444444${index}-4444-4444-8444-444444444444`,
    browser,
  });
  const list = [
    sessions[0]!,
    named('Browser on Linux', 1),
    named('Chrome on Android', 2),
    named('Android app on Android', 3),
    named('iOS app', 4),
    named('Unknown browser', 5),
    named('Command line', 6),
  ];
  const names = () =>
    [...document.querySelectorAll('.portal__sessions strong')].map((name) => name.textContent);

  it('speaks German: the words translated, browser and system names kept', async () => {
    stubApi({ 'GET /api/v2/athlete/sessions/': [() => json(list)] });
    signIn('5');
    renderPortal('/dashboard/settings/account', german, 'de');
    await screen.findByRole('listitem', { name: 'Browser auf Linux' });
    expect(names()).toEqual([
      'Firefox auf Linux',
      'Browser auf Linux',
      'Chrome auf Android',
      'Android-App auf Android',
      'iOS-App',
      'Unbekannter Browser',
      'Befehlszeile',
    ]);
  });

  it('speaks Japanese in its own word order', async () => {
    stubApi({ 'GET /api/v2/athlete/sessions/': [() => json(list)] });
    signIn('5');
    renderPortal('/dashboard/settings/account', japanese, 'ja');
    await screen.findByRole('listitem', { name: 'Linux の ブラウザ' });
    expect(names()[2]).toBe('Android の Chrome');
  });
});

describe('downloading the data', () => {
  it('fetches the export with the access token and hands the zip to the browser', async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04]);
    const sent = stubApi({
      'GET /api/v2/athlete/5/export/': [
        () => new Response(zip, { status: 200, headers: { 'Content-Type': 'application/zip' } }),
      ],
    });
    const saved: { name: string; blob: Blob }[] = [];
    let blob: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((made) => {
      blob = made as Blob;
      return 'blob:export';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ name: this.download, blob: blob! });
    });
    await openAccount();
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toMatch(/^xoss-export-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(new Uint8Array(await saved[0]!.blob.arrayBuffer())).toEqual(zip);
    expect(calls(sent, 'GET', '/api/v2/athlete/5/export/')).toMatchObject([
      { authorization: 'Bearer the-access' },
    ]);
  });
});

describe('deleting the account', () => {
  const deleteButton = () =>
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));

  it('asks for the password, then Confirm; Cancel sends nothing, a wrong password is said beside it', async () => {
    const sent = stubApi({ 'DELETE /api/v2/athlete/5/': [() => failure(10303, 403)] });
    const go = vi.spyOn(leave, 'to').mockImplementation(() => undefined);
    await openAccount();
    expect(
      screen.getByText(/removes at once and for good your rides and their files/),
    ).toBeDefined();
    deleteButton();
    const missing = await screen.findByText('Enter your password to delete your account.');
    const password = screen.getByLabelText<HTMLInputElement>('Password', { exact: true });
    expect(password.getAttribute('aria-describedby')).toBe(missing.id);
    expect(screen.queryByRole('dialog')).toBeNull();
    type('Password', 'not it');
    deleteButton();
    let dialog = await screen.findByRole('dialog');
    // The password is checked by the deletion itself: the dialog says what happens if it
    // is right.
    expect(dialog.textContent).toContain(
      'If the password is right, your account and all its data are deleted for good. This cannot be undone.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls(sent, 'DELETE', '/api/v2/athlete/5/')).toEqual([]);
    deleteButton();
    dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    const wrong = await screen.findByText('The password is wrong. Nothing was deleted.');
    expect(password.getAttribute('aria-describedby')).toBe(wrong.id);
    expect(calls(sent, 'DELETE', '/api/v2/athlete/5/').map((call) => call.body)).toEqual([
      { password: 'not it' },
    ]);
    expect(client.session.isLoggedIn()).toBe(true);
    expect(go).not.toHaveBeenCalled();
  });

  it('after Confirm and the server’s yes, forgets the session here and leaves for the login’s message', async () => {
    const sent = stubApi({ 'DELETE /api/v2/athlete/5/': [() => json({})] });
    const go = vi.spyOn(leave, 'to').mockImplementation(() => undefined);
    await openAccount();
    type('Password', 'the secret');
    deleteButton();
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('/login?account=deleted'));
    expect(client.session.isLoggedIn()).toBe(false);
    expect(calls(sent, 'DELETE', '/api/v2/athlete/5/')).toMatchObject([
      { body: { password: 'the secret' }, authorization: 'Bearer the-access' },
    ]);
  });
});

describe('finding the page', () => {
  it('is linked from Settings', async () => {
    stubApi({
      'GET /api/v2/athlete/5/': [
        () =>
          json({
            id: '5',
            uuid: 'u-5',
            username: 'Rider',
            email: 'rider@xoss.co',
            profile: { avatar_url: null },
            settings: {
              ftp: 250,
              max_hr: 185,
              distance_unit: 0,
              temperature_unit: 'c',
              privacy_trim_m: 300,
              share_heart_rate: true,
              share_power: true,
              weight_kg: 72,
              ftp_rule: 'hour',
            },
          }),
      ],
    });
    client.session.setTokens({ access: 'a', refresh: 'r' });
    client.session.setUser({ name: 'Rider', avatar_url: null, uuid: 'u-5', id: '5' });
    const router = renderPortal('/dashboard/settings', english);
    fireEvent.click(
      await screen.findByRole('link', {
        name: 'Account: password, sessions, your data, deleting the account',
      }),
    );
    await screen.findByRole('heading', { level: 1, name: 'Account' });
    expect(router.state.location.pathname).toBe('/dashboard/settings/account');
  });
});
