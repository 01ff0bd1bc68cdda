import { TAB_CHANNEL, createXossClient } from '@xoss/api-client';

/**
 * The site's API client; the session it stores is the portal's too (one origin), and a
 * sign-in without "Remember me" is shared with the browser's other tabs (`TAB_CHANNEL`).
 */
export const client = createXossClient({
  storage: localStorage,
  sessionStorage,
  ...(typeof BroadcastChannel === 'function' ? { tabs: new BroadcastChannel(TAB_CHANNEL) } : {}),
});
