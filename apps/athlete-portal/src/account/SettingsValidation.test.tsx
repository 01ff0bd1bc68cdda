import { fireEvent, screen } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { client } from '../client.ts';
import { renderPortal, resetPortal } from '../testing.tsx';

/** What a rider sees when saving Settings: a refused field, a failed save, a saved one. */

let english: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
});
afterEach(resetPortal);

const athlete = {
  id: '5',
  uuid: 'u-5',
  username: 'Rider',
  email: 'rider@xoss.co',
  profile: { avatar_url: null },
  settings: {
    ftp: 250,
    max_hr: 185,
    distance_unit: 0,
    temperature_unit: 'c',
    privacy_trim_m: 300,
    share_heart_rate: true,
    share_power: true,
    weight_kg: 72,
    ftp_rule: 'hour',
    threshold_pace_s_per_km: null,
  },
};

/** The athlete API: the profile, and each save answered in turn by `saves`. */
function stubApi(saves: (() => Response)[]) {
  const sent: unknown[] = [];
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://portal.test').pathname;
    if (path === '/api/v2/athlete/5/' && init?.method === 'PATCH') {
      sent.push(JSON.parse(init.body as string));
      return Promise.resolve(saves.shift()!());
    }
    if (path === '/api/v2/athlete/5/')
      return Promise.resolve(
        new Response(JSON.stringify({ code: 0, msg: 'ok', data: athlete }), { status: 200 }),
      );
    return Promise.resolve(new Response(JSON.stringify({ code: 0, msg: 'ok', data: [] })));
  });
  return sent;
}

const ok = () =>
  new Response(JSON.stringify({ code: 0, msg: 'ok', data: athlete }), { status: 200 });
const busy = () =>
  new Response(JSON.stringify({ code: 10503, msg: 'busy', detail: '' }), { status: 503 });

async function openSettings() {
  client.session.setTokens({ access: 'a', refresh: 'r' });
  client.session.setUser({ name: 'Rider', avatar_url: null, uuid: 'u-5', id: '5' });
  renderPortal('/dashboard/settings', english);
  return screen.findByLabelText<HTMLInputElement>('FTP (W)');
}

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('saving settings', () => {
  it('refuses "abc" in FTP beside the field, sends nothing and does not say it saved', async () => {
    const sent = stubApi([ok]);
    const ftp = await openSettings();
    fireEvent.change(ftp, { target: { value: 'abc' } });
    save();
    const problem = await screen.findByText('FTP (W): enter a number from 50 to 700.');
    expect(ftp.value).toBe('abc');
    expect(ftp.getAttribute('aria-invalid')).toBe('true');
    expect(ftp.getAttribute('aria-describedby')).toBe(problem.id);
    expect(document.activeElement).toBe(ftp);
    expect(screen.queryByText('Save Successfully')).toBeNull();
    expect(sent).toEqual([]);
  });

  it('refuses an out-of-range number in every numeric field, each with its own message', async () => {
    const sent = stubApi([ok]);
    const ftp = await openSettings();
    fireEvent.change(ftp, { target: { value: '5000' } });
    fireEvent.change(screen.getByLabelText('Max heart rate (bpm)'), { target: { value: '12x' } });
    fireEvent.change(screen.getByLabelText('Weight (kg)'), { target: { value: '-3' } });
    const pace = screen.getByLabelText('Running threshold pace (min:ss per km)');
    fireEvent.change(pace, { target: { value: '1:30' } });
    save();
    expect(await screen.findByText('FTP (W): enter a number from 50 to 700.')).toBeDefined();
    expect(screen.getByText(/^Max heart rate \(bpm\): enter a number from/)).toBeDefined();
    expect(screen.getByText(/^Weight \(kg\): enter a number from/)).toBeDefined();
    // A pace is said as riders write it.
    expect(
      screen.getByText(
        'Running threshold pace (min:ss per km): enter a number from 2:00 to 15:00.',
      ),
    ).toBeDefined();
    expect(sent).toEqual([]);
    // Put right, the messages go and the values are sent (a decimal comma is read as a point).
    fireEvent.change(ftp, { target: { value: '260' } });
    fireEvent.change(screen.getByLabelText('Max heart rate (bpm)'), { target: { value: '186' } });
    fireEvent.change(screen.getByLabelText('Weight (kg)'), { target: { value: '72,5' } });
    fireEvent.change(pace, { target: { value: '4:30' } });
    save();
    expect(await screen.findByText('Save Successfully')).toBeDefined();
    expect(screen.queryByText(/enter a number from/)).toBeNull();
    expect(sent).toMatchObject([
      { settings: { ftp: 260, max_hr: 186, weight_kg: 72.5, threshold_pace_s_per_km: 270 } },
    ]);
  });

  it('says Save Successfully only after the 200, and a new save clears it before its error', async () => {
    stubApi([ok, busy]);
    const ftp = await openSettings();
    fireEvent.change(ftp, { target: { value: '255' } });
    save();
    expect((await screen.findByRole('status')).textContent).toBe('Save Successfully');
    fireEvent.change(ftp, { target: { value: '256' } });
    save();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The server is busy. Please try again in a moment.',
    );
    expect(screen.queryByText('Save Successfully')).toBeNull();
  });
});
