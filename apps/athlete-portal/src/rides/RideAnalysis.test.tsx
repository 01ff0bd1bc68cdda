import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type {
  BestClimbsReply,
  EfficiencyReply,
  PowerModelReply,
  StreamsReply,
  WorkoutAnalysis,
  WorkoutDetail,
} from '@xoss/api-contract';
import { loadMessages } from '@xoss/i18n';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { client } from '../client.ts';
import { answerApi, renderPortal, resetPortal, uncorrected } from '../testing.tsx';

let english: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
});
afterEach(resetPortal);

const summary = {
  distance_m: 6000,
  estimated_distance_m: 6000,
  total_time_s: 600,
  timer_time_s: 600,
  moving_time_s: 600,
  paused_time_s: 0,
  stopped_time_s: 0,
  speed_avg_ms: 10,
  speed_max_ms: 12,
  hr_avg: 150,
  hr_max: 170,
  power_avg: 230,
  power_max: 400,
  np: 250,
  if: null,
  tss: 20,
  cadence_avg: 90,
  cadence_max: 100,
  calories_kcal: null,
  calories_source: null,
  elevation_gain_m: 60,
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
} as WorkoutDetail['summary'];

const rideOf = (id: number, name: string) =>
  ({
    id,
    name,
    sport_type: 2,
    start_time: '2026-05-01T07:00:00Z',
    indoor: false,
    distance_m: 6000,
    moving_time_s: 600,
    timer_time_s: 600,
    total_time_s: 600,
    speed_avg_ms: 10,
    hr_avg: 150,
    power_avg: 230,
    elevation_gain_m: 60,
    tss: 20,
    shared: false,
    share_id: null,
    notes: '',
    laps: [],
    share_heart_rate: true,
    share_power: true,
    summary,
    device_summary: {},
    hr_zones: [],
    power_zones: [],
    ftp: 250,
    ftp_source: 'settings',
    max_hr: null,
    max_hr_source: null,
    sessions: [],
    damage: null,
    file_format: 'fit',
    bounds: null,
    ...uncorrected,
  }) as unknown as WorkoutDetail;

/** Ten minutes, one sample every 10 s: a climb from 2:00 to 5:00, W' lowest at 4:00. */
const time = Array.from({ length: 61 }, (_, i) => i * 10);
const fullStreams: StreamsReply['streams'] = {
  time,
  speed: time.map(() => 10),
  altitude: time.map((s) => (s < 120 ? 100 : s < 300 ? 100 + (s - 120) / 3 : 160)),
  heart_rate: time.map((s) => 140 + s / 30),
  cadence: time.map(() => 90),
  power: time.map((s) => (s >= 180 && s < 300 ? 350 : 200)),
  latitude: time.map((s) => 47 + s / 10_000),
  longitude: time.map((s) => 8 + s / 10_000),
  w_bal: time.map((s) => (s < 180 ? 20_000 : s <= 240 ? 20_000 - (s - 180) * 100 : 14_000)),
};

const climb = {
  start_s: 120,
  end_s: 300,
  start_distance_m: 1200,
  end_distance_m: 3000,
  length_m: 1800,
  gain_m: 60,
  avg_grade_pct: 3.3,
  vam_m_h: 1200,
  duration_s: 180,
  avg_power_w: 300,
  score: 6000,
  category: null,
  parent: null,
} as const;

const fullAnalysis: WorkoutAnalysis = {
  model_source: 'ftp',
  cp_w: 250,
  w_prime_j: 20_000,
  ftp_w: 250,
  threshold_source: 'settings',
  intervals: [
    {
      start_s: 180,
      end_s: 300,
      duration_s: 120,
      avg_power_w: 350,
      np_w: 352,
      avg_hr: 160,
      avg_cadence: 92,
      w_bal_end_j: 14_000,
    },
  ],
  climbs: [climb],
  matches: [{ start_s: 180, end_s: 300, joules: 6000, min_j: 14_000 }],
  w_bal_min_j: 14_000,
  decoupling_pct: 3.42,
  efficiency_factor: 1.67,
};

/** A ride without power or elevation: heart rate and speed only. */
const flatStreams: StreamsReply['streams'] = {
  time,
  speed: time.map(() => 8),
  heart_rate: time.map(() => 130),
  latitude: time.map((s) => 47 + s / 10_000),
  longitude: time.map((s) => 8 + s / 10_000),
};
const flatAnalysis: WorkoutAnalysis = {
  model_source: null,
  cp_w: null,
  w_prime_j: null,
  ftp_w: null,
  threshold_source: null,
  intervals: [],
  climbs: [],
  matches: [],
  w_bal_min_j: null,
  decoupling_pct: null,
  efficiency_factor: null,
};

const model: PowerModelReply = {
  window: '42d',
  from: '2026-03-20',
  to: '2026-05-01',
  workouts: 12,
  cp_w: 262,
  w_prime_j: 18_400,
  pmax_w: 980,
  eftp_w: 268,
  fitted_from: 60,
  fitted_to: 1200,
  points_used: 40,
  reason: null,
};

interface Api {
  streams?: StreamsReply['streams'];
  analysis?: WorkoutAnalysis;
  extra?: Record<string, unknown>;
}

/** The API as the pages call it; every call's address is kept, in order. */
/** The streams a call asks for (`streams=`), as the API answers: only those. */
const asked = (all: StreamsReply['streams'], names: string | null): StreamsReply['streams'] =>
  names === null
    ? all
    : Object.fromEntries(Object.entries(all).filter(([name]) => names.split(',').includes(name)));

/**
 * The intervals' table. The panels below the charts are a chunk of their own: its first
 * import in a test run compiles it, which can take more than a second on a busy machine.
 */
const intervalsTable = () => screen.findByRole('table', { name: '1 interval' });

function stubApi({ streams = fullStreams, analysis = fullAnalysis, extra = {} }: Api = {}) {
  const calls: URL[] = [];
  answerApi((address) => {
    calls.push(address);
    const path = address.pathname;
    const ride = /^\/api\/v2\/workouts\/(\d+)\//.exec(path);
    const id = Number(ride?.[1] ?? 0);
    return (
      extra[path] ??
      (path.endsWith('/streams/')
        ? {
            length: streams.time!.length,
            streams: asked(id === 9 ? flatStreams : streams, address.searchParams.get('streams')),
          }
        : path.endsWith('/analysis/')
          ? analysis
          : path.endsWith('/range/')
            ? { summary: { ...summary, timer_time_s: 120 } }
            : path.endsWith('/bests/')
              ? { year: 2026, efforts: [], ftp_suggestion: null }
              : path.endsWith('/power-curve/')
                ? {
                    power: { durations: [1, 60, 600], values: [500, 320, 240] },
                    speed: { durations: [1, 60, 600], values: [12, 11, 10] },
                    compare: address.searchParams.get('compare') ?? 'none',
                    comparison: null,
                    ftp_estimate: null,
                    years_with_rides: [],
                    ...(address.searchParams.get('include')
                      ? {
                          heart_rate: { durations: [1, 60, 600], values: [175, 170, 160] },
                          pace: { durations: [1, 60, 600], values: [90, 95, 100] },
                        }
                      : {}),
                  }
                : path === '/api/v2/training/power-model/'
                  ? { ...model, window: address.searchParams.get('window') ?? '42d' }
                  : path === '/api/v2/training/power-model/history/'
                    ? { points: [{ ...model, date: '2026-04-30' }] }
                    : path === '/api/v2/workouts/'
                      ? { count: 0, next: null, previous: null, results: [] }
                      : ride && path === `/api/v2/workouts/${id}/`
                        ? rideOf(id, id === 8 ? 'Evening ride' : 'Morning ride')
                        : undefined)
    );
  });
  return calls;
}

/** Every element in view at once: all panels draw. */
function stubViewport() {
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      readonly report: (entries: unknown[]) => void;
      constructor(report: (entries: unknown[]) => void) {
        this.report = report;
      }
      observe(target: Element) {
        queueMicrotask(() => this.report([{ target, isIntersecting: true }]));
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

/** Whether the ride's analysis call has been answered (in the store's cache). */
const analysisSettled = () =>
  Object.values(client.store.getState().xossApi.queries).some(
    (entry) => entry?.endpointName === 'workoutAnalysis' && entry.data !== undefined,
  );

function renderSignedIn(path: string) {
  client.session.setTokens({ access: 'a', refresh: 'r' });
  return renderPortal(path, english);
}

/** The figures of the statistics card, by label. */
const figure = (label: string) => {
  const card = document.querySelector('section[aria-labelledby="range-stats"]')!;
  const term = [...card.querySelectorAll('dt')].find((dt) => dt.textContent === label);
  return term?.nextElementSibling?.textContent;
};

describe('the ride page’s analysis', () => {
  it('asks for the analysis, the W′ balance and the bests once the page is scrolled below the charts', async () => {
    const calls = stubApi();
    // A phone's first screen: nothing below the charts is in view until `scroll()`.
    const watched: { target: Element; report: (entries: unknown[]) => void }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        readonly report: (entries: unknown[]) => void;
        constructor(report: (entries: unknown[]) => void) {
          this.report = report;
        }
        observe(target: Element) {
          watched.push({ target, report: this.report });
        }
        unobserve() {}
        disconnect() {}
      },
    );
    renderSignedIn('/dashboard/workouts/share/7');
    await screen.findByRole('slider', { name: 'Ride charts' });
    await waitFor(() => expect(watched.length).toBeGreaterThan(0));
    const callsTo = (ending: string) => calls.filter((call) => call.pathname.endsWith(ending));
    // The first screen: the ride and its streams, without the W' balance.
    expect(callsTo('/streams/').map((call) => call.searchParams.get('streams'))).toEqual([
      'time,speed,altitude,heart_rate,cadence,power,latitude,longitude,smo2,thb',
    ]);
    expect(callsTo('/analysis/')).toEqual([]);
    expect(callsTo('/bests/')).toEqual([]);
    expect(screen.queryByRole('table', { name: '1 interval' })).toBeNull();
    expect(panelOf('W′ balance')).toBeUndefined();
    // Scrolled to below the charts: everything there arrives.
    act(() => {
      for (const { target, report } of watched) report([{ target, isIntersecting: true }]);
    });
    await intervalsTable();
    await waitFor(() => expect(panelOf('W′ balance')).toBeDefined());
    expect(callsTo('/analysis/')).toHaveLength(1);
    expect(callsTo('/bests/')).toHaveLength(1);
    expect(callsTo('/streams/').map((call) => call.searchParams.get('streams'))).toContain(
      'time,w_bal',
    );
    expect(figure('Efficiency factor (EF)')).toBe('1.67');
  });

  it("draws the W' balance with its CP, W' and lowest point, and the analysis figures", async () => {
    stubApi();
    stubViewport();
    renderSignedIn('/dashboard/workouts/share/7');
    await intervalsTable();
    await waitFor(() => {
      const panel = panelOf('W′ balance');
      const line = panel?.querySelector('path')?.getAttribute('d') ?? '';
      expect(line.match(/[ML][\d.]+,[\d.]+/g)?.length ?? 0).toBeGreaterThanOrEqual(10);
    });
    const panel = panelOf('W′ balance')!;
    expect(panel.querySelector('figcaption')!.textContent).toContain(
      'CP 250\u00a0W · W′ 20.0\u00a0kJ (from your FTP)',
    );
    expect(panel.querySelector('.xoss-streams__marker text')?.textContent).toBe(
      'lowest 14.0\u00a0kJ',
    );
    expect(figure('Matches burnt')).toBe('1');
    expect(figure('Aerobic decoupling')).toBe('3.4\u00a0%');
    expect(figure('Efficiency factor (EF)')).toBe('1.67');
  });

  it('zooms the charts and the range figures to an interval chosen in its table', async () => {
    const calls = stubApi();
    stubViewport();
    renderSignedIn('/dashboard/workouts/share/7');
    const table = await intervalsTable();
    const cells = within(table)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual([
      '0:03:00',
      '0:02:00',
      '350\u00a0W',
      '352\u00a0W',
      '160\u00a0bpm',
      '92\u00a0rpm',
      '14.0\u00a0kJ',
    ]);
    const range = () => document.querySelector('.xoss-streams__range')?.textContent;
    expect(range()).toBe('0:00 – 10:00');
    fireEvent.click(within(table).getByRole('button', { name: 'Zoom to interval 1' }));
    await screen.findByRole('heading', { name: 'Statistics of the selected range' });
    // The charts show the interval, as after a drag, and Undo zoom goes back.
    expect(range()).toBe('3:00 – 4:50');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Undo zoom' }).disabled).toBe(
      false,
    );
    // The range figures are of the interval's exact seconds.
    await waitFor(() => expect(figure('Time')).toBe('0:02:00'));
    const asked = calls.filter((call) => call.pathname.endsWith('/range/'));
    expect(
      asked.map((call) => [call.searchParams.get('from'), call.searchParams.get('to')]),
    ).toEqual([['180', '300']]);
    // The W' balance is asked for apart, with the analysis, on the charts' points.
    const streams = calls.filter((call) => call.pathname.endsWith('/streams/'));
    expect(streams[0]!.searchParams.get('streams')?.split(',')).not.toContain('w_bal');
    const wBal = streams.find((call) => call.searchParams.get('streams') === 'time,w_bal')!;
    expect(wBal.searchParams.get('points')).toBe(streams[0]!.searchParams.get('points'));
    fireEvent.click(screen.getByRole('button', { name: 'Reset zoom' }));
    await screen.findByRole('heading', { name: 'Statistics of the whole ride' });
  });

  it('heads a cropped ride’s figures with the part of the recording they are of', async () => {
    stubApi({
      extra: {
        '/api/v2/workouts/7/': {
          ...rideOf(7, 'Morning ride'),
          crop: { start_s: 600, end_s: 6000 },
        },
      },
    });
    stubViewport();
    renderSignedIn('/dashboard/workouts/share/7');
    await screen.findByRole('heading', {
      name: 'Statistics of the cropped ride (0:10:00 to 1:40:00 of the recording)',
    });
    expect(screen.queryByRole('heading', { name: 'Statistics of the whole ride' })).toBeNull();
  });

  it('lists the climbs, shades each on the elevation chart and zooms to a chosen one', async () => {
    stubApi();
    stubViewport();
    renderSignedIn('/dashboard/workouts/share/7');
    const table = await screen.findByRole('table', { name: '1 climb' });
    expect(
      within(table)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '1.80\u00a0km',
      '60\u00a0m',
      '3.3\u00a0%',
      '1,200\u00a0m/h',
      '0:03:00',
      '300\u00a0W',
      '—',
    ]);
    const band = () => panelOf('Elevation')?.querySelector('.xoss-streams__band');
    await waitFor(() => expect(band()).toBeTruthy());
    expect(band()!.getAttribute('data-active')).toBe('false');
    // Only the elevation panel is shaded.
    expect(panelOf('Power')?.querySelector('.xoss-streams__band')).toBeNull();
    fireEvent.click(within(table).getByRole('button', { name: 'Zoom to climb 1' }));
    await screen.findByRole('heading', { name: 'Statistics of the selected range' });
    expect(band()!.getAttribute('data-active')).toBe('true');
    expect(document.querySelector('.xoss-streams__range')?.textContent).toBe('2:00 – 4:50');
    expect(
      within(table).getByRole('button', { name: 'Zoom to climb 1' }).getAttribute('aria-pressed'),
    ).toBe('true');
  });

  it('marks a climb nested in another as the steeper part of that one', async () => {
    const ramp = { ...climb, start_s: 150, end_s: 240, length_m: 700, parent: 0 };
    stubApi({ analysis: { ...fullAnalysis, climbs: [climb, ramp] } });
    stubViewport();
    renderSignedIn('/dashboard/workouts/share/7');
    const table = await screen.findByRole('table', { name: '2 climbs' });
    const heads = within(table).getAllByRole('rowheader');
    expect(heads.map((head) => head.textContent)).toEqual(['1', '2 steeper part of climb 1']);
  });

  it('says when the FTP of the intervals and W′ balance is an estimate, and from what', async () => {
    const estimated = { ftp_w: 231.4, cp_w: 231.4, model_source: 'estimate' as const };
    const cases = [
      ['ride', estimated, "from this ride's best efforts", '(estimated from this ride)'],
      [
        'history',
        estimated,
        'from your best efforts of the six weeks before this ride',
        '(estimated from your recent rides)',
      ],
      [
        'model',
        { ...estimated, model_source: 'model' as const, cp_w: 240 },
        "from your rides' power model",
        '(from your power curve)',
      ],
    ] as const;
    for (const [source, head, note, title] of cases) {
      stubApi({ analysis: { ...fullAnalysis, ...head, threshold_source: source } });
      stubViewport();
      renderSignedIn('/dashboard/workouts/share/7');
      await intervalsTable();
      const shown = document.querySelector('[data-estimated-ftp]');
      expect(shown?.getAttribute('data-estimated-ftp')).toBe(source);
      expect(shown?.textContent).toBe(
        `Intervals measured against an estimated FTP of 231\u00a0W ${note}.`,
      );
      await waitFor(() => expect(panelOf('W′ balance')).toBeTruthy());
      expect(panelOf('W′ balance')!.querySelector('figcaption')!.textContent).toContain(title);
      resetPortal();
    }
    // The rider's own FTP is no estimate: no such note.
    stubApi();
    stubViewport();
    renderSignedIn('/dashboard/workouts/share/7');
    await intervalsTable();
    expect(document.querySelector('[data-estimated-ftp]')).toBeNull();
  });

  it('shows no W′ balance or intervals without power, and no climbs without elevation', async () => {
    stubApi({ analysis: flatAnalysis });
    stubViewport();
    renderSignedIn('/dashboard/workouts/share/9');
    await screen.findByRole('heading', { name: 'Morning ride', level: 1 });
    await waitFor(() => expect(panelOf('Heart rate')?.querySelector('path')).toBeTruthy());
    // The analysis has arrived, and left nothing to show.
    await waitFor(() => expect(analysisSettled()).toBe(true));
    expect(panelOf('W′ balance')).toBeUndefined();
    expect(screen.queryByRole('table', { name: /interval/ })).toBeNull();
    expect(screen.queryByRole('table', { name: /climb/ })).toBeNull();
    expect(document.querySelector('.xoss-streams__band')).toBeNull();
    expect(figure('Matches burnt')).toBeUndefined();
  });
});

describe('the power curve page’s model', () => {
  it('draws the model over the ride’s curve with its figures, per window, and the history', async () => {
    const calls = stubApi();
    renderSignedIn('/dashboard/workouts/powerCurve/7');
    const figures = await screen.findByTestId('model-figures');
    expect([...figures.querySelectorAll('dd')].map((dd) => dd.textContent)).toEqual([
      '262\u00a0W',
      '18.4\u00a0kJ',
      '980\u00a0W',
      '268\u00a0W',
    ]);
    const legend = document.querySelector('.xoss-curve__legend')!;
    expect(legend.textContent).toContain('Model');
    // Ride and model: two lines in the chart.
    expect(document.querySelectorAll('.xoss-curve svg[role="img"] path').length).toBe(2);
    fireEvent.change(screen.getByLabelText('Fitted to'), { target: { value: 'season' } });
    await waitFor(() =>
      expect(
        calls.some(
          (call) =>
            call.pathname === '/api/v2/training/power-model/' &&
            call.searchParams.get('window') === 'season',
        ),
      ).toBe(true),
    );
    const history = await screen.findByRole('table', { name: 'CP and W′ by month' });
    expect(
      within(history)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['262\u00a0W', '18.4\u00a0kJ']);
    // Heart rate and pace curves are asked for when chosen.
    fireEvent.change(screen.getByLabelText('Curve'), { target: { value: 'pace' } });
    await screen.findByRole('img', { name: /Pace curve/ });
    expect(calls.some((call) => call.searchParams.get('include') === 'heart_rate,pace')).toBe(true);
  });
});

describe('comparing two rides', () => {
  it('overlays both rides’ streams, their power curves and their figures side by side', async () => {
    stubApi();
    stubViewport();
    renderSignedIn('/dashboard/workouts/compare?a=7&b=8');
    const figures = await screen.findByRole('table', { name: 'Key figures' });
    expect(
      within(figures)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Figure', 'Morning ride', 'Evening ride']);
    expect(
      screen.getByRole('link', { name: 'Evening ride (dashed line)' }).getAttribute('href'),
    ).toBe('/dashboard/workouts/share/8');
    await waitFor(() =>
      expect(panelOf('Power')?.querySelector('path[data-overlay="true"]')).toBeTruthy(),
    );
    await screen.findByRole('img', { name: /Power curves/ });
  });

  it('asks for two rides when the address names fewer', async () => {
    stubApi();
    renderSignedIn('/dashboard/workouts/compare?a=7');
    await screen.findByText('Choose two of your rides to compare.');
  });
});

describe('the training pages’ analysis', () => {
  it('draws the EF and decoupling trend on the fitness page', async () => {
    const efficiency: EfficiencyReply = {
      from: '2026-01-01',
      to: '2026-05-02',
      points: [1, 2, 3, 4, 5, 6].map((i) => ({
        workout_id: i,
        date: `2026-0${Math.ceil(i / 2)}-1${i}`,
        efficiency_factor: 1.4 + i * 0.02,
        decoupling_pct: i === 3 ? null : 6 - i * 0.5,
      })),
      pending: 2,
    };
    stubApi({
      extra: {
        '/api/v2/training/efficiency/': efficiency,
        '/api/v2/training/fitness/': { from: '2026-01-01', to: '2026-05-02', days: [] },
      },
    });
    renderSignedIn('/dashboard/training/fitness');
    const ef = await screen.findByRole('img', { name: 'Efficiency factor (EF)' });
    expect(ef.querySelectorAll('.xoss-trend__point')).toHaveLength(6);
    const decoupling = screen.getByRole('img', { name: 'Aerobic decoupling (%)' });
    expect(decoupling.querySelectorAll('.xoss-trend__point')).toHaveLength(5);
    expect(screen.getAllByText('Mean of the last 5 rides')).toHaveLength(2);
    screen.getByText(/2 older rides are still being analysed/);
  });

  it('lists the best climbs on the bests page with links to their rides', async () => {
    const climbs: BestClimbsReply = {
      climbs: [
        { ...climb, workout_id: 7, name: 'Morning ride', start_time: '2026-05-01T07:00:00Z' },
      ],
      pending: 0,
    };
    stubApi({
      extra: {
        '/api/v2/training/climbs/': climbs,
        '/api/v2/training/bests/': { efforts: [] },
        '/api/v2/training/ftp/': {
          estimate: null,
          rule: 'twenty',
          ftp: null,
          weight_kg: null,
          suggestion: null,
          history: [],
        },
      },
    });
    renderSignedIn('/dashboard/training/bests');
    await screen.findByRole('heading', { name: 'Best climbs' });
    const link = await screen.findByRole('link', { name: 'Morning ride' });
    expect(link.getAttribute('href')).toBe('/dashboard/workouts/share/7');
    const row = link.closest('tr')!;
    expect(within(row).getAllByRole('cell')[0]!.textContent).toBe('1.80\u00a0km');
  });
});

describe('picking two rides to compare in the ride list', () => {
  it('links to the compare page once two rides are ticked, the last two ticked', async () => {
    const list = {
      count: 3,
      next: null,
      previous: null,
      results: [7, 8, 9].map((id) => ({ ...rideOf(id, `Ride ${id}`), summary: undefined })),
    };
    stubApi({ extra: { '/api/v2/workouts/': list } });
    renderSignedIn('/dashboard/workouts/list');
    const tick = async (name: string) =>
      fireEvent.click(await screen.findByRole('checkbox', { name: `Compare ${name}` }));
    await screen.findByText('Tick two rides to compare them.');
    await tick('Ride 7');
    expect(screen.queryByRole('link', { name: 'Compare the two selected rides' })).toBeNull();
    await tick('Ride 8');
    await tick('Ride 9');
    const link = screen.getByRole('link', { name: 'Compare the two selected rides' });
    expect(link.getAttribute('href')).toBe('/dashboard/workouts/compare?a=8&b=9');
  });
});
