import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { client } from '../client.ts';
import { renderPortal, resetPortal } from '../testing.tsx';
import { ARCHIVE_KEY } from './ImportArchive.tsx';

/** The archive import page: progress, time left, failures in the rider's language, Cancel. */

const ID = '44444444-4444-4444-8444-444444444444';

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

const progress = (fields: Record<string, unknown>) => ({
  id: ID,
  status: 'running',
  total: 120,
  done: 30,
  imported: 27,
  duplicates: 2,
  failed: 1,
  failures: [{ name: 'activities/7.fit', code: '10415', message: 'This file cannot be read: x' }],
  created_at: new Date(Date.now() - 60_000).toISOString(),
  finished_at: null,
  error: null,
  ...fields,
});

/** The API: the archive's progress answers in turn (the last repeats); DELETE is recorded. */
function stubApi(answers: Record<string, unknown>[]) {
  const sent: string[] = [];
  let cancelled = false;
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    const path = new URL(url, 'http://portal.test').pathname;
    const method = init.method ?? 'GET';
    sent.push(`${method} ${path}`);
    if (method === 'DELETE') cancelled = true;
    const data =
      path !== `/api/v2/imports/archives/${ID}/`
        ? []
        : cancelled
          ? progress({ status: 'cancelled' })
          : answers.length > 1
            ? answers.shift()
            : answers[0];
    return Promise.resolve(new Response(JSON.stringify({ code: 0, msg: 'ok', data })));
  });
  return sent;
}

function open(language = 'en-US') {
  client.session.setTokens({ access: 'a', refresh: 'r' });
  localStorage.setItem(ARCHIVE_KEY, ID);
  renderPortal('/dashboard/workouts/archive', language === 'de' ? german : english, language);
}

describe('importing an archive', () => {
  it('shows the counts, a progress bar, the time left and each failure with its reason', async () => {
    stubApi([progress({})]);
    open();
    await screen.findByRole('heading', { name: 'Importing' });
    expect(screen.getByText(/^30 of 120 activities · about \d+:\d\d:\d\d left$/)).toBeDefined();
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('value')).toBe('30');
    expect(bar.getAttribute('max')).toBe('120');
    const failures = screen.getByRole('list', { name: 'Activities not imported' });
    expect(within(failures).getByText('activities/7.fit')).toBeDefined();
    // The API's own reason, not a catch-all.
    expect(within(failures).getByText(/This file cannot be read: x/)).toBeDefined();
    expect(within(failures).queryByText(/The file cannot be read as a ride/)).toBeNull();
  });

  it('offers to upload a planned route the archive held as a route', async () => {
    stubApi([
      progress({
        failures: [
          {
            name: 'activities/route.gpx',
            code: '10415',
            message: 'This file cannot be read: The track has no times: it is a planned route.',
          },
        ],
      }),
    ]);
    open();
    const failures = await screen.findByRole('list', { name: 'Activities not imported' });
    expect(within(failures).getByText(/it is a planned route/)).toBeDefined();
    expect(
      within(failures)
        .getByRole('link', { name: 'Upload as a route instead' })
        .getAttribute('href'),
    ).toBe('/upload/gpxFile');
  });

  it("says the reasons in the rider's language, and the walk's own reasons too", async () => {
    stubApi([
      progress({
        failures: [
          { name: '../evil.fit', code: 'unsafePath', message: 'Skipped: ".." in the path' },
          { name: 'odd.fit', code: 'somethingNew', message: 'Server words' },
          { name: 'activities/4.fit', code: 'duplicate', message: 'Already imported' },
        ],
      }),
    ]);
    open('de');
    await screen.findByRole('heading', { name: 'Wird importiert' });
    expect(screen.getByText(/Der Name zeigt aus dem Archiv heraus/)).toBeDefined();
    // What was already here is named, with why, in the rider's language.
    const duplicate = screen.getByText(/activities\/4\.fit/).closest('li')!;
    expect(duplicate.textContent).toContain('Schon vorhanden');
    // A reason the page does not know yet: the server's words rather than nothing.
    expect(screen.getByText(/Server words/)).toBeDefined();
  });

  it('cancels on request, and offers the rides and another archive when it has ended', async () => {
    const sent = stubApi([progress({})]);
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel the import' }));
    // Asked first: Cancel keeps importing, nothing is sent.
    let dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(
      'Cancel the import? The activities not imported yet will not be imported; those already imported stay.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).not.toContain(`DELETE /api/v2/imports/archives/${ID}/`);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the import' }));
    dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel the import' }));
    await screen.findByRole('heading', { name: 'Import cancelled' });
    expect(sent).toContain(`DELETE /api/v2/imports/archives/${ID}/`);
    expect(screen.getByRole('link', { name: 'Open your rides' }).getAttribute('href')).toBe(
      '/dashboard/workouts/list',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Import another archive' }));
    await screen.findByText('Choose the export (.zip)');
    expect(localStorage.getItem(ARCHIVE_KEY)).toBeNull();
  });

  it('names an archive that could not be read', async () => {
    stubApi([
      progress({
        status: 'failed',
        total: null,
        done: 0,
        imported: 0,
        duplicates: 0,
        failed: 0,
        failures: [],
        // The rider reads the reason in their language, not the API's English words.
        error: { code: 'tooManyZips', message: 'The archive holds more than 1000 zips inside it' },
      }),
    ]);
    open();
    await screen.findByRole('heading', { name: 'The archive could not be read' });
    expect(
      screen.getByText(
        'The archive could not be read: The archive holds more than 1,000 zips inside it',
      ),
    ).toBeDefined();
  });
});
