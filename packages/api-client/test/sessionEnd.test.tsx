// @vitest-environment happy-dom
// @vitest-environment-options { "settings": { "fetch": { "disableSameOriginPolicy": true } } }
import { act, cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createXossClient, type XossClient } from '../src/index.ts';
import { memoryStorage, startAuthServer, type AuthServer } from './authServer.ts';

// The end of a session as a page on screen meets it: its queries stay subscribed while the
// expiry notice is up, and the cache is reset under them. Found by a rider's walkthrough:
// the settings page's list refetched 56 times in the notice's second.

let server: AuthServer;
beforeEach(async () => {
  server = await startAuthServer();
});
afterEach(async () => {
  cleanup();
  await server.close();
});

function signedInClient() {
  const navigate = vi.fn<(path: string, options: { replace: boolean }) => void>();
  const notify = vi.fn<(message: string, durationMs: number) => void>();
  const onSessionExpired = vi.fn<() => void>();
  const c = createXossClient({
    baseUrl: server.url,
    storage: memoryStorage(),
    sessionStorage: memoryStorage(),
    navigate,
    notify,
    onSessionExpired,
    refreshBackoffMs: [10],
  });
  c.session.setTokens(server.issue());
  // The access token has expired on the server.
  server.liveAccess.clear();
  return { c, navigate, notify, onSessionExpired };
}

/** Two mounted queries, as a page shows them; every status they render is recorded. */
function Page({ c, seen }: { c: XossClient; seen: string[] }) {
  const devices = c.api.useListDevicesQuery({});
  const ride = c.api.useGetWorkoutQuery({ params: { id: 1 } });
  const text = (query: { status: string; error?: unknown }) =>
    `${query.status}:${JSON.stringify((query.error as { status?: unknown } | undefined)?.status ?? '-')}`;
  const now = `devices ${text(devices)} ride ${text(ride)}`;
  if (seen.at(-1) !== now) seen.push(now);
  return <p>{now}</p>;
}

const failed = 'devices rejected:401 ride rejected:401';

/** A request sent now is answered after every request sent before it has been counted. */
const roundTrip = () => fetch(`${server.url}/probe`).then((reply) => reply.text());

describe('session end under a mounted page', () => {
  it('sends one refresh, no request after it fails, and never refetches in a loop', async () => {
    server.refreshPlan = ['refuse'];
    const { c, navigate, notify, onSessionExpired } = signedInClient();
    const seen: string[] = [];
    render(
      <Provider store={c.store}>
        <Page c={c} seen={seen} />
      </Provider>,
    );
    // The session ends: the refresh is refused, the rider is sent to /login once.
    await vi.waitFor(() => expect(navigate).toHaveBeenCalled());
    // The cache reset after the end makes the mounted hooks subscribe again (they leave the
    // failed state and come back to it); those calls have no token and are answered here,
    // without a request.
    await vi.waitFor(() => {
      const firstFailure = seen.indexOf(failed);
      expect(firstFailure).toBeGreaterThanOrEqual(0);
      expect(seen.slice(firstFailure + 1)).toContain(failed);
      expect(screen.getByText(/^devices/).textContent).toBe(failed);
    });
    await act(roundTrip);
    await act(roundTrip);
    expect(server.count('POST /api/v1/jwt-token/refresh/')).toBe(1);
    // Each kind of request once: the one with the expired token, none after the refusal.
    expect(server.count('GET /api/v2/devices/')).toBe(1);
    expect(server.count('GET /api/v2/workouts/1/')).toBe(1);
    expect(navigate.mock.calls).toEqual([['/login', { replace: true }]]);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    // The server's message of the refused refresh, once, for a second (spec 8).
    expect(notify.mock.calls).toEqual([['Token is expired', 1000]]);
  });
});
