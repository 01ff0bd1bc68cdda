import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { WorkoutDetail } from '@xoss/api-contract';
import { loadMessages } from '@xoss/i18n';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { answerApi, renderPortal, resetPortal, signIn, uncorrected } from '../testing.tsx';
import { parseDuration } from './RideCorrections.tsx';

let english: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
});
afterEach(resetPortal);

/** A bike leg of a triathlon whose clock was never set: dated 2031, a power glitch taken out. */
const ride = {
  ...uncorrected,
  id: 7,
  name: 'Triathlon bike',
  sport_type: 2,
  start_time: '2031-05-05T08:00:00.000Z',
  indoor: false,
  distance_m: 40_000,
  moving_time_s: 3600,
  timer_time_s: 3600,
  total_time_s: 3700,
  speed_avg_ms: 11,
  hr_avg: 141,
  power_avg: 200,
  elevation_gain_m: 100,
  tss: 80,
  shared: false,
  share_id: null,
  notes: '',
  gear: 'Canyon Speedmax',
  laps: [],
  share_heart_rate: true,
  share_power: true,
  summary: {
    total_time_s: 3700,
    timer_time_s: 3600,
    moving_time_s: 3600,
    removed_samples: { points: 0, power: 4, heart_rate: 1, cadence: 0, speed: 0, distance: 0 },
    tss: 85,
    tss_method: 'heart_rate',
  },
  device_summary: {},
  hr_zones: [],
  power_zones: [],
  ftp: 250,
  ftp_source: 'settings',
  file_ftp: 315,
  max_hr: null,
  max_hr_source: null,
  sessions: [],
  damage: null,
  file_format: 'fit',
  bounds: null,
  date_warning: 'future',
  recording_offset_s: 42,
  legs: [
    { id: 6, name: 'Swim', sport_type: 5, start_time: '2031-05-05T07:00:00.000Z' },
    { id: 7, name: 'Triathlon bike', sport_type: 2, start_time: '2031-05-05T08:00:00.000Z' },
    { id: 8, name: 'Run', sport_type: 1, start_time: '2031-05-05T09:05:00.000Z' },
  ],
} as unknown as WorkoutDetail;

/** The ride's API; every PATCH body is kept, and answered with the ride as it was. */
function stubApi(): unknown[] {
  const patches: unknown[] = [];
  answerApi(({ pathname: path }, init) => {
    if (init.method === 'PATCH') patches.push(JSON.parse(init.body as string));
    return path.endsWith('/streams/')
      ? { length: 2, streams: { time: [0, 1], power: [200, 200] } }
      : path === '/api/v2/workouts/7/'
        ? ride
        : undefined;
  });
  return patches;
}

describe('correcting a ride', () => {
  it('reads h:mm:ss, m:ss and minutes, and nothing else', () => {
    expect(parseDuration('1:02:03')).toBe(3723);
    expect(parseDuration('12:30')).toBe(750);
    expect(parseDuration('45')).toBe(2700);
    expect(parseDuration('1:2:3:4')).toBeUndefined();
    expect(parseDuration('ten')).toBeUndefined();
  });

  it('warns of a doubtful date and moves the ride; lists the legs; keeps the removed samples; chooses the FTP; crops; leaves the ride out', async () => {
    signIn();
    const patches = stubApi();
    renderPortal('/dashboard/workouts/share/7', english);
    await screen.findByRole('heading', { name: 'Triathlon bike' });
    expect(screen.getByText('Gear: Canyon Speedmax')).toBeTruthy();
    // Which load it is: a ride without power is scored by heart rate, and says so.
    expect(await screen.findByText(/^85(\.0)? \(from heart rate\)$/)).toBeTruthy();

    // The date: said at once, with the time the rider gives.
    const warning = screen.getByText(/This ride is dated in the future/).closest('form')!;
    fireEvent.change(within(warning).getByLabelText('Started at (UTC)'), {
      target: { value: '2025-05-05T08:00' },
    });
    fireEvent.click(within(warning).getByRole('button', { name: 'Move the ride' }));
    await waitFor(() => expect(patches).toEqual([{ start_time: '2025-05-05T08:00:00Z' }]));

    // The legs, this one marked, the others links.
    const legs = screen.getByRole('navigation', { name: 'Legs of this multisport recording' });
    expect(
      within(legs)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/dashboard/workouts/share/6', '/dashboard/workouts/share/8']);

    // What the cleaning took out, and keeping it.
    expect(
      screen.getByText(/Left out of every figure .*: 4 power samples, 1 heart-rate sample\./),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep them' }));
    await waitFor(() => expect(patches.at(-1)).toEqual({ keep_removed: true }));

    // The file's FTP for this ride.
    fireEvent.click(
      screen.getByRole('button', { name: "Use the file's FTP (315\u00a0W) for this ride" }),
    );
    await waitFor(() => expect(patches.at(-1)).toEqual({ ftp_choice: 'file' }));

    // A crop: refused as typed wrong, sent as seconds when right.
    fireEvent.change(screen.getByLabelText('Keep from (h:mm:ss)'), {
      target: { value: '0:10:00' },
    });
    fireEvent.change(screen.getByLabelText('to (h:mm:ss)'), { target: { value: '0:05:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Crop' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Give a start and an end, the end after the start, as h:mm:ss.',
    );
    fireEvent.change(screen.getByLabelText('to (h:mm:ss)'), { target: { value: '0:50:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Crop' }));
    // Counted from where the ride as shown begins in the recording: 42 s in (the cleaning
    // left out its first samples).
    await waitFor(() => expect(patches.at(-1)).toEqual({ crop: { start_s: 642, end_s: 3042 } }));

    fireEvent.click(
      screen.getByRole('checkbox', { name: 'Leave this ride out of my bests and training load' }),
    );
    await waitFor(() => expect(patches.at(-1)).toEqual({ exclude_from_bests: true }));
    expect(patches).toHaveLength(5);
  });

  it('says when to try again once the corrections limit is met, and changes nothing', async () => {
    signIn();
    const patches = stubApi();
    const answer = globalThis.fetch;
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) =>
      init?.method === 'PATCH'
        ? Promise.resolve(
            new Response(
              JSON.stringify({
                code: 10302,
                msg: 'too_many_attempts',
                detail: 'Too many corrections of rides: each one analyses the ride again.',
              }),
              { status: 429, headers: { 'retry-after': '540' } },
            ),
          )
        : answer(url, init),
    );
    renderPortal('/dashboard/workouts/share/7', english);
    await screen.findByRole('heading', { name: 'Triathlon bike' });
    fireEvent.click(screen.getByRole('button', { name: 'Keep them' }));
    expect(
      await screen.findByText('Too many attempts. Please try again in 9 minutes.'),
    ).toBeTruthy();
    expect(patches).toEqual([]);
  });
});
