import { cleanup, screen, within } from '@testing-library/react';
import { fitnessSeries } from '@xoss/workout-stats';
import { afterEach, describe, expect, it } from 'vitest';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';
import { FitnessChart, TotalsChart, TrainingCalendar } from './TrainingCharts.tsx';
import { TrendChart } from './TrendChart.tsx';

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

  it('puts its title and day on a line of their own, above the figures, with no stray dot', async () => {
    const days = fitnessSeries([100, 0, 80, 120, 0, 0, 60]).map((day, i) => ({
      ...day,
      day: iso(Date.UTC(2026, 10, 1) + i * DAY_MS),
    }));
    const { container } = await renderIn(
      <div style={{ width: 600 }}>
        <FitnessChart title="Fitness, fatigue and form" days={days} />
      </div>,
    );
    const caption = container.querySelector('figcaption')!;
    expect(caption.textContent).not.toContain('·');
    const title = caption.querySelector('strong')!;
    const date = caption.querySelector('time')!;
    expect(date.dateTime).toBe('2026-11-07');
    expect(date.textContent).toBe('Nov 7, 2026');
    // The day reads on the title's line; every figure of the legend sits below it.
    const titleBox = title.getBoundingClientRect();
    expect(Math.abs(date.getBoundingClientRect().top - titleBox.top)).toBeLessThan(titleBox.height);
    for (const item of caption.querySelectorAll('li'))
      expect(item.getBoundingClientRect().top).toBeGreaterThanOrEqual(titleBox.bottom);
  });
});

/** The bottom axis' labels: their texts, and whether any two boxes overlap. */
function bottomLabels(container: HTMLElement) {
  const texts = [...container.querySelectorAll('.xoss-axis--bottom text')];
  const boxes = texts.map((text) => text.getBoundingClientRect());
  const overlapping = boxes.some((box, i) => i > 0 && box.left < boxes[i - 1]!.right + 2);
  return { labels: texts.map((text) => text.textContent), overlapping };
}

describe('date axes on a phone (360 px)', () => {
  it('labels 20 years of fitness with distinct dates that do not overlap', async () => {
    const start = Date.UTC(2006, 10, 14);
    const days = fitnessSeries(Array.from({ length: 7_300 }, (_, i) => (i % 3 === 0 ? 80 : 0))).map(
      (day, i) => ({ ...day, day: iso(start + i * DAY_MS) }),
    );
    const { container } = await renderIn(
      <div style={{ width: 360 }}>
        <FitnessChart title="Fitness, fatigue and form" days={days} />
      </div>,
    );
    const { labels, overlapping } = bottomLabels(container);
    expect(labels.length).toBeGreaterThanOrEqual(2);
    expect(new Set(labels).size).toBe(labels.length);
    expect(overlapping).toBe(false);
    // Twenty years read as years.
    for (const label of labels) expect(label).toMatch(/^\d{4}$/);
  });

  it('labels rides of three days, two on one day, with distinct dates', async () => {
    const points = [
      [1, 7],
      [1, 18],
      [2, 9],
      [3, 17],
    ].map(([day, hour], i) => ({
      date: new Date(Date.UTC(2026, 4, day, hour)).toISOString(),
      value: 1.4 + i / 50,
    }));
    const { container } = await renderIn(
      <div style={{ width: 360 }}>
        <TrendChart
          title="Efficiency factor"
          points={points}
          pointLabel="Ride"
          meanLabel="Mean of 5 rides"
          format={(value) => value.toFixed(2)}
        />
      </div>,
    );
    const { labels, overlapping } = bottomLabels(container);
    expect(labels.length).toBeGreaterThanOrEqual(2);
    expect(new Set(labels).size).toBe(labels.length);
    expect(overlapping).toBe(false);
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

  it('reads on a 360 px phone in every language: a card per week, no word broken', async () => {
    const { page } = await import('vitest/browser');
    await page.viewport(360, 800);
    try {
      const days = Array.from({ length: 14 }, (_, i) => ({
        day: iso(Date.UTC(2026, 10, 2) + i * DAY_MS),
        content:
          i === 3 ? (
            <ul>
              <li>Evening ride 1:02:03 · 31.4 km</li>
            </ul>
          ) : null,
      }));
      for (const language of ['de', 'es', 'it', 'pt-BR', 'ja', 'ko', 'zh-CN', 'zh-TW', 'en-US']) {
        const { container, unmount } = await renderIn(
          <TrainingCalendar
            title="November 2026"
            days={days}
            weekTotals={['1 ride', 'No rides']}
            month="2026-11"
            today="2026-11-05"
          />,
          language,
        );
        const cells = [...container.querySelectorAll('tbody td')] as HTMLElement[];
        expect(cells).toHaveLength(16);
        // A day per line: Monday and Tuesday of a week are one above the other, full width.
        const [monday, tuesday] = cells.map((cell) => cell.getBoundingClientRect());
        expect(tuesday!.top, language).toBeGreaterThanOrEqual(monday!.bottom - 1);
        expect(monday!.width, language).toBeGreaterThan(300);
        // The weekday and the week total's label are read in full on one line each.
        const probe = document.createElement('span');
        container.append(probe);
        for (const cell of cells) {
          const label = getComputedStyle(cell, '::before').content.replace(/^"|"$/g, '');
          probe.style.font = getComputedStyle(cell).font;
          probe.textContent = label;
          expect(label.length, language).toBeGreaterThan(0);
          expect(probe.getBoundingClientRect().width, `${language} ${label}`).toBeLessThan(
            cell.clientWidth,
          );
        }
        expect(container.scrollWidth, language).toBeLessThanOrEqual(360);
        unmount();
      }
    } finally {
      await page.viewport(1280, 800);
    }
  });
});
