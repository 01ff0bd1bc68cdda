import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionStore, TAB_CHANNEL, storageKeys, type Tokens } from './session.ts';
import { memoryBackend } from './testing/memoryBackend.ts';

/** A token-shaped string whose claims name its sign-in (`fam`), as the API's do. */
const token = (family: string, n: number) =>
  `h.${Buffer.from(JSON.stringify({ sub: '7', fam: family, n })).toString('base64url')}.s`;
const pair = (family: string, n: number): Tokens => ({
  access: token(family, n),
  refresh: `refresh-${family}-${n}`,
});

/** One browser: its localStorage shared by its tabs, each tab its own session storage. */
function browser(local = memoryBackend()) {
  const name = `${TAB_CHANNEL}-${randomUUID()}`;
  const channels: BroadcastChannel[] = [];
  const tab = () => {
    const channel = new BroadcastChannel(name);
    channels.push(channel);
    const session = memoryBackend();
    return {
      store: new SessionStore({ local, session, tabs: channel }),
      session,
    };
  };
  return { local, tab, close: () => channels.forEach((channel) => channel.close()) };
}

const open: (() => void)[] = [];
const newBrowser = (local?: ReturnType<typeof memoryBackend>) => {
  const made = browser(local);
  open.push(made.close);
  return made;
};
afterEach(() => {
  for (const close of open.splice(0)) close();
});

/** Long enough never to be reached when a tab answers: the answer ends the wait. */
const ANSWERED_WAIT_MS = 300_000;

describe('a sign-in without "Remember me" is the browser\'s, not the tab\'s', () => {
  it('opens a new tab signed in, keeping its copy in that tab only', async () => {
    const { local, tab } = newBrowser();
    const first = tab();
    first.store.setTokens(pair('a', 1), { remember: false });
    const second = tab();
    expect(second.store.tokens()).toBeUndefined();
    await expect(second.store.joinTabs(ANSWERED_WAIT_MS)).resolves.toBe(true);
    expect(second.store.tokens()).toEqual(pair('a', 1));
    expect(second.store.remembered()).toBe(false);
    // Nothing of it on disk: the tokens are in each tab's session storage, gone with the
    // browser; local storage holds only the mark that a tab has them.
    expect([...local.data.keys()]).toEqual([`xoss_${storageKeys.tabSession}`]);
    expect([...second.session.data.keys()].sort()).toEqual(['xoss_refresh_token', 'xoss_token']);
  });

  it('hands a refreshed pair to the tabs of the same sign-in (the old refresh token is used up)', async () => {
    const { tab } = newBrowser();
    const first = tab();
    first.store.setTokens(pair('a', 1), { remember: false });
    const second = tab();
    await second.store.joinTabs(ANSWERED_WAIT_MS);
    // Another rider signed in (also for the session) in a third tab, and a fourth signed out.
    const other = tab();
    other.store.setTokens(pair('b', 1), { remember: false });
    const signedOut = tab();
    await vi.waitFor(() => expect(second.store.tokens()).toEqual(pair('a', 1)));
    first.store.setTokens(pair('a', 2));
    await vi.waitFor(() => expect(second.store.tokens()).toEqual(pair('a', 2)));
    // Told in the same turn as the second tab: neither the other rider's tab nor the signed
    // out one took it.
    expect(other.store.tokens()).toEqual(pair('b', 1));
    expect(signedOut.store.tokens()).toBeUndefined();
  });

  it('signs out every tab of that sign-in, and only those', async () => {
    const { tab } = newBrowser();
    const first = tab();
    first.store.setTokens(pair('a', 1), { remember: false });
    const second = tab();
    await second.store.joinTabs(ANSWERED_WAIT_MS);
    const other = tab();
    other.store.setTokens(pair('b', 1), { remember: false });
    await vi.waitFor(() => expect(second.store.tokens()).toEqual(pair('a', 1)));
    first.store.clear();
    await vi.waitFor(() => expect(second.store.tokens()).toBeUndefined());
    expect(other.store.tokens()).toEqual(pair('b', 1));
  });

  it('starts signed out once the browser was closed: no tab answers, and the mark goes', async () => {
    const before = newBrowser();
    before.tab().store.setTokens(pair('a', 1), { remember: false });
    // The browser closed (its tabs and their session storage gone); its mark outlived it.
    before.close();
    const { local } = before;
    expect(local.data.has(`xoss_${storageKeys.tabSession}`)).toBe(true);
    const fresh = newBrowser(local).tab();
    await expect(fresh.store.joinTabs(1)).resolves.toBe(false);
    expect(fresh.store.tokens()).toBeUndefined();
    expect(local.data.has(`xoss_${storageKeys.tabSession}`)).toBe(false);
  });

  it('asks nobody when no tab holds a browser-session sign-in (a remembered one is read as it is)', async () => {
    const { tab } = newBrowser();
    const first = tab();
    first.store.setTokens(pair('a', 1), { remember: true });
    const second = tab();
    await expect(second.store.joinTabs(ANSWERED_WAIT_MS)).resolves.toBe(true);
    expect(second.store.tokens()).toEqual(pair('a', 1));
    // A browser where nobody signed in: answered at once, without the wait (which would
    // outlast the test's own guard).
    const third = newBrowser().tab();
    await expect(third.store.joinTabs(ANSWERED_WAIT_MS)).resolves.toBe(false);
  });
});
