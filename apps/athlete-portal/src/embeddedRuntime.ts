import { sessionSlice, tokenClaims, type XossClient } from '@xoss/api-client';
import {
  BRIDGE_VERSION,
  IN_APP_PARAM,
  embeddedSlice,
  listenToApp,
  nextFromApp,
  sendToApp,
  type BridgeFormat,
  type HostMessage,
} from './embedded.ts';

/** How long the portal waits for the app's `hello` before going on without it. */
export const HELLO_TIMEOUT_MS = 1500;
const IN_APP_KEY = 'xoss_in_app';

/** A token's `fam` (its session) and `iat` claims, read without verifying; else undefined. */
function sessionClaims(token: string): { fam: string; iat: number } | undefined {
  const claims = tokenClaims(token);
  return typeof claims?.fam === 'string' && typeof claims.iat === 'number'
    ? { fam: claims.fam, iat: claims.iat }
    : undefined;
}

/**
 * Whether the tab already holds a later pair of the session the app hands over: the portal
 * rotated the app's refresh token since the app's first hello (a reload of the web view sends
 * the same hello again). Taking the app's older pair then would present a rotated token, a
 * reuse, and sign the rider out everywhere.
 */
function holdsLaterPair(held: string | undefined, offered: string): boolean {
  if (held === undefined) return false;
  const [mine, theirs] = [sessionClaims(held), sessionClaims(offered)];
  return (
    mine !== undefined && theirs !== undefined && mine.fam === theirs.fam && mine.iat >= theirs.iat
  );
}

export interface EmbeddedRuntimeOptions {
  readonly window: Window;
  readonly client: XossClient;
  readonly navigate: (path: string) => void;
}

/**
 * Enters embedded mode when the app opened the portal (`?inXossApp=1`, remembered for the
 * tab so reloads stay embedded): restores the bridge flags, applies what the app sends from
 * now on, says `ready` and waits briefly for the app's `hello` (language, units, tokens).
 * Resolves to whether the portal is embedded; the router starts after it.
 */
export async function startEmbedded({
  window: target,
  client,
  navigate,
}: EmbeddedRuntimeOptions): Promise<boolean> {
  const requested = new URL(target.location.href).searchParams.get(IN_APP_PARAM) === '1';
  if (requested) target.sessionStorage.setItem(IN_APP_KEY, '1');
  if (target.sessionStorage.getItem(IN_APP_KEY) !== '1') return false;

  const { session, store } = client;
  const stored = session.flag<{ serial?: unknown; text?: unknown }>('bridge_panels');
  const format = session.flag<BridgeFormat>('bridge_format') === 'json' ? 'json' : 'text';
  const switchData = session.flag<unknown>('switch_data');
  store.dispatch(
    embeddedSlice.actions.entered({
      format,
      switchData: typeof switchData === 'string' ? switchData : null,
      panels:
        typeof stored?.serial === 'string' && typeof stored.text === 'string'
          ? { serial: stored.serial, text: stored.text, seq: 1 }
          : null,
    }),
  );

  const apply = (message: HostMessage) => {
    switch (message.type) {
      case 'hello':
        if (
          message.access &&
          message.refresh &&
          !holdsLaterPair(session.tokens()?.refresh, message.refresh)
        ) {
          session.setTokens({ access: message.access, refresh: message.refresh });
          store.dispatch(sessionSlice.actions.loggedIn(session.user() ?? null));
        }
        if (message.language) apply({ type: 'language', language: message.language });
        apply({
          type: 'units',
          ...(message.distanceUnit ? { distanceUnit: message.distanceUnit } : {}),
          ...(message.temperatureUnit ? { temperatureUnit: message.temperatureUnit } : {}),
        });
        break;
      case 'language':
        session.setFlag('trigger_change_language', message.language);
        client.setLanguage(message.language);
        break;
      case 'units':
        client.setUnits({
          ...(message.distanceUnit ? { distanceUnit: message.distanceUnit } : {}),
          ...(message.temperatureUnit ? { temperatureUnit: message.temperatureUnit } : {}),
        });
        break;
      case 'panels':
        session.setFlag('bridge_format', message.format);
        session.setFlag('bridge_panels', { serial: message.serial, text: message.text });
        store.dispatch(embeddedSlice.actions.panelsReceived(message));
        break;
      case 'switch-data':
        session.setFlag('switch_data', message.serial);
        store.dispatch(embeddedSlice.actions.switched(message.serial));
        navigate(`/dashboard/device/list/manager?serial=${encodeURIComponent(message.serial)}`);
        break;
      case 'panels-saved':
        // Read by the layout manager while it waits for the app (see `savePanelsInApp`).
        break;
    }
  };

  const hello = nextFromApp(
    target,
    (message) => (message.type === 'hello' ? message : undefined),
    HELLO_TIMEOUT_MS,
  );
  listenToApp(target, (message) => {
    if (message.type !== 'hello') apply(message);
  });
  if (!sendToApp(target, { type: 'ready', version: BRIDGE_VERSION })) return true;
  const greeting = await hello;
  if (greeting) apply(greeting);
  // Later greetings (the app re-sent its state) apply too.
  listenToApp(target, (message) => {
    if (message.type === 'hello') apply(message);
  });
  return true;
}

/** How long the layout manager waits for the app to confirm it wrote the device's pages. */
const SAVE_TIMEOUT_MS = 10_000;

/**
 * Sends a device's pages to the app in the format the app uses, and waits for the app to
 * say it wrote them: true when it did, false when it refused or did not answer.
 */
export async function savePanelsInApp(
  target: Window,
  serial: string,
  panels: Record<string, unknown>,
  format: BridgeFormat,
): Promise<boolean> {
  const answer = nextFromApp(
    target,
    (message) =>
      message.type === 'panels-saved' && message.serial === serial ? message.ok : undefined,
    SAVE_TIMEOUT_MS,
  );
  const sent = sendToApp(target, {
    type: 'save-panels',
    serial,
    panels: format === 'json' ? panels : JSON.stringify(panels),
  });
  if (!sent) return false;
  return (await answer) === true;
}
