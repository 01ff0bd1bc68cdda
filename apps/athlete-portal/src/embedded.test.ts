import { createXossClient, selectPreferences } from '@xoss/api-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { embeddedSlice, parseHostMessage, selectEmbedded, sendToApp } from './embedded.ts';
import { HELLO_TIMEOUT_MS, savePanelsInApp, startEmbedded } from './embeddedRuntime.ts';

// What `window.postMessage(text, '*')` run by the app delivers in a browser (happy-dom's own
// postMessage does not set the event's source; the Chromium e2e covers the real one).
const fromApp = (message: Record<string, unknown>) =>
  window.dispatchEvent(
    new MessageEvent('message', {
      data: JSON.stringify({ source: 'xoss-app', ...message }),
      source: window,
    }),
  );

type Bridge = { XossAppBridge?: { postMessage(text: string): void } };

describe('parseHostMessage', () => {
  it('reads every message the app sends, as text or object', () => {
    expect(
      parseHostMessage(
        '{"source":"xoss-app","type":"hello","language":"de","distanceUnit":1,"temperatureUnit":"f","access":"a","refresh":"r"}',
      ),
    ).toEqual({
      type: 'hello',
      language: 'de',
      distanceUnit: 'mi',
      temperatureUnit: 'f',
      access: 'a',
      refresh: 'r',
    });
    expect(parseHostMessage({ source: 'xoss-app', type: 'units', distanceUnit: 0 })).toEqual({
      type: 'units',
      distanceUnit: 'km',
    });
    expect(
      parseHostMessage({ source: 'xoss-app', type: 'panels', serial: 'N1', panels: { pages: [] } }),
    ).toEqual({ type: 'panels', serial: 'N1', format: 'json', text: '{"pages":[]}' });
    expect(
      parseHostMessage({ source: 'xoss-app', type: 'panels', serial: 'N1', panels: '{}' }),
    ).toEqual({ type: 'panels', serial: 'N1', format: 'text', text: '{}' });
    expect(parseHostMessage({ source: 'xoss-app', type: 'switch-data', serial: 'G7' })).toEqual({
      type: 'switch-data',
      serial: 'G7',
    });
    expect(
      parseHostMessage({ source: 'xoss-app', type: 'panels-saved', serial: 'G7', ok: false }),
    ).toEqual({ type: 'panels-saved', serial: 'G7', ok: false });
  });

  it('ignores anything malformed or not from the app, without throwing', () => {
    for (const bad of [
      'not json',
      '{"type":"language","language":"de"}',
      { source: 'other', type: 'language', language: 'de' },
      { source: 'xoss-app', type: 'language' },
      { source: 'xoss-app', type: 'units', distanceUnit: 'furlongs' },
      { source: 'xoss-app', type: 'panels', panels: '{}' },
      { source: 'xoss-app', type: 'panels', serial: 'N1', panels: 'x'.repeat(300_000) },
      { source: 'xoss-app', type: 'panels-saved', serial: 'N1' },
      { source: 'xoss-app', type: 'format-disk' },
      null,
      42,
    ])
      expect(parseHostMessage(bad)).toBeUndefined();
    // Tokens only come as a pair.
    expect(parseHostMessage({ source: 'xoss-app', type: 'hello', access: 'a' })).toEqual({
      type: 'hello',
    });
  });
});

describe('the bridge in a web view', () => {
  let sent: Record<string, unknown>[];
  beforeEach(() => {
    sent = [];
    (window as unknown as Bridge).XossAppBridge = {
      postMessage: (text) => sent.push(JSON.parse(text) as Record<string, unknown>),
    };
  });
  afterEach(() => {
    delete (window as unknown as Bridge).XossAppBridge;
    sessionStorage.clear();
    localStorage.clear();
    window.history.replaceState({}, '', '/');
    vi.useRealTimers();
  });

  const newClient = () =>
    createXossClient({
      storage: localStorage,
      sessionStorage,
      reducers: { embedded: embeddedSlice.reducer },
    });
  const embeddedOf = (client: ReturnType<typeof newClient>) =>
    selectEmbedded(client.store.getState() as never);

  it('sends through the object the app injected, and reports when there is none', () => {
    expect(sendToApp(window, { type: 'request-panels', serial: 'N1' })).toBe(true);
    expect(sent).toEqual([{ source: 'xoss-portal', type: 'request-panels', serial: 'N1' }]);
    delete (window as unknown as Bridge).XossAppBridge;
    expect(sendToApp(window, { type: 'request-panels', serial: 'N1' })).toBe(false);
  });

  it('stays a normal site page without the in-app flag', async () => {
    const client = newClient();
    expect(await startEmbedded({ window, client, navigate: () => undefined })).toBe(false);
    expect(sent).toEqual([]);
    expect(embeddedOf(client).active).toBe(false);
  });

  it("says ready, takes the app's hello, then follows language, units, panels and device switches", async () => {
    window.history.replaceState({}, '', '/dashboard/main?inXossApp=1');
    const client = newClient();
    const navigate = vi.fn();
    const started = startEmbedded({ window, client, navigate });
    expect(sent).toEqual([{ source: 'xoss-portal', type: 'ready', version: 1 }]);
    fromApp({ type: 'hello', language: 'ja', distanceUnit: 1, access: 'A', refresh: 'R' });
    expect(await started).toBe(true);
    expect(client.session.tokens()).toEqual({ access: 'A', refresh: 'R' });
    expect(client.store.getState().session.loggedIn).toBe(true);
    expect(selectPreferences(client.store.getState())).toMatchObject({
      language: 'ja',
      distanceUnit: 'mi',
    });
    expect(embeddedOf(client).active).toBe(true);

    fromApp({ type: 'language', language: 'xx-unknown' });
    await vi.waitFor(() =>
      expect(client.session.flag('trigger_change_language')).toBe('xx-unknown'),
    );
    // Spec 4: validated against the supported languages, else English.
    expect(selectPreferences(client.store.getState()).language).toBe('en-US');

    fromApp({ type: 'units', temperatureUnit: 'f', distanceUnit: 0 });
    await vi.waitFor(() =>
      expect(selectPreferences(client.store.getState())).toMatchObject({
        distanceUnit: 'km',
        temperatureUnit: 'f',
      }),
    );
    expect(client.session.distanceUnit()).toBe('km');

    fromApp({ type: 'panels', serial: 'N1', panels: { version: '2.0.0', pages: [] } });
    await vi.waitFor(() => expect(embeddedOf(client).panels?.serial).toBe('N1'));
    expect(embeddedOf(client).format).toBe('json');
    expect(client.session.flag('bridge_format')).toBe('json');
    expect(client.session.flag('bridge_panels')).toEqual({
      serial: 'N1',
      text: '{"version":"2.0.0","pages":[]}',
    });

    fromApp({ type: 'switch-data', serial: 'G 7' });
    await vi.waitFor(() =>
      expect(navigate).toHaveBeenCalledWith('/dashboard/device/list/manager?serial=G%207'),
    );
    expect(client.session.flag('switch_data')).toBe('G 7');

    // Messages from another frame are not the app's.
    window.dispatchEvent(
      new MessageEvent('message', {
        data: JSON.stringify({ source: 'xoss-app', type: 'language', language: 'de' }),
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.session.flag('trigger_change_language')).toBe('xx-unknown');
  });

  it('stays embedded after a reload of the tab, with the bridge flags restored', async () => {
    window.history.replaceState({}, '', '/?inXossApp=1');
    const first = newClient();
    const started = startEmbedded({ window, client: first, navigate: () => undefined });
    fromApp({ type: 'hello' });
    await started;
    fromApp({ type: 'panels', serial: 'N1', panels: '{"pages":[]}' });
    await vi.waitFor(() => expect(first.session.flag('bridge_panels')).toBeDefined());

    window.history.replaceState({}, '', '/dashboard/device/list');
    const second = newClient();
    const again = startEmbedded({ window, client: second, navigate: () => undefined });
    fromApp({ type: 'hello' });
    expect(await again).toBe(true);
    expect(embeddedOf(second)).toMatchObject({
      active: true,
      format: 'text',
      panels: { serial: 'N1', text: '{"pages":[]}' },
    });
  });

  it("keeps the pair the tab rotated since the app's hello, and takes another session's", async () => {
    const token = (claims: object) =>
      `h.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.s`;
    const appsPair = { access: 'A0', refresh: token({ fam: 'f1', iat: 100, jti: 'r0' }) };
    window.history.replaceState({}, '', '/?inXossApp=1');
    const first = newClient();
    const started = startEmbedded({ window, client: first, navigate: () => undefined });
    fromApp({ type: 'hello', ...appsPair });
    await started;
    expect(first.session.tokens()).toEqual(appsPair);
    // The portal refreshed: a later pair of the same session.
    const rotated = { access: 'A1', refresh: token({ fam: 'f1', iat: 104, jti: 'r1' }) };
    first.session.setTokens(rotated);

    // The web view reloads; the app sends its first hello again.
    const second = newClient();
    const again = startEmbedded({ window, client: second, navigate: () => undefined });
    fromApp({ type: 'hello', ...appsPair });
    await again;
    expect(second.session.tokens()).toEqual(rotated);

    // The app signed in again (another session): its pair replaces the tab's.
    const other = { access: 'B0', refresh: token({ fam: 'f2', iat: 90, jti: 'r2' }) };
    fromApp({ type: 'hello', ...other });
    await vi.waitFor(() => expect(second.session.tokens()).toEqual(other));
  });

  it('goes on without the hello when the app is silent', async () => {
    vi.useFakeTimers();
    window.history.replaceState({}, '', '/?inXossApp=1');
    const client = newClient();
    const started = startEmbedded({ window, client, navigate: () => undefined });
    await vi.advanceTimersByTimeAsync(HELLO_TIMEOUT_MS);
    expect(await started).toBe(true);
    expect(client.session.isLoggedIn()).toBe(false);
  });

  it('saves pages through the app in its format and waits for its answer', async () => {
    const saving = savePanelsInApp(window, 'N1', { pages: [] }, 'text');
    expect(sent).toEqual([
      { source: 'xoss-portal', type: 'save-panels', serial: 'N1', panels: '{"pages":[]}' },
    ]);
    // An answer about another device is not this one's.
    fromApp({ type: 'panels-saved', serial: 'G7', ok: true });
    fromApp({ type: 'panels-saved', serial: 'N1', ok: true });
    expect(await saving).toBe(true);

    const refused = savePanelsInApp(window, 'N1', { pages: [] }, 'json');
    expect(sent[1]).toMatchObject({ panels: { pages: [] } });
    fromApp({ type: 'panels-saved', serial: 'N1', ok: false });
    expect(await refused).toBe(false);

    delete (window as unknown as Bridge).XossAppBridge;
    expect(await savePanelsInApp(window, 'N1', { pages: [] }, 'json')).toBe(false);
  });
});
