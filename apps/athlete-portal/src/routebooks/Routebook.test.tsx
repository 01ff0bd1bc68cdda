import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Device, Routebook } from '@xoss/api-contract';
import { loadMessages } from '@xoss/i18n';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { client } from '../client.ts';
import {
  openAt,
  renderPortal,
  resetPortal,
  sessionEndsOn,
  signIn,
  signInAgain,
} from '../testing.tsx';
import { sniffFile } from './UploadGpx.tsx';

// Routebooks as riders use them (list, one on the map with its profile, rename, send to a
// device, download, delete), adding a device, and a FIT file picked as GPX.

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

/** A short climb: six points north, 50 m higher at each. */
const GPX = `<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><name>Hill</name><trkseg>${Array.from(
  { length: 6 },
  (_, i) =>
    `<trkpt lat="${(45 + i * 0.001).toFixed(3)}" lon="7"><ele>${100 + i * 50}</ele></trkpt>`,
).join('')}</trkseg></trk></gpx>`;

const routebook = (fields: Partial<Routebook> = {}): Routebook => ({
  id: 9,
  title: 'Col loop',
  description: 'Via the old road',
  distance_m: 12_345,
  elevation_gain_m: 678,
  elevation_loss_m: 670,
  points: 6,
  has_time: false,
  bounds: { min_lat: 45, min_lon: 7, max_lat: 45.005, max_lon: 7 },
  preview: [
    [45, 7],
    [45.005, 7],
  ],
  created_at: '2026-05-01T07:00:00Z',
  devices: [],
  ...fields,
});

const device: Device = {
  id: 4,
  serial: 'NAVP0001',
  model: 'NAV+',
  firmware_version: '2.3.1',
  manufacture: 'XOSS',
  created_at: '2026-01-01T00:00:00Z',
};

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

const json = (data: unknown, status = 200) =>
  new Response(JSON.stringify(status === 200 ? { code: 0, msg: 'success', data } : data), {
    status,
    headers: { 'content-type': 'application/json' },
  });
const page = (results: unknown[]) => ({
  count: results.length,
  next: null,
  previous: null,
  results,
});

/**
 * The API the routebook pages call, holding one routebook and one device: its replies follow
 * what was sent (a rename changes the title, a send marks the device). Everything is recorded.
 */
function stubApi(options: { devices?: Device[]; bind?: () => Response } = {}) {
  let book: Routebook | null = routebook();
  const devices = options.devices ?? [device];
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    const path = new URL(url, 'http://portal.test').pathname;
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    sent.push({ method, path, body });
    const key = `${method} ${path}`;
    if (key === 'GET /api/v2/routebooks/') return Promise.resolve(json(page(book ? [book] : [])));
    if (key === 'GET /api/v2/devices/') return Promise.resolve(json(page(devices)));
    if (key === 'POST /api/v2/devices/')
      return Promise.resolve(options.bind ? options.bind() : json(device));
    if (!book) return Promise.resolve(json({ code: 10404, msg: 'Not found', detail: '' }, 404));
    if (key === 'GET /api/v2/routebooks/9/gpx/')
      return Promise.resolve(
        new Response(GPX, { headers: { 'content-type': 'application/gpx+xml' } }),
      );
    if (key === 'GET /api/v2/routebooks/9/') return Promise.resolve(json(book));
    if (key === 'PATCH /api/v2/routebooks/9/') {
      book = { ...book, ...(body as Partial<Routebook>) };
      return Promise.resolve(json(book));
    }
    if (key === 'POST /api/v2/routebooks/9/send/') {
      const { device_id } = body as { device_id: number };
      book = {
        ...book,
        devices: [{ device_id, marked_at: '2026-05-02T08:00:00Z', synced_at: null }],
      };
      return Promise.resolve(json(book));
    }
    if (key === 'DELETE /api/v2/routebooks/9/') {
      book = null;
      return Promise.resolve(json({}));
    }
    return Promise.resolve(json(page([])));
  });
  return sent;
}

function open(path: string, language: 'en-US' | 'de' = 'en-US') {
  client.session.setTokens({ access: 'a', refresh: 'r' });
  return renderPortal(path, language === 'de' ? german : english, language);
}

describe('my routebooks', () => {
  it('lists each routebook with its distance, elevation gain and date, each opening its page', async () => {
    stubApi();
    const router = open('/upload/gpxFile');
    const list = await screen.findByRole('heading', { name: 'My routebooks' });
    const link = await within(list.parentElement!).findByRole('link', { name: 'Col loop' });
    expect(screen.getByText(/^12\.35 km · 678 m climbing · May 1, 2026/)).toBeDefined();
    fireEvent.click(link);
    await screen.findByRole('heading', { level: 1, name: 'Col loop' });
    expect(router.state.location.pathname).toBe('/dashboard/routebooks/9');
  });

  it('opens a routebook on the map with its elevation profile drawn from the GPX', async () => {
    const sent = stubApi();
    open('/dashboard/routebooks/9');
    await screen.findByRole('heading', { level: 1, name: 'Col loop' });
    expect(screen.getByText('Via the old road')).toBeDefined();
    expect(screen.getByText('678 m')).toBeDefined();
    await screen.findByRole('heading', { name: 'Elevation profile' });
    // The profile is an area through the file's six points, with its axes.
    await waitFor(() => {
      const panel = document.querySelector('.xoss-streams__panel');
      const area = panel?.querySelector('path')?.getAttribute('d') ?? '';
      expect(area.match(/[ML][\d.]+,[\d.]+/g)?.length ?? 0).toBeGreaterThanOrEqual(6);
      expect(panel?.querySelectorAll('.xoss-axis').length).toBe(2);
    });
    expect(sent.some((call) => call.path === '/api/v2/routebooks/9/gpx/')).toBe(true);
  });

  it('renames it, sends it to a device, and deletes it only after Confirm', async () => {
    const sent = stubApi();
    const router = open('/dashboard/routebooks/9');
    await screen.findByRole('heading', { level: 1, name: 'Col loop' });

    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    const title = screen.getByLabelText<HTMLInputElement>('Title');
    fireEvent.change(title, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Please check required fields');
    expect(sent.filter((call) => call.method === 'PATCH')).toEqual([]);
    fireEvent.change(title, { target: { value: 'Col loop, short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('heading', { level: 1, name: 'Col loop, short' });
    expect(sent.find((call) => call.method === 'PATCH')?.body).toEqual({
      title: 'Col loop, short',
      description: 'Via the old road',
    });

    fireEvent.change(await screen.findByLabelText('Device'), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const sentTo = await screen.findByRole('list', { name: 'Sent to' });
    expect(within(sentTo).getByText('NAV+ (NAVP0001)')).toBeDefined();
    expect(within(sentTo).getByText('Waiting for the next sync in the XOSS app')).toBeDefined();
    expect(sent.find((call) => call.path === '/api/v2/routebooks/9/send/')?.body).toEqual({
      device_id: 4,
    });

    // Cancel keeps it; Confirm deletes it and goes back to the list.
    fireEvent.click(screen.getByRole('button', { name: 'Delete routebook' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel', hidden: true }));
    expect(sent.filter((call) => call.method === 'DELETE')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete routebook' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm', hidden: true }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload/gpxFile'));
    expect(sent.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      '/api/v2/routebooks/9/',
    ]);
  });

  it('keeps an edit the session ended under and offers it back after the next login', async () => {
    stubApi();
    signIn();
    openAt('/dashboard/routebooks/9', english);
    await screen.findByRole('heading', { level: 1, name: 'Col loop' });
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Col loop, by night' } });
    fireEvent.change(screen.getByLabelText('Description (optional)'), {
      target: { value: 'Lights on from the bridge' },
    });
    sessionEndsOn('PATCH', '/api/v2/routebooks/9/');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await signInAgain();

    const sent = stubApi();
    openAt('/dashboard/routebooks/9', english);
    await screen.findByRole('heading', { level: 1, name: 'Col loop' });
    const offer = await screen.findByText('Restore your unsaved changes?');
    // The form stands open with the saved values until the rider chooses.
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Col loop');
    fireEvent.click(within(offer.parentElement!).getByRole('button', { name: 'Restore' }));
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe('Col loop, by night');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Description (optional)').value).toBe(
      'Lights on from the bridge',
    );
    expect(screen.queryByText('Restore your unsaved changes?')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('heading', { level: 1, name: 'Col loop, by night' });
    expect(sent.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { title: 'Col loop, by night', description: 'Lights on from the bridge' },
    ]);
  });

  it('offers to add a device when the rider has none to send it to, in German too', async () => {
    stubApi({ devices: [] });
    open('/dashboard/routebooks/9', 'de');
    await screen.findByText('Du hast noch kein Gerät, an das du es senden kannst.');
    expect(screen.getByRole('link', { name: 'Gerät hinzufügen' }).getAttribute('href')).toBe(
      '/dashboard/device/add',
    );
  });
});

describe('a FIT file picked as GPX', () => {
  const fitHeader = () => {
    const bytes = new Uint8Array(64);
    bytes.set([14, 0x20, 0x5c, 0x08, 40, 0, 0, 0, 0x2e, 0x46, 0x49, 0x54]);
    return bytes;
  };

  it('tells a FIT header and other binary files from text by their first bytes', () => {
    expect(sniffFile(fitHeader())).toBe('fit');
    expect(sniffFile(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]))).toBe('binary');
    expect(sniffFile(new TextEncoder().encode(GPX))).toBe('text');
  });

  it('says it is an activity to import in the rides, links there, and uploads nothing', async () => {
    const sent = stubApi();
    const router = open('/upload/gpxFile');
    const input = await screen.findByLabelText<HTMLInputElement>('Select a GPX file');
    fireEvent.change(input, {
      target: { files: [new File([fitHeader()], 'Morning_Ride.fit')] },
    });
    const alert = await screen.findByText(
      /^This is a FIT file \(an activity\)\. Import it in your rides instead\./,
    );
    expect(screen.queryByText(/UTF-8/)).toBeNull();
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Ride' } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(sent.filter((call) => call.method === 'POST')).toEqual([]);
    fireEvent.click(
      within(alert.closest('[role="alert"]')!).getByRole('link', { name: 'Go to my rides' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/workouts/list'));
  });

  it('says a binary file that is not FIT is not a GPX route', async () => {
    stubApi();
    open('/upload/gpxFile');
    const input = await screen.findByLabelText<HTMLInputElement>('Select a GPX file');
    fireEvent.change(input, {
      target: { files: [new File([new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0])], 'route.gpx')] },
    });
    await screen.findByText(/^This is not a GPX route: a GPX file is text\./);
    expect(screen.getByRole('link', { name: 'Go to my rides' })).toBeDefined();
  });
});

describe('device names', () => {
  it("names each model as the site does, in the rider's language", async () => {
    stubApi({ devices: [device, { ...device, id: 5, serial: 'G2P00001', model: 'G2+' }] });
    open('/dashboard/device/list', 'de');
    expect(await screen.findByRole('rowheader', { name: 'XOSS G+ 2. Generation' })).toBeDefined();
    expect(screen.getByRole('rowheader', { name: 'XOSS NAV+' })).toBeDefined();
  });
});

describe('adding a device', () => {
  it('is an action of the device list that explains pairing in the app, with the app link', async () => {
    stubApi();
    const router = open('/dashboard/device/list');
    fireEvent.click(await screen.findByRole('link', { name: 'Add a device' }));
    await screen.findByRole('heading', { level: 1, name: 'Add a device' });
    expect(router.state.location.pathname).toBe('/dashboard/device/add');
    const steps = screen.getByRole('heading', { name: 'Pair it in the XOSS app' }).parentElement!;
    expect(within(steps).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByRole('link', { name: 'Get the XOSS app' }).getAttribute('href')).toBe(
      '/product/download',
    );
  });

  it('checks the serial number beside its field, shows the server saying whose it is, then adds it', async () => {
    let reply = () =>
      json(
        {
          code: 10409,
          msg: 'Conflict',
          detail: 'This device is bound to another account',
          errors: [{ path: 'serial', message: 'Bound to another account' }],
        },
        409,
      );
    const sent = stubApi({ bind: () => reply() });
    const router = open('/dashboard/device/add');
    const serial = await screen.findByLabelText<HTMLInputElement>('Serial number');
    const add = () => fireEvent.click(screen.getByRole('button', { name: 'Add device' }));

    fireEvent.change(serial, { target: { value: 'AB 12' } });
    add();
    const invalid = await screen.findByText(
      'A serial number is 6 to 32 letters, digits or dashes.',
    );
    expect(serial.getAttribute('aria-invalid')).toBe('true');
    expect(serial.getAttribute('aria-describedby')).toBe(invalid.id);
    expect(sent.filter((call) => call.method === 'POST')).toEqual([]);

    fireEvent.change(serial, { target: { value: 'navp0001' } });
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'NAV+' } });
    add();
    const taken = await screen.findByText(
      'This device is bound to another account: unbind it there first.',
    );
    expect(serial.getAttribute('aria-describedby')).toBe(taken.id);
    expect(sent.find((call) => call.method === 'POST')?.body).toEqual({
      serial: 'navp0001',
      model: 'NAV+',
    });

    reply = () => json(device);
    add();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/device/list'));
  });
});
