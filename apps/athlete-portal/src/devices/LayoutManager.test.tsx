import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Device } from '@xoss/api-contract';
import { defaultDocument, profileFor, toPanelsObject } from '@xoss/data-fields';
import { loadMessages } from '@xoss/i18n';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openAt, resetPortal, sessionEndsOn, signIn, signInAgain } from '../testing.tsx';

// The data-page editor: pages added and fields set survive the end of the session, and on a
// phone the field list and the preview come into view as the rider goes between them.

let english: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
});
afterEach(() => {
  resetPortal();
  vi.restoreAllMocks();
});

const device: Device = {
  id: 4,
  serial: 'NAVP0001',
  model: 'NAV+',
  firmware_version: '2.3.1',
  manufacture: 'XOSS',
  created_at: '2026-01-01T00:00:00Z',
};
const stored = toPanelsObject(defaultDocument(profileFor('NAV+')!, device.serial, 1_700_000_000));

const json = (data: unknown) =>
  new Response(JSON.stringify({ code: 0, msg: 'ok', data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

/** The device list and the device's stored pages; every PUT is recorded. */
function stubApi() {
  const saved: unknown[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    const path = new URL(url, 'http://portal.test').pathname;
    const method = init.method ?? 'GET';
    if (path === '/api/v2/devices/')
      return Promise.resolve(json({ count: 1, next: null, previous: null, results: [device] }));
    if (path === '/api/v2/devices/4/layout/' && method === 'PUT') {
      const body = JSON.parse(init.body as string) as unknown;
      saved.push(body);
      return Promise.resolve(json(body));
    }
    if (path === '/api/v2/devices/4/layout/') return Promise.resolve(json(stored));
    return Promise.resolve(json({ count: 0, next: null, previous: null, results: [] }));
  });
  return saved;
}

const PATH = '/dashboard/device/list/manager?device=0';
const pages = () => document.querySelectorAll('.portal__pages li').length;
const preview = () => screen.getByRole('group', { name: /screen, page/ });

describe('the data-page editor when the session ends', () => {
  it('offers the new page and its field back after the next login, and saves them', async () => {
    stubApi();
    signIn();
    openAt(PATH, english);
    await screen.findByRole('button', { name: 'Add page' });
    const before = pages();
    fireEvent.click(screen.getByRole('button', { name: 'Add page' }));
    expect(pages()).toBe(before + 1);
    fireEvent.click(within(preview()).getAllByRole('button')[1]!);
    fireEvent.click(screen.getByRole('button', { name: 'Power' }));
    expect(within(preview()).getAllByRole('button')[1]!.getAttribute('aria-label')).toBe(
      '2: Power',
    );
    sessionEndsOn('PUT', '/api/v2/devices/4/layout/');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await signInAgain();

    const saved = stubApi();
    openAt(PATH, english);
    await screen.findByRole('button', { name: 'Add page' });
    // As stored until the rider chooses.
    expect(pages()).toBe(before);
    const offer = await screen.findByText('Restore your unsaved changes?');
    fireEvent.click(within(offer.parentElement!).getByRole('button', { name: 'Restore' }));
    expect(pages()).toBe(before + 1);
    fireEvent.click(screen.getAllByRole('button', { name: `Page ${before + 1}` })[0]!);
    expect(within(preview()).getAllByRole('button')[1]!.getAttribute('aria-label')).toBe(
      '2: Power',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Save Successfully');
    expect(saved).toHaveLength(1);
    expect((saved[0] as { pages: unknown[] }).pages).toHaveLength(before + 1);
  });

  it('keeps nothing when no page was changed', async () => {
    stubApi();
    signIn();
    openAt(PATH, english);
    await screen.findByRole('button', { name: 'Add page' });
    sessionEndsOn('PUT', '/api/v2/devices/4/layout/');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await signInAgain();
    stubApi();
    openAt(PATH, english);
    await screen.findByRole('button', { name: 'Add page' });
    expect(screen.queryByText('Restore your unsaved changes?')).toBeNull();
  });
});

describe('the data-page editor on a phone', () => {
  it('brings the field list into view on a tap and the preview back after choosing', async () => {
    stubApi();
    signIn();
    openAt(PATH, english);
    await screen.findByRole('button', { name: 'Add page' });
    // Everything lies below the phone's screen (happy-dom lays nothing out).
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(
      DOMRect.fromRect({ x: 0, y: 2000, width: 360, height: 200 }),
    );
    const scrolled: string[] = [];
    vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (
      this: HTMLElement,
    ) {
      scrolled.push(this.getAttribute('aria-labelledby') ?? this.tagName);
    });
    fireEvent.click(within(preview()).getAllByRole('button')[0]!);
    await waitFor(() => expect(scrolled).toEqual(['field-title']));
    fireEvent.click(screen.getByRole('button', { name: 'Cadence' }));
    expect(scrolled).toEqual(['field-title', 'preview-title']);
  });
});
