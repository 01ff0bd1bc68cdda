import { cleanup, screen } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { client } from './client.ts';
import { renderPortal } from './testing.tsx';
import { isSharedRideLink } from './rides/rideQueries.ts';
import { leave } from './navigation.ts';

let english: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
  // Unit tests of the routing only: pages that load data see an offline network at once
  // (the real API is exercised end to end in apps/athlete-portal/test/e2e.test.ts).
  vi.stubGlobal('fetch', () => Promise.reject(new TypeError('offline in unit tests')));
});
afterAll(() => {
  vi.unstubAllGlobals();
});
afterEach(() => {
  cleanup();
  client.session.clear();
  localStorage.clear();
});

function renderAt(path: string) {
  return renderPortal(path, english);
}

describe('athlete-portal routes', () => {
  it('lets anyone open a ride through its share link, and nothing else', () => {
    const at = (path: string) => isSharedRideLink(new URL(path, 'http://x'));
    expect(at('/dashboard/workouts/share/12?share=Abc_def-1234567890')).toBe(true);
    // The link riders copy names the share only.
    expect(at('/dashboard/workouts/share/ride?share=Abc_def-1234567890')).toBe(true);
    expect(at('/dashboard/workouts/share/other?share=Abc_def-1234567890')).toBe(false);
    expect(at('/dashboard/workouts/share/12')).toBe(false);
    expect(at('/dashboard/workouts/share/12?share=short')).toBe(false);
    expect(at('/dashboard/workouts/list?share=Abc_def-1234567890')).toBe(false);
    expect(at('/dashboard/workouts/share/12/../../device/list?share=Abc_def-1234567890')).toBe(
      false,
    );
  });

  it('shows a shared ride to a visitor without sending them to /login', async () => {
    const go = vi.spyOn(leave, 'to').mockImplementation(() => undefined);
    renderAt('/dashboard/workouts/share/12?share=Abc_def-1234567890');
    // Offline in unit tests: the page answers with the network message, not a redirect.
    expect(await screen.findByText(/offline/i)).toBeDefined();
    expect(go).not.toHaveBeenCalled();
    go.mockRestore();
  });

  it('sends a visitor to the site login with the way back, replacing history (spec 4)', async () => {
    const go = vi.spyOn(leave, 'to').mockImplementation(() => undefined);
    renderAt('/dashboard/workouts/list?page=2');
    await vi.waitFor(() =>
      expect(go).toHaveBeenCalledWith('/login?redirect=%2Fdashboard%2Fworkouts%2Flist%3Fpage%3D2'),
    );
    go.mockRestore();
  });

  it('lets a signed-in rider in, and redirects /upload to /upload/gpxFile', async () => {
    client.session.setTokens({ access: 'a', refresh: 'r' });
    const router = renderAt('/upload');
    expect(await screen.findByRole('heading', { name: 'Upload a GPX route' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/upload/gpxFile');
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeDefined();
  });

  it('resets the page title after a navigation', async () => {
    client.session.setTokens({ access: 'a', refresh: 'r' });
    document.title = 'something else';
    renderAt('/upload/gpxFile');
    await screen.findByRole('heading', { name: 'Upload a GPX route' });
    // The shell sets the title in an effect, which may run just after the page's heading shows.
    await vi.waitFor(() => expect(document.title).toBe('XOSS — GPS bike computers and sensors'));
  });
});
