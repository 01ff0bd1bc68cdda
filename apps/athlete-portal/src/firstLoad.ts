/**
 * What the portal's entry starts before the application has loaded: the rider's messages,
 * and on a ride page that page's chunk and calls, beside React, the router and the store
 * (`preloadApp` in vite.config.ts lists those in the page) instead of after them. Kept to
 * the session's storage, the request builder and the ride pages' plan: on a phone over
 * mobile data the ride's streams then start about 0.6 s earlier (bench/mobile.ts in
 * apps/api). The application's transport takes the replies (`earlyCalls`).
 */
import { SessionStore, TAB_CHANNEL } from '@xoss/api-client';
import { loadMessages } from '@xoss/i18n';
import { earlyCalls, firstVisitLanguage } from './earlyCalls.ts';
import { loadRideMap } from './rides/loadRideMap.ts';
import { loadRidePage, ridePagePlan } from './rides/ridePages.ts';

/**
 * Starts the first page's messages, and a ride page's chunk and calls. A new tab of a browser
 * where the rider signed in without "Remember me" first takes that sign-in from another tab
 * (`SessionStore.joinTabs`, a quarter of a second at most, and only when a tab holds one).
 */
export async function startFirstPage(url: URL): Promise<void> {
  const tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel(TAB_CHANNEL) : null;
  const session = new SessionStore({
    local: localStorage,
    session: sessionStorage,
    ...(tabs ? { tabs } : {}),
  });
  void loadMessages(
    firstVisitLanguage(localStorage, navigator.languages) ?? session.language(),
    'portal',
  );
  try {
    await session.joinTabs();
  } finally {
    tabs?.close();
  }
  const access = session.tokens()?.access;
  const plan = ridePagePlan(url, access !== undefined);
  if (!plan) return;
  // The map's chunk (OpenLayers, 58 kB) once the page's own chunks are in: started with
  // them, it would share the line with the application's chunks the page waits for.
  const page = loadRidePage(plan.page);
  if (plan.mapAfter) void page.then(loadRideMap, () => undefined);
  for (const call of plan.calls) void earlyCalls.start(call.name, call.arg, access);
}
