import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { addDays, dayOf } from '@xoss/workout-stats';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderPortal, resetPortal, signIn } from '../testing.tsx';

// Every period picker of the training pages means what it says: "All time" starts at the
// first ride, and the year pickers offer the years that have rides, and only those.

let english: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
});
afterEach(() => {
  resetPortal();
  vi.restoreAllMocks();
});

const today = dayOf(Date.now());
const thisYear = Number(today.slice(0, 4));
/** The rider's first ride, 17 years ago. */
const FIRST_DAY = `${thisYear - 17}-03-04`;
/** The past years the rider rode in (the API's `years_with_rides`): gaps between them. */
const PAST_YEARS = [thisYear - 1, thisYear - 5, thisYear - 6, thisYear - 12, thisYear - 17];

/** The rider's newest ride (id 41), as the workouts list gives it. */
const ride = (start: string) => ({
  id: 41,
  name: 'Morning ride',
  sport_type: 2,
  start_time: start,
  indoor: false,
  distance_m: 30_000,
  moving_time_s: 3600,
  timer_time_s: 3600,
  total_time_s: 3700,
  speed_avg_ms: 8.3,
  hr_avg: null,
  power_avg: null,
  elevation_gain_m: 200,
  tss: null,
  shared: false,
});

const json = (data: unknown) =>
  new Response(JSON.stringify({ code: 0, msg: 'ok', data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

/**
 * The training API as the server answers it for a rider whose first ride was FIRST_DAY and
 * who rode in PAST_YEARS, and this year unless `latestRide` says when the newest ride was.
 */
function stubApi(latestRide = `${today}T07:00:00Z`) {
  const asked: URL[] = [];
  vi.stubGlobal('fetch', (address: string) => {
    const url = new URL(address, 'http://portal.test');
    asked.push(url);
    const query = Object.fromEntries(url.searchParams);
    const to = query.to ?? addDays(today, 1);
    switch (url.pathname) {
      case '/api/v2/training/fitness/':
        return Promise.resolve(
          json({ from: query.from ?? FIRST_DAY, to, first_day: FIRST_DAY, days: [] }),
        );
      case '/api/v2/training/efficiency/':
        return Promise.resolve(
          json({ from: query.from ?? addDays(to, -365), to, points: [], pending: 0 }),
        );
      case '/api/v2/training/totals/':
        return Promise.resolve(json({ year: Number(query.year), period: 'week', periods: [] }));
      case '/api/v2/training/bests/':
        // A runner's half marathon of 1:35:00, for the running bests only.
        return Promise.resolve(
          json({
            year: null,
            efforts:
              query.sport === 'run'
                ? [
                    {
                      effort: 'run_time_21098m',
                      bests: [
                        {
                          rank: 1,
                          value: 5700,
                          workout_id: 9,
                          name: 'City half',
                          start_time: '2025-04-06T08:00:00Z',
                        },
                      ],
                    },
                  ]
                : [],
          }),
        );
      case '/api/v2/training/ftp/':
        return Promise.resolve(
          json({
            estimate: null,
            rule: 'twenty',
            ftp: null,
            weight_kg: null,
            suggestion: null,
            history: [],
          }),
        );
      case '/api/v2/training/log/':
        return Promise.resolve(json({ from: query.from, to: query.to, days: [], weeks: [] }));
      case '/api/v2/athlete/5/':
        return Promise.resolve(json({ id: 5, name: 'Rider', settings: { weight_kg: null } }));
      case '/api/v2/training/climbs/':
        return Promise.resolve(json({ climbs: [], pending: 0 }));
      case '/api/v2/workouts/':
        return Promise.resolve(
          json({
            count: 1,
            next: null,
            previous: null,
            results: [ride(latestRide)],
          }),
        );
      case '/api/v2/workouts/41/power-curve/':
        return Promise.resolve(
          json({
            power: null,
            speed: null,
            compare: 'none',
            comparison: null,
            ftp_estimate: null,
            years_with_rides: PAST_YEARS,
          }),
        );
      default:
        return Promise.resolve(json({ count: 0, next: null, previous: null, results: [] }));
    }
  });
  return asked;
}

const rideYears = [thisYear, ...PAST_YEARS].map(String);
const optionsOf = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('the bests page', () => {
  it('shows a runner’s bests apart from a rider’s when asked', async () => {
    const asked = stubApi();
    signIn();
    renderPortal('/dashboard/training/bests', english);
    await screen.findByText('No efforts yet: import rides with power or distance.');
    fireEvent.change(screen.getByLabelText('Bests of'), { target: { value: 'run' } });
    const row = (await screen.findByText(/half marathon/)).closest('tr')!;
    expect(row.textContent).toContain('1:35:00');
    expect(row.textContent).toContain('City half');
    expect(
      asked.filter((url) => url.pathname === '/api/v2/training/bests/').map((url) => url.search),
    ).toEqual(['', '?sport=run']);
  });
});

describe('the fitness page without rides', () => {
  it('says what is missing and what to do instead of drawing flat zero lines', async () => {
    stubApi();
    signIn();
    renderPortal('/dashboard/training/fitness', english);
    expect(
      await screen.findByRole('heading', { name: 'No training load in this period' }),
    ).toBeDefined();
    expect(screen.getByRole('link', { name: 'Import activity file' }).getAttribute('href')).toBe(
      '/dashboard/workouts/list',
    );
    expect(screen.queryByText('Fitness (CTL)')).toBeNull();
  });
});

describe('the training pages’ periods', () => {
  it("asks the efficiency trend of all time from the rider's first ride", async () => {
    const asked = stubApi();
    signIn();
    renderPortal('/dashboard/training/fitness', english);
    fireEvent.change(await screen.findByLabelText('Period'), { target: { value: 'all' } });
    await waitFor(() =>
      expect(
        asked.some(
          (url) =>
            url.pathname === '/api/v2/training/efficiency/' &&
            url.searchParams.get('from') === FIRST_DAY &&
            url.searchParams.get('to') === addDays(today, 1),
        ),
      ).toBe(true),
    );
    // Never the API's default year.
    expect(
      asked.filter(
        (url) => url.pathname === '/api/v2/training/efficiency/' && !url.searchParams.has('from'),
      ),
    ).toEqual([]);
  });

  it("offers the years with rides, and only those, in the training log's totals", async () => {
    stubApi();
    signIn();
    renderPortal('/dashboard/training/log', english);
    await screen.findByRole('heading', { name: `Totals of ${thisYear}` });
    const year = screen.getByLabelText('Year');
    await waitFor(() => expect(optionsOf(year)).toEqual(rideYears));
    fireEvent.change(year, { target: { value: String(thisYear - 17) } });
    await screen.findByRole('heading', { name: `Totals of ${thisYear - 17}` });
  });

  it('starts the totals at the newest year with rides when this year has none', async () => {
    const asked = stubApi(`${thisYear - 1}-09-12T07:00:00Z`);
    signIn();
    renderPortal('/dashboard/training/log', english);
    await screen.findByRole('heading', { name: `Totals of ${thisYear - 1}` });
    // The newest ride up to today (a ride dated ahead by an unset clock is not this year's).
    const list = asked.find((url) => url.pathname === '/api/v2/workouts/')!;
    expect(list.searchParams.get('to')).toBe(addDays(today, 1));
    await waitFor(() =>
      expect(optionsOf(screen.getByLabelText('Year'))).toEqual(PAST_YEARS.map(String)),
    );
    // This year's totals, which have no rides, are never asked for.
    expect(
      asked.filter(
        (url) =>
          url.pathname === '/api/v2/training/totals/' &&
          url.searchParams.get('year') === String(thisYear),
      ),
    ).toEqual([]);
  });

  it('offers all time and every year with rides on the bests page', async () => {
    const asked = stubApi();
    signIn();
    renderPortal('/dashboard/training/bests', english);
    const year = await screen.findByLabelText('Year');
    await waitFor(() => expect(optionsOf(year)).toEqual(['All time', ...rideYears]));
    fireEvent.change(year, { target: { value: String(thisYear - 5) } });
    await waitFor(() =>
      expect(
        asked.some(
          (url) =>
            url.pathname === '/api/v2/training/bests/' &&
            url.searchParams.get('year') === String(thisYear - 5),
        ),
      ).toBe(true),
    );
  });
});
