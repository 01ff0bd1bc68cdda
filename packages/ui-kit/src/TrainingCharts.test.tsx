import { cleanup, screen, within } from '@testing-library/react';
import { fitnessSeries } from '@xoss/workout-stats';
import { afterEach, describe, expect, it } from 'vitest';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';
import { FitnessChart, TotalsChart, TrainingCalendar } from './TrainingCharts.tsx';

afterEach(cleanup);

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('FitnessChart', () => {
  it("reads out the last day's fitness, fatigue and form", async () => {
    const days = fitnessSeries([100, 0, 80, 120, 0, 0, 60]).map((day, i) => ({
      ...day,
      day: iso(Date.UTC(2026, 10, 1) + i * DAY_MS),
    }));
    const { container } = await renderIn(
      <div style={{ width: 600 }}>
        <FitnessChart title="Fitness, fatigue and form" days={days} />
      </div>,
    );
    const last = days[days.length - 1]!;
    const items = within(container.querySelector('ul')!).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      `Fitness (CTL) ${Math.round(last.ctl)}`,
      `Fatigue (ATL) ${Math.round(last.atl)}`,
      `Form (TSB) ${Math.round(last.form)}`,
    ]);
    expect(screen.getByRole('img', { name: 'Fitness, fatigue and form' })).toBeTruthy();
    await expectAccessible(container);
  });
});

describe('TotalsChart', () => {
  it('lists every bar in a table with its formatted value', async () => {
    const bars = Array.from({ length: 12 }, (_, i) => ({
      start: `2026-${String(i + 1).padStart(2, '0')}-01`,
      value: i * 10,
    }));
    const { container } = await renderIn(
      <TotalsChart title="Distance" period="month" bars={bars} format={(value) => `${value} km`} />,
    );
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(12);
    expect(rows[3]!.textContent).toBe('Apr30 km');
    expect(container.querySelectorAll('rect')).toHaveLength(12);
    await expectAccessible(container);
  });
});

describe('TrainingCalendar', () => {
  it('shows a row per week, Monday first, with its totals and today marked', async () => {
    const days = Array.from({ length: 14 }, (_, i) => ({
      day: iso(Date.UTC(2026, 10, 2) + i * DAY_MS),
      content: i === 3 ? <p>Evening ride</p> : null,
    }));
    const { container } = await renderIn(
      <TrainingCalendar
        title="November 2026"
        days={days}
        weekTotals={['1 ride', 'No rides']}
        month="2026-11"
        today="2026-11-05"
      />,
    );
    const table = screen.getByRole('table', { name: 'November 2026' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers[0]!.textContent).toBe('Mon');
    expect(headers[7]!.textContent).toBe('Week total');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.lastElementChild!.textContent).toBe('1 ride');
    const today = container.querySelector('[aria-current="date"]')!;
    expect(today.textContent).toBe('5Evening ride');
    await expectAccessible(container);
  });
});
