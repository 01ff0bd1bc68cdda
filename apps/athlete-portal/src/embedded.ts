import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { distanceUnitOf, type DistanceUnit, type TemperatureUnit } from '@xoss/data-fields';

/**
 * Embedded mode (spec 3's in-app flag and bridge flags): the company's mobile app opens the
 * portal in a web view with `?inXossApp=1`. The portal then hides the site's chrome, takes
 * language and units from the app, and exchanges a device's `panels.json` with the app,
 * which talks to the device over Bluetooth.
 *
 * The bridge carries JSON text. Portal -> app through the object the app injects before the
 * page loads: `window.XossAppBridge.postMessage(text)` (Android) or
 * `window.webkit.messageHandlers.xossApp.postMessage(text)` (iOS). App -> portal by running
 * `window.postMessage(text, '*')` in the page; only messages posted by the page's own window
 * are read, so no other frame can speak for the app.
 */

/** Bumped when a message changes shape; sent in `ready`. */
export const BRIDGE_VERSION = 1;

/** How the app sends `panels.json`: as text, or as a JSON object (spec 3's bridge format). */
export type BridgeFormat = 'text' | 'json';

export type HostMessage =
  | {
      readonly type: 'hello';
      readonly language?: string;
      readonly distanceUnit?: DistanceUnit;
      readonly temperatureUnit?: TemperatureUnit;
      readonly access?: string;
      readonly refresh?: string;
    }
  | { readonly type: 'language'; readonly language: string }
  | {
      readonly type: 'units';
      readonly distanceUnit?: DistanceUnit;
      readonly temperatureUnit?: TemperatureUnit;
    }
  | {
      readonly type: 'panels';
      readonly serial: string;
      readonly format: BridgeFormat;
      /** The `panels.json` text as the app sent it (objects are stringified). */
      readonly text: string;
    }
  | { readonly type: 'switch-data'; readonly serial: string }
  | { readonly type: 'panels-saved'; readonly serial: string; readonly ok: boolean };

export type PortalMessage =
  | { readonly type: 'ready'; readonly version: number }
  | { readonly type: 'request-panels'; readonly serial: string }
  | { readonly type: 'save-panels'; readonly serial: string; readonly panels: unknown };

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null);
const maxPanelsChars = 256 * 1024;

/** The distance unit an app sends: the setting (0 or 1) or the unit's name; else none. */
const distanceOf = (value: unknown): DistanceUnit | undefined =>
  value === 0 || value === 1 || value === 'km' || value === 'mi'
    ? distanceUnitOf(value)
    : undefined;
const temperatureOf = (value: unknown): TemperatureUnit | undefined =>
  value === 'c' || value === 'f' ? value : undefined;

/**
 * Reads one message from the app; anything malformed is `undefined` (ignored, never thrown),
 * so a buggy or hostile sender cannot break the page.
 */
export function parseHostMessage(data: unknown): HostMessage | undefined {
  let value = data;
  if (typeof value === 'string') {
    if (value.length > maxPanelsChars * 2) return undefined;
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  if (message.source !== 'xoss-app') return undefined;
  const distanceUnit = distanceOf(message.distanceUnit);
  const temperatureUnit = temperatureOf(message.temperatureUnit);
  const units = {
    ...(distanceUnit ? { distanceUnit } : {}),
    ...(temperatureUnit ? { temperatureUnit } : {}),
  };
  switch (message.type) {
    case 'hello': {
      const access = text(message.access);
      const refresh = text(message.refresh);
      const language = text(message.language);
      return {
        type: 'hello',
        ...units,
        ...(language ? { language } : {}),
        ...(access && refresh ? { access, refresh } : {}),
      };
    }
    case 'language': {
      const language = text(message.language);
      return language ? { type: 'language', language } : undefined;
    }
    case 'units':
      return Object.keys(units).length > 0 ? { type: 'units', ...units } : undefined;
    case 'panels': {
      const serial = text(message.serial);
      if (!serial) return undefined;
      if (typeof message.panels === 'string')
        return message.panels.length <= maxPanelsChars
          ? { type: 'panels', serial, format: 'text', text: message.panels }
          : undefined;
      if (typeof message.panels !== 'object' || message.panels === null) return undefined;
      const json = JSON.stringify(message.panels);
      return json.length <= maxPanelsChars
        ? { type: 'panels', serial, format: 'json', text: json }
        : undefined;
    }
    case 'switch-data': {
      const serial = text(message.serial);
      return serial ? { type: 'switch-data', serial } : undefined;
    }
    case 'panels-saved': {
      const serial = text(message.serial);
      return serial && typeof message.ok === 'boolean'
        ? { type: 'panels-saved', serial, ok: message.ok }
        : undefined;
    }
    default:
      return undefined;
  }
}

/** What the portal sends, in the app's format: `panels.json` as text or as an object. */
function encodePortalMessage(message: PortalMessage): string {
  return JSON.stringify({ source: 'xoss-portal', ...message });
}

/** The embedded state the pages render from (spec 3's app state and bridge flags). */
export interface EmbeddedState {
  /** Spec 3's in-app flag. */
  readonly active: boolean;
  readonly format: BridgeFormat;
  /** The last `panels.json` the app sent, by device serial (bridge panels). */
  readonly panels: { readonly serial: string; readonly text: string; readonly seq: number } | null;
  /** The device the app switched to (switch-data). */
  readonly switchData: string | null;
}

const initialEmbedded: EmbeddedState = {
  active: false,
  format: 'text',
  panels: null,
  switchData: null,
};

export const embeddedSlice = createSlice({
  name: 'embedded',
  initialState: initialEmbedded,
  reducers: {
    entered: (state, action: PayloadAction<Partial<EmbeddedState>>) => ({
      ...state,
      ...action.payload,
      active: true,
    }),
    panelsReceived: (
      state,
      action: PayloadAction<{ serial: string; text: string; format: BridgeFormat }>,
    ) => ({
      ...state,
      format: action.payload.format,
      panels: {
        serial: action.payload.serial,
        text: action.payload.text,
        seq: (state.panels?.seq ?? 0) + 1,
      },
    }),
    switched: (state, action: PayloadAction<string>) => ({ ...state, switchData: action.payload }),
  },
});

export const selectEmbedded = (state: { embedded: EmbeddedState }) => state.embedded;

/** The query flag the app opens the portal with. */
export const IN_APP_PARAM = 'inXossApp';

/** The app's side of the bridge, as injected into the web view. */
interface HostWindow {
  XossAppBridge?: { postMessage(text: string): void };
  webkit?: { messageHandlers?: { xossApp?: { postMessage(text: string): void } } };
}

/** Sends to the app through whichever object it injected; false when there is none. */
export function sendToApp(target: Window, message: PortalMessage): boolean {
  const host = target as unknown as HostWindow;
  const text = encodePortalMessage(message);
  if (host.XossAppBridge) host.XossAppBridge.postMessage(text);
  else if (host.webkit?.messageHandlers?.xossApp)
    host.webkit.messageHandlers.xossApp.postMessage(text);
  else return false;
  return true;
}

/** Calls `listener` with each well-formed message the app posts into this window. */
export function listenToApp(target: Window, listener: (message: HostMessage) => void) {
  const onMessage = (event: MessageEvent) => {
    if (event.source !== target) return;
    const message = parseHostMessage(event.data);
    if (message) listener(message);
  };
  target.addEventListener('message', onMessage);
  return () => target.removeEventListener('message', onMessage);
}

/** Waits for the first message `accept` takes, or `null` after `timeoutMs`. */
export function nextFromApp<T>(
  target: Window,
  accept: (message: HostMessage) => T | undefined,
  timeoutMs: number,
): Promise<T | null> {
  return new Promise((resolve) => {
    const stop = listenToApp(target, (message) => {
      const value = accept(message);
      if (value === undefined) return;
      clearTimeout(timer);
      stop();
      resolve(value);
    });
    const timer = setTimeout(() => {
      stop();
      resolve(null);
    }, timeoutMs);
  });
}
