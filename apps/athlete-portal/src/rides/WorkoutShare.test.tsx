import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { StreamsReply, WorkoutBestsReply, WorkoutDetail } from '@xoss/api-contract';
import { loadMessages } from '@xoss/i18n';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { client } from '../client.ts';
import {
  openAt,
  answerApi,
  renderPortal,
  resetPortal,
  sessionEndsOn,
  signIn,
  signInAgain,
  uncorrected,
} from '../testing.tsx';

let english: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
});
afterEach(resetPortal);

const summary: WorkoutDetail['summary'] = {
  distance_m: 40,
  estimated_distance_m: 40,
  total_time_s: 4,
  timer_time_s: 4,
  moving_time_s: 4,
  paused_time_s: 0,
  stopped_time_s: 0,
  speed_avg_ms: 10,
  speed_max_ms: 10,
  hr_avg: 141.5,
  hr_max: 143,
  power_avg: 200,
  power_max: 220,
  np: null,
  if: null,
  tss: null,
  cadence_avg: 90.5,
  cadence_max: 91,
  calories_kcal: null,
  calories_source: null,
  elevation_gain_m: 1,
  elevation_loss_m: 0,
  elevation_source: null,
  distance_source: null,
  np_source: null,
  grade_max: null,
  grade_min: null,
  lr_balance_left: null,
  torque_effectiveness: null,
  pedal_smoothness: null,
  removed_samples: null,
  tss_method: null,
};

/** The owner's detail of a ride shared by link, power shown on the shared page too. */
const sharedRide = {
  id: 7,
  name: 'Morning ride',
  sport_type: 2,
  start_time: '2026-05-01T07:00:00Z',
  indoor: false,
  distance_m: 40,
  moving_time_s: 4,
  timer_time_s: 4,
  total_time_s: 4,
  speed_avg_ms: 10,
  hr_avg: 141,
  power_avg: 200,
  elevation_gain_m: 1,
  tss: null,
  shared: true,
  share_id: 'Abc_def-1234567890',
  notes: '',
  laps: [],
  share_heart_rate: true,
  share_power: true,
  summary,
  device_summary: {},
  hr_zones: [],
  power_zones: [],
  ftp: null,
  ftp_source: null,
  max_hr: null,
  max_hr_source: null,
  sessions: [],
  damage: null,
  file_format: 'fit',
  bounds: null,
  ...uncorrected,
} as unknown as WorkoutDetail;

const streams: StreamsReply = {
  length: 4,
  streams: {
    time: [0, 1, 2, 3],
    speed: [10, 10, 10, 10],
    altitude: [5, 5, 6, 6],
    heart_rate: [140, 141, 142, 143],
    cadence: [90, 90, 91, 91],
    power: [180, 200, 220, 200],
  },
};

/** The owner's ride API: the detail, its streams (full power) and its bests. */
function stubApi(
  ride: WorkoutDetail = sharedRide,
  bests: WorkoutBestsReply = { year: 2026, efforts: [], ftp_suggestion: null },
) {
  answerApi(({ pathname: path }) =>
    path.endsWith('/streams/')
      ? streams
      : path.endsWith('/bests/')
        ? bests
        : path === '/api/v2/workouts/7/'
          ? ride
          : undefined,
  );
}

/**
 * The viewport as on a shared ride at 1280x800: the share link and its choices push the last
 * panel (power) more than a screen below it, and nothing scrolls (a page printed or captured
 * whole), so the observer never reports that panel; every other element is in view.
 */
function stubViewport() {
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      readonly report: (entries: unknown[]) => void;
      constructor(report: (entries: unknown[]) => void) {
        this.report = report;
      }
      observe(target: Element) {
        const beyond = target.querySelector('figcaption')?.textContent?.startsWith('Power');
        queueMicrotask(() => this.report([{ target, isIntersecting: !beyond }]));
      }
      unobserve() {}
      disconnect() {}
    },
  );
}

const panelOf = (title: string) =>
  [...document.querySelectorAll('.xoss-streams__panel')].find((panel) =>
    panel.querySelector('figcaption')?.textContent?.startsWith(title),
  );

describe('the owner’s ride page', () => {
  it('draws the power chart of a shared ride whose power panel lies beyond the first screen', async () => {
    stubApi();
    stubViewport();
    client.session.setTokens({ access: 'a', refresh: 'r' });
    renderPortal('/dashboard/workouts/share/7', english);
    // The owner's page of a shared ride: its share link and choices are there.
    expect(await screen.findByRole('heading', { name: 'Morning ride' })).toBeDefined();
    expect(
      await screen.findByRole('checkbox', { name: 'Show power on the shared page' }),
    ).toBeDefined();
    // The panels above it are drawn as they come into view.
    await waitFor(() => expect(panelOf('Cadence')?.querySelector('path')).not.toBeNull());
    // The power panel gets its plot too: an area through the four samples, with its axes.
    await waitFor(() => {
      const power = panelOf('Power');
      const area = power?.querySelector('path')?.getAttribute('d') ?? '';
      expect(area.match(/[ML][\d.]+,[\d.]+/g)?.length ?? 0).toBeGreaterThanOrEqual(4);
      expect(power?.querySelectorAll('.xoss-axis').length).toBe(2);
    });
  });
});

/** The portal at `path`, signed in, in English. */
function renderSignedIn(path: string) {
  client.session.setTokens({ access: 'a', refresh: 'r' });
  return renderPortal(path, english);
}

const lap: WorkoutDetail['laps'][number] = {
  start_s: 0,
  timer_time_s: 4,
  elapsed_time_s: 4,
  distance_m: 40,
  speed_avg_ms: 10,
  speed_max_ms: 10,
  hr_avg: 141,
  hr_max: 143,
  power_avg: 200,
  power_max: 220,
  cadence_avg: 90,
  elevation_gain_m: 1,
};

/** Whether `first` comes before `second` in the page. */
const before = (first: Element, second: Element) =>
  (first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;

describe('the ride page’s order', () => {
  it('opens with the name, notes, figures and charts; laps and best efforts follow, each named once', async () => {
    stubApi(
      {
        ...sharedRide,
        notes: 'Climbed the pass.\nHeadwind home <b>all</b> the way.',
        laps: [lap],
      },
      {
        year: 2026,
        efforts: [{ effort: 'power_5s', value: 812, year_rank: 2, all_time_rank: 5 }],
        ftp_suggestion: null,
      },
    );
    stubViewport();
    renderSignedIn('/dashboard/workouts/share/7');
    const name = await screen.findByRole('heading', { name: 'Morning ride', level: 1 });
    const bests = await screen.findByRole('table', { name: 'Best efforts of this ride' });
    const laps = await screen.findByRole('table', { name: /^1 lap/ });
    const figures = screen.getByRole('heading', { name: 'Statistics of the whole ride' });
    const charts = screen.getByRole('slider', { name: 'Ride charts' });
    const notes = document.querySelector('.portal__ride-notes')!;
    // Name, notes, figures, charts, then (after the intervals and climbs of the analysis) the
    // laps and the bests, then the owner's controls.
    const order = [name, notes, figures, charts, laps, bests];
    for (let i = 1; i < order.length; i++) expect(before(order[i - 1]!, order[i]!)).toBe(true);
    expect(before(bests, screen.getByRole('link', { name: 'Power curve' }))).toBe(true);
    // The best efforts are named once: their heading, not a caption repeating it.
    expect(screen.getAllByText('Best efforts of this ride')).toHaveLength(1);
    expect(bests.querySelector('caption')).toBeNull();
    // The table comes before the list of top-3 marks.
    expect(before(bests, screen.getByTestId('ride-best-marks'))).toBe(true);
    // The notes keep their line break and show markup as the text it is.
    expect(notes.textContent).toBe('Notes: Climbed the pass.\nHeadwind home <b>all</b> the way.');
    expect(notes.querySelector('b')).toBeNull();
  });
});

describe('the power curve of a ride', () => {
  it('names the ride it belongs to and links back to it', async () => {
    stubApi();
    const router = renderSignedIn('/dashboard/workouts/powerCurve/7');
    await screen.findByRole('heading', { name: 'Power curve', level: 1 });
    const back = await screen.findByRole('link', { name: 'Back to the ride: Morning ride' });
    expect(back.getAttribute('href')).toBe('/dashboard/workouts/share/7');
    back.click();
    await screen.findByRole('heading', { name: 'Morning ride', level: 1 });
    expect(router.state.location.pathname).toBe('/dashboard/workouts/share/7');
  });
});

describe('editing a ride when the session ends', () => {
  it('keeps the name and notes typed and offers them back on the ride after the next login', async () => {
    stubApi();
    stubViewport();
    signIn();
    openAt('/dashboard/workouts/share/7', english);
    await screen.findByRole('heading', { name: 'Morning ride', level: 1 });
    const manage = () => screen.getByRole('region', { name: 'Manage this ride' });
    fireEvent.click(within(manage()).getByRole('button', { name: 'Edit' }));
    fireEvent.change(within(manage()).getByLabelText('Name'), {
      target: { value: 'Pass in the rain' },
    });
    fireEvent.change(within(manage()).getByLabelText('Notes'), {
      target: { value: 'Wet descent.\nNew tyres held.' },
    });
    sessionEndsOn('PATCH', '/api/v2/workouts/7/');
    fireEvent.click(within(manage()).getByRole('button', { name: 'Save' }));
    await signInAgain();

    stubApi();
    openAt('/dashboard/workouts/share/7', english);
    await screen.findByRole('heading', { name: 'Morning ride', level: 1 });
    const offer = await screen.findByText('Restore your unsaved changes?');
    expect(within(manage()).getByLabelText<HTMLInputElement>('Name').value).toBe('Morning ride');
    fireEvent.click(within(offer.parentElement!).getByRole('button', { name: 'Restore' }));
    expect(within(manage()).getByLabelText<HTMLInputElement>('Name').value).toBe(
      'Pass in the rain',
    );
    expect(within(manage()).getByLabelText<HTMLTextAreaElement>('Notes').value).toBe(
      'Wet descent.\nNew tyres held.',
    );
    // Offered once.
    expect(screen.queryByText('Restore your unsaved changes?')).toBeNull();
  });

  it('offers nothing when the form was not edited', async () => {
    stubApi();
    stubViewport();
    signIn();
    openAt('/dashboard/workouts/share/7', english);
    await screen.findByRole('heading', { name: 'Morning ride', level: 1 });
    const manage = screen.getByRole('region', { name: 'Manage this ride' });
    fireEvent.click(within(manage).getByRole('button', { name: 'Edit' }));
    sessionEndsOn('PATCH', '/api/v2/workouts/7/');
    fireEvent.click(within(manage).getByRole('button', { name: 'Save' }));
    await signInAgain();
    stubApi();
    openAt('/dashboard/workouts/share/7', english);
    await screen.findByRole('heading', { name: 'Morning ride', level: 1 });
    expect(screen.queryByText('Restore your unsaved changes?')).toBeNull();
    expect(screen.queryByLabelText('Notes')).toBeNull();
  });
});

describe('long lists on the ride page', () => {
  it('shows the first 5 of 20 laps and all of them on "Show all 20"', async () => {
    const laps = Array.from({ length: 20 }, (_, i) => ({
      ...lap,
      start_s: i * 4,
      distance_m: 1000 + i,
    }));
    stubApi({ ...sharedRide, laps });
    stubViewport();
    renderSignedIn('/dashboard/workouts/share/7');
    const table = await screen.findByRole('table', { name: /^20 laps/ });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 5);
    const more = screen.getByRole('button', { name: 'Show all 20' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(more);
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 20);
    fireEvent.click(screen.getByRole('button', { name: 'Show fewer' }));
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 5);
  });

  it('shows every lap of a short list, with nothing to unfold', async () => {
    stubApi({ ...sharedRide, laps: Array.from({ length: 7 }, (_, i) => ({ ...lap, start_s: i })) });
    stubViewport();
    renderSignedIn('/dashboard/workouts/share/7');
    const table = await screen.findByRole('table', { name: /^7 laps/ });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 7);
    expect(screen.queryByRole('button', { name: /^Show all/ })).toBeNull();
  });
});

describe('the figures of a ride', () => {
  it('show the intensity factor beside the normalized power and the TSS', async () => {
    stubApi({ ...sharedRide, summary: { ...summary, np: 212, if: 0.848, tss: 4.2 } });
    stubViewport();
    renderSignedIn('/dashboard/workouts/share/7');
    const heading = await screen.findByRole('heading', { name: 'Statistics of the whole ride' });
    const figures = [...heading.parentElement!.querySelectorAll('dt')].map((term) => [
      term.textContent,
      term.nextElementSibling?.textContent,
    ]);
    const np = figures.findIndex(([term]) => term === 'Normalized power (NP)');
    expect(figures[np]).toEqual(['Normalized power (NP)', '212\u00a0W']);
    expect(figures[np + 1]).toEqual(['Intensity factor (IF)', '0.85']);
    expect(figures[np + 2]).toEqual(['Training stress score (TSS)', '4.2']);
  });
});
