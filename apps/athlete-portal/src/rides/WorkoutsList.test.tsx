import { fireEvent, screen, within } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderPortal, resetPortal, signIn } from '../testing.tsx';

// A file the API refuses as a ride says why, and a planned route is offered its own place.

let english: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
});
afterEach(() => {
  resetPortal();
  vi.restoreAllMocks();
});

/** The ride list (empty) and an import refused with `reason` (the decoder's message id). */
function stubApi(reason: string, detail: string) {
  // The upload goes through fetch (no upload progress in this test).
  vi.stubGlobal('XMLHttpRequest', undefined);
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    const path = new URL(url, 'http://portal.test').pathname;
    if ((init.method ?? 'GET') === 'POST' && path === '/api/v2/workouts/')
      return Promise.resolve(
        new Response(
          JSON.stringify({
            code: 10415,
            msg: 'Unsupported file',
            detail,
            errors: [{ path: 'file', message: reason }],
          }),
          { status: 415, headers: { 'content-type': 'application/json' } },
        ),
      );
    return Promise.resolve(
      new Response(
        JSON.stringify({
          code: 0,
          msg: 'ok',
          data: { count: 0, next: null, previous: null, results: [] },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      ),
    );
  });
}

async function importFile(name: string) {
  signIn();
  renderPortal('/dashboard/workouts/list', english);
  const [input] = await screen.findAllByLabelText('Import activity file', { selector: 'input' });
  fireEvent.change(input!, { target: { files: [new File(['<gpx/>'], name)] } });
}

describe('importing a file the API refuses', () => {
  it('offers a planned route (a GPX without times) its place with the routes', async () => {
    stubApi(
      'activityFiles.gpx.noTimes',
      'The track has no times: it is a planned route. Upload it as a route instead.',
    );
    await importFile('alps.gpx');
    const result = await screen.findByText(/^alps\.gpx · Not imported/);
    expect(result.textContent).toContain('it is a planned route');
    expect(
      within(result).getByRole('link', { name: 'Upload as a route instead' }).getAttribute('href'),
    ).toBe('/upload/gpxFile');
  });

  it('says the reason of any other refusal, with no route offered', async () => {
    stubApi('activityFiles.fit.crc', 'The file is damaged: its checksum does not match.');
    await importFile('broken.fit');
    const result = await screen.findByText(/^broken\.fit · Not imported/);
    expect(result.textContent).toContain('its checksum does not match');
    expect(within(result).queryByRole('link')).toBeNull();
  });
});
