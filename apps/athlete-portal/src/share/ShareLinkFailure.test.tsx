import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderPortal, resetPortal } from '../testing.tsx';
import { leave } from '../navigation.ts';

/**
 * What a visitor sees when a share link shows no ride: a page that says why, in their
 * language, with the way to the home page, and never a trip to /login.
 */

let english: Awaited<ReturnType<typeof loadMessages>>;
let german: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
  german = await loadMessages('de');
});
afterEach(() => {
  resetPortal();
  vi.restoreAllMocks();
});

const LINK = '/dashboard/workouts/share/7?share=Abc_def-1234567890';

/** The API's answer to every call of the share link, and the paths it was asked for. */
function stubApi(answer: () => Response) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', (url: string) => {
    asked.push(new URL(url, 'http://portal.test').pathname);
    return Promise.resolve(answer());
  });
  return asked;
}

const failure = (status: number, code: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ code, msg: 'failed', detail: '' }), { status, headers });

function open(path: string, language: 'en-US' | 'de' = 'en-US') {
  const go = vi.spyOn(leave, 'to').mockImplementation(() => undefined);
  const router = renderPortal(path, language === 'de' ? german : english, language);
  return { go, router };
}

describe('a share link that shows no ride', () => {
  it('says a stopped or unknown link does not exist, links home, and does not send the visitor to /login', async () => {
    const asked = stubApi(() => failure(404, 10404));
    const { go, router } = open(LINK);
    const heading = await screen.findByRole('heading', {
      level: 1,
      name: "This shared ride isn't available",
    });
    const page = heading.closest('section')!;
    expect(
      within(page).getByText("The link doesn't exist, or the rider has stopped sharing this ride."),
    ).toBeDefined();
    expect(
      within(page).getByRole('link', { name: 'Go to the XOSS home page' }).getAttribute('href'),
    ).toBe('/');
    // Nothing to retry: the link will not come back by asking again.
    expect(within(page).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(asked).toContain('/api/v2/share/workouts/Abc_def-1234567890/');
    expect(go).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/dashboard/workouts/share/7');
  });

  it('says it in the visitor’s language', async () => {
    stubApi(() => failure(404, 10404));
    open(LINK, 'de');
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Diese geteilte Fahrt ist nicht verfügbar',
      }),
    ).toBeDefined();
    expect(screen.getByRole('link', { name: 'Zur XOSS-Startseite' })).toBeDefined();
  });

  it('shows the same page for a link cut short or mistyped, without asking the API or /login', async () => {
    for (const path of [
      '/dashboard/workouts/share/7?share=Abc_def',
      '/dashboard/workouts/share/7?share=',
      '/dashboard/workouts/share/rides?share=Abc_def-1234567890',
    ]) {
      const asked = stubApi(() => failure(404, 10404));
      const { go } = open(path);
      expect(
        await screen.findByRole('heading', { level: 1, name: "This shared ride isn't available" }),
      ).toBeDefined();
      expect(asked.filter((pathname) => pathname.includes('/share/'))).toEqual([]);
      expect(go).not.toHaveBeenCalled();
      cleanup();
      vi.restoreAllMocks();
    }
  });

  it('asks to wait the Retry-After seconds on 429, and Try again asks the API again', async () => {
    let limited = true;
    stubApi(() => {
      if (limited) return failure(429, 10429, { 'Retry-After': '30' });
      return new Response(JSON.stringify({ code: 1, msg: 'failed', detail: '' }), {
        status: 418,
      });
    });
    const { go } = open(LINK);
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: "This shared ride can't be shown right now",
      }),
    ).toBeDefined();
    expect(
      screen.getByText('Too many requests in a short time. Try again in 30 seconds.'),
    ).toBeDefined();
    // Trying again asks the API again: the answer this time is another one, with its own words.
    limited = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByText('Something went wrong on our side. Please try again.'),
    ).toBeDefined();
    expect(go).not.toHaveBeenCalled();
  });

  it('says the server is busy on 503, with Try again and the home page', async () => {
    stubApi(() => failure(503, 10503));
    const { go } = open(LINK);
    expect(
      await screen.findByText('Our server is busy or being updated. Try again in a few minutes.'),
    ).toBeDefined();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Go to the XOSS home page' })).toBeDefined();
    expect(go).not.toHaveBeenCalled();
  });

  it('still sends a visitor to /login for the owner’s page of a ride (no share parameter)', async () => {
    stubApi(() => failure(404, 10404));
    const { go } = open('/dashboard/workouts/share/7');
    await vi.waitFor(() =>
      expect(go).toHaveBeenCalledWith('/login?redirect=%2Fdashboard%2Fworkouts%2Fshare%2F7'),
    );
  });
});
