import { cleanup } from '@testing-library/react';
import { textLanguages } from '@xoss/i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { renderIn } from './testing/render.tsx';
import { fitnessSeries } from '@xoss/workout-stats';
import { FitnessChart, TotalsChart } from './TrainingCharts.tsx';
import { TrendChart } from './TrendChart.tsx';

afterEach(cleanup);

// The charts' date axes on a 360 px phone in each of the nine languages: no two labels
// overlap, whatever the language's month names make of their width.

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Whether any two labels of the bottom axis overlap (with 2 px to spare). */
function overlaps(container: HTMLElement) {
  const boxes = [...container.querySelectorAll('.xoss-axis--bottom text')].map((text) =>
    text.getBoundingClientRect(),
  );
  return boxes.some((box, i) => i > 0 && box.left < boxes[i - 1]!.right + 2);
}

describe('totals at 360 px in every language', () => {
  for (const language of textLanguages)
    it(`labels 53 weeks and 12 months without overlap in ${language}`, async () => {
      const weeks = Array.from({ length: 53 }, (_, i) => ({
        start: iso(Date.UTC(2025, 11, 29) + i * 7 * DAY_MS),
        value: (i * 37) % 200,
      }));
      const months = Array.from({ length: 12 }, (_, i) => ({
        start: iso(Date.UTC(2026, i, 1)),
        value: (i * 37) % 900,
      }));
      for (const [period, bars] of [
        ['week', weeks],
        ['month', months],
      ] as const) {
        const { container } = await renderIn(
          <div style={{ width: 360 }}>
            <TotalsChart title="Distance" period={period} bars={bars} format={(v) => `${v} km`} />
          </div>,
          language,
        );
        expect(overlaps(container), `${period}`).toBe(false);
        cleanup();
      }
    });
});

describe('fitness and efficiency at 360 px in every language', () => {
  const fitnessOver = (days: number) =>
    fitnessSeries(Array.from({ length: days }, (_, i) => (i % 3 === 0 ? 80 : 0))).map((day, i) => ({
      ...day,
      day: iso(Date.UTC(2026, 0, 1) - (days - i) * DAY_MS),
    }));
  for (const language of textLanguages)
    it(`labels 90 days, 1 year and 20 years of fitness, and rides of a season, in ${language}`, async () => {
      for (const days of [90, 365, 7_300]) {
        const { container } = await renderIn(
          <div style={{ width: 360 }}>
            <FitnessChart title="Fitness" days={fitnessOver(days)} />
          </div>,
          language,
        );
        expect(overlaps(container), `${days} days`).toBe(false);
        cleanup();
      }
      const points = Array.from({ length: 40 }, (_, i) => ({
        date: new Date(Date.UTC(2026, 2, 1) + i * 4 * DAY_MS).toISOString(),
        value: 1.3 + (i % 7) / 50,
      }));
      const { container } = await renderIn(
        <div style={{ width: 360 }}>
          <TrendChart
            title="EF"
            points={points}
            pointLabel="Ride"
            meanLabel="Mean"
            format={(value) => value.toFixed(2)}
          />
        </div>,
        language,
      );
      expect(overlaps(container), 'trend').toBe(false);
    });
});
