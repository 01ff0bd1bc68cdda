import { describe, expect, it } from 'vitest';
import { SessionStore } from './session.ts';
import { SEVEN_DAYS_MS, createPrefixedStorage } from './storage.ts';
import { memoryBackend } from './testing/memoryBackend.ts';

describe('createPrefixedStorage', () => {
  it('prefixes keys and round-trips JSON values', () => {
    const backend = memoryBackend();
    const store = createPrefixedStorage(backend);
    store.set('userInfo', { name: 'Ada', id: '1' });
    expect([...backend.data.keys()]).toEqual(['xoss_userInfo']);
    expect(store.get('userInfo')).toEqual({ name: 'Ada', id: '1' });
  });

  it('forgets an entry seven days after it was written', () => {
    let clock = 1_000_000;
    const backend = memoryBackend();
    const store = createPrefixedStorage(backend, { now: () => clock });
    store.set('token', 'abc', SEVEN_DAYS_MS);
    clock += SEVEN_DAYS_MS - 1;
    expect(store.get('token')).toBe('abc');
    clock += 1;
    expect(store.get('token')).toBeUndefined();
    expect(backend.data.size).toBe(0);
  });

  it('reads corrupt or foreign entries as absent', () => {
    const backend = memoryBackend();
    const store = createPrefixedStorage(backend);
    backend.setItem('xoss_a', '{not json');
    backend.setItem('xoss_b', '"plain string"');
    backend.setItem('xoss_c', JSON.stringify({ v: 1, e: 'tomorrow' }));
    expect(store.get('a')).toBeUndefined();
    expect(store.get('b')).toBeUndefined();
    expect(store.get('c')).toBeUndefined();
  });
});

describe('SessionStore: where the tokens live', () => {
  const tokens = { access: 'a1', refresh: 'r1' };
  const stores = () => {
    const local = memoryBackend();
    const tab = memoryBackend();
    return { local, tab, store: new SessionStore({ local, session: tab }) };
  };

  it('keeps a remembered session 7 days and a not remembered one for this browser session', () => {
    const remembered = stores();
    remembered.store.setTokens(tokens, { remember: true });
    expect(remembered.local.data.has('xoss_refresh_token')).toBe(true);
    // A browser opened later (same local storage, a new tab's storage) is still signed in.
    expect(
      new SessionStore({ local: remembered.local, session: memoryBackend() }).tokens(),
    ).toEqual(tokens);

    const once = stores();
    once.store.setTokens(tokens, { remember: false });
    expect(once.local.data.size).toBe(0);
    expect(once.store.tokens()).toEqual(tokens);
    expect(once.store.remembered()).toBe(false);
    expect(new SessionStore({ local: once.local, session: memoryBackend() }).isLoggedIn()).toBe(
      false,
    );
    // A refresh keeps them where they are.
    once.store.setTokens({ access: 'a2', refresh: 'r2' });
    expect(once.local.data.size).toBe(0);
    expect(once.store.tokens()).toEqual({ access: 'a2', refresh: 'r2' });
    once.store.clear();
    expect(once.store.isLoggedIn()).toBe(false);
  });

  it('moves the tokens to the browser session and forgets the e-mail when cookies are declined', () => {
    const { local, store } = stores();
    store.setTokens(tokens, { remember: true });
    store.setRememberedEmail('rider@example.com');
    expect(store.rememberedEmail()).toBe('rider@example.com');
    store.setCookieConsent('declined');
    expect(local.data.has('xoss_refresh_token')).toBe(false);
    expect(store.tokens()).toEqual(tokens);
    expect(store.rememberedEmail()).toBeUndefined();
    // Declined, Remember me cannot keep anything beyond the session either.
    store.setTokens(tokens, { remember: true });
    store.setRememberedEmail('rider@example.com');
    expect(local.data.has('xoss_refresh_token')).toBe(false);
    expect(store.rememberedEmail()).toBeUndefined();
  });
});
