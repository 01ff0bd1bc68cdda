import type { Meta, StoryObj } from '@storybook/react-vite';
import { fitnessSeries, seededRandom } from '@xoss/workout-stats';
import { FitnessChart, TotalsChart, TrainingCalendar } from './TrainingCharts.tsx';
import { TrendChart } from './TrendChart.tsx';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const random = seededRandom(23);
// A year of training: rides on about four days a week, a block of build and a rest week.
const start = Date.UTC(2026, 0, 1);
const tss = Array.from({ length: 365 }, (_, i) =>
  random() < 0.55 ? (i % 28 < 21 ? 60 + random() * 90 : 30) : 0,
);
const days = fitnessSeries(tss).map((day, i) => ({ ...day, day: iso(start + i * DAY_MS) }));

const meta = {
  title: 'Training/Fitness chart',
  component: FitnessChart,
  subcomponents: { TotalsChart, TrainingCalendar, TrendChart },
  args: { title: 'Fitness, fatigue and form', days },
} satisfies Meta<typeof FitnessChart>;
export default meta;
type Story = StoryObj<typeof meta>;

export const OneYear: Story = {};
export const NinetyDays: Story = { args: { days: days.slice(-90) } };
export const NoRides: Story = {
  args: { days: days.slice(0, 30).map((day) => ({ ...day, ctl: 0, atl: 0, form: 0 })) },
};

// Efficiency factor of about 80 rides over a year: slowly rising, with a ride-to-ride spread.
const efficiency = days
  .filter((_, i) => i % 4 === 0)
  .map((day, i) => ({ date: day.day, value: 1.3 + i * 0.003 + (random() - 0.5) * 0.2 }));
export const EfficiencyTrend: StoryObj<typeof TrendChart> = {
  render: () => (
    <TrendChart
      title="Efficiency factor"
      points={efficiency}
      pointLabel="Ride"
      meanLabel="Mean of 5 rides"
      format={(value) => value.toFixed(2)}
    />
  ),
};

export const WeeklyDistance: StoryObj<typeof TotalsChart> = {
  render: () => (
    <TotalsChart
      title="Distance per week"
      period="week"
      bars={Array.from({ length: 53 }, (_, i) => ({
        start: iso(Date.UTC(2025, 11, 29) + i * 7 * DAY_MS),
        value: Math.round(80 + 120 * Math.abs(Math.sin(i / 6))),
      }))}
      format={(value) => `${value} km`}
    />
  ),
};

export const MonthlyTime: StoryObj<typeof TotalsChart> = {
  render: () => (
    <TotalsChart
      title="Time per month"
      period="month"
      bars={Array.from({ length: 12 }, (_, i) => ({
        start: `2026-${String(i + 1).padStart(2, '0')}-01`,
        value: 20 + 15 * Math.sin(i / 2),
      }))}
      format={(value) => `${Math.round(value)} h`}
    />
  ),
};

const monthDays = Array.from({ length: 42 }, (_, i) => iso(Date.UTC(2026, 9, 26) + i * DAY_MS));
export const MonthCalendar: StoryObj<typeof TrainingCalendar> = {
  render: () => (
    <TrainingCalendar
      title="November 2026"
      month="2026-11"
      today="2026-11-18"
      days={monthDays.map((day, i) => ({
        day,
        content:
          i % 3 === 0 ? (
            <ul>
              <li>
                <a href="#ride">Morning ride</a> 1:32 h · 45.2 km · TSS 78
              </li>
            </ul>
          ) : null,
      }))}
      weekTotals={Array.from({ length: 6 }, (_, i) => `${3 + (i % 2)} rides · ${120 + i * 10} km`)}
    />
  ),
};

export const WeekView: StoryObj<typeof TrainingCalendar> = {
  render: () => (
    <TrainingCalendar
      title="Week of 16 November 2026"
      days={monthDays.slice(21, 28).map((day) => ({ day, content: <p>1:05 h · 30.1 km</p> }))}
      weekTotals={['4 rides · 151 km']}
    />
  ),
};
