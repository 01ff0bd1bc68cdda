import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { addDays, dayOf } from '@xoss/workout-stats';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderPortal, resetPortal, signIn } from '../testing.tsx';

// Every period picker of the training pages means what it says: "All time" starts at the
// first ride, and the year pickers offer every year since then.

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

const json = (data: unknown) =>
  new Response(JSON.stringify({ code: 0, msg: 'ok', data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

/** The training API as the server answers it for a rider whose first ride was FIRST_DAY. */
function stubApi() {
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
        return Promise.resolve(json({ efforts: [] }));
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
      default:
        return Promise.resolve(json({ count: 0, next: null, previous: null, results: [] }));
    }
  });
  return asked;
}

const everyYear = Array.from({ length: 18 }, (_, back) => String(thisYear - back));
const optionsOf = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((option) => option.textContent);

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

  it("offers every year since the first ride in the training log's totals", async () => {
    stubApi();
    signIn();
    renderPortal('/dashboard/training/log', english);
    await screen.findByRole('heading', { name: `Totals of ${thisYear}` });
    const year = screen.getByLabelText('Year');
    await waitFor(() => expect(optionsOf(year)).toEqual(everyYear));
    fireEvent.change(year, { target: { value: String(thisYear - 17) } });
    await screen.findByRole('heading', { name: `Totals of ${thisYear - 17}` });
  });

  it('offers all time and every year since the first ride on the bests page', async () => {
    stubApi();
    signIn();
    renderPortal('/dashboard/training/bests', english);
    const year = await screen.findByLabelText('Year');
    await waitFor(() => expect(optionsOf(year)).toEqual(['All time', ...everyYear]));
  });
});
