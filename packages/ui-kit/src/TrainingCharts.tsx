import { useState, type PointerEvent, type ReactNode } from 'react';
import { Group } from '@visx/group';
import { Bar, LinePath } from '@visx/shape';
import { useLocale, useT } from '@xoss/i18n/react';
import { AxisBottom, AxisLeft } from './Axis.tsx';
import { bandScale, linearScale } from './scales.ts';
import { dateTicks, labelRoom } from './dateTicks.ts';
import { chartColors } from './chartColors.ts';
import { useElementWidth } from './useElementWidth.ts';

const MARGIN = { top: 12, right: 16, bottom: 28, left: 52 };

const dateFormat = (locale: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options });
const utc = (day: string) => new Date(`${day}T00:00:00Z`);

/** One day of the performance management chart. */
export interface FitnessPoint {
  /** `YYYY-MM-DD` (UTC). */
  readonly day: string;
  readonly ctl: number;
  readonly atl: number;
  readonly form: number;
}

export interface FitnessChartProps {
  readonly title: string;
  readonly days: readonly FitnessPoint[];
  readonly height?: number;
}

const FITNESS_LINES = [
  { key: 'ctl', label: 'training.ctl', color: chartColors.fitness, dashed: false },
  { key: 'atl', label: 'training.atl', color: chartColors.fatigue, dashed: true },
  { key: 'form', label: 'training.form', color: chartColors.form, dashed: false },
] as const;

/**
 * Fitness (CTL), fatigue (ATL) and form (CTL − ATL) day by day; hovering reads all three on
 * one day. Form is drawn on the same axis, below zero when fatigue exceeds fitness.
 */
export function FitnessChart({ title, days, height = 280 }: FitnessChartProps) {
  const t = useT();
  const locale = useLocale();
  const [ref, width] = useElementWidth<HTMLDivElement>(640);
  const [hover, setHover] = useState<number | null>(null);
  const innerWidth = Math.max(10, width - MARGIN.left - MARGIN.right);
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const values = days.flatMap((day) => [day.ctl, day.atl, day.form]);
  const yScale = linearScale({
    domain: [Math.min(0, ...values), Math.max(10, ...values)],
    range: [innerHeight, 0],
    nice: true,
  });
  const xScale = linearScale({
    domain: [0, Math.max(1, days.length - 1)],
    range: [0, innerWidth],
  });
  // Lines thinned to about one point per pixel; the read-out uses every day.
  const step = Math.max(1, Math.floor(days.length / innerWidth));
  const points = days
    .map((day, index) => ({ day, index }))
    .filter(({ index }) => index % step === 0 || index === days.length - 1);
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  // Distinct dates that fit the width (a phone's 360 px over 20 years reads years).
  const firstDay = days[0] ? utc(days[0].day).getTime() : 0;
  const lastDay = days.length > 0 ? utc(days[days.length - 1]!.day).getTime() : 0;
  const ticks = dateTicks(firstDay, lastDay, innerWidth, locale);
  const tickIndices = ticks.values
    .map((time) => {
      // Days are consecutive; the search is for a series with gaps.
      const guess = Math.round((time - firstDay) / 86_400_000);
      return days[guess] && utc(days[guess].day).getTime() === time
        ? guess
        : days.findIndex((day) => utc(day.day).getTime() === time);
    })
    .filter((index) => index >= 0 && xScale(index) <= innerWidth - 12);
  const long = dateFormat(locale, { dateStyle: 'medium' });
  const shown = hover ?? days.length - 1;
  const current = days[shown];
  const onMove = (event: PointerEvent<SVGRectElement>) => {
    const pixel = event.clientX - event.currentTarget.getBoundingClientRect().left;
    setHover(Math.max(0, Math.min(days.length - 1, Math.round(xScale.invert(pixel)))));
  };
  return (
    <figure className="xoss-curve xoss-root" ref={ref}>
      <figcaption>
        {/* The title and the day read out make one line of their own, above the legend's
            figures: as separate items of the caption's row, the date's separator ended up
            alone between the title and the figures. */}
        <span className="xoss-curve__title">
          <strong>{title}</strong>
          {current ? <time dateTime={current.day}>{long.format(utc(current.day))}</time> : null}
        </span>
        <ul className="xoss-curve__legend">
          {FITNESS_LINES.map((line) => (
            <li key={line.key} data-dashed={line.dashed}>
              <svg width="20" height="8" aria-hidden="true">
                <line
                  x1="0"
                  x2="20"
                  y1="4"
                  y2="4"
                  stroke={line.color}
                  strokeWidth="2"
                  strokeDasharray={line.dashed ? '4 3' : undefined}
                />
              </svg>
              {t(line.label)}
              {current ? <output> {number.format(current[line.key])}</output> : null}
            </li>
          ))}
        </ul>
      </figcaption>
      <svg width={width} height={height} role="img" aria-label={title}>
        <Group left={MARGIN.left} top={MARGIN.top}>
          <line
            x1={0}
            x2={innerWidth}
            y1={yScale(0)}
            y2={yScale(0)}
            stroke="currentColor"
            strokeOpacity={0.3}
          />
          {FITNESS_LINES.map((line) => (
            <LinePath
              key={line.key}
              data={points}
              x={(point) => xScale(point.index)}
              y={(point) => yScale(point.day[line.key])}
              stroke={line.color}
              strokeWidth={2}
              strokeDasharray={line.dashed ? '5 4' : undefined}
            />
          ))}
          <AxisLeft scale={yScale} numTicks={5} tickFormat={(v) => number.format(v)} />
          <AxisBottom
            top={innerHeight}
            scale={xScale}
            tickValues={tickIndices}
            tickFormat={(v) => {
              const day = days[Math.round(Number(v))];
              return day ? ticks.format(utc(day.day).getTime()) : '';
            }}
          />
          {hover !== null ? (
            <line
              className="xoss-streams__crosshair"
              x1={xScale(hover)}
              x2={xScale(hover)}
              y1={0}
              y2={innerHeight}
            />
          ) : null}
          <rect
            width={innerWidth}
            height={innerHeight}
            fill="transparent"
            onPointerMove={onMove}
            onPointerLeave={() => setHover(null)}
          />
        </Group>
      </svg>
    </figure>
  );
}

/** One bar: a week or a month and its total. */
export interface TotalsBar {
  /** First day of the period, `YYYY-MM-DD`. */
  readonly start: string;
  readonly value: number;
}

export interface TotalsChartProps {
  readonly title: string;
  readonly period: 'week' | 'month';
  readonly bars: readonly TotalsBar[];
  /** The value as shown (in the rider's units): `1,234 km`, `5:30 h`. */
  readonly format: (value: number) => string;
  readonly height?: number;
}

/**
 * Weekly or monthly totals as bars, with a table of the same figures for screen readers and
 * for reading exact values (the chart is `aria-hidden`).
 */
export function TotalsChart({ title, period, bars, format, height = 220 }: TotalsChartProps) {
  const t = useT();
  const locale = useLocale();
  const [ref, width] = useElementWidth<HTMLDivElement>(640);
  const innerWidth = Math.max(10, width - MARGIN.left - MARGIN.right);
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const xScale = bandScale({
    domain: bars.map((bar) => bar.start),
    range: [0, innerWidth],
    padding: 0.2,
  });
  const yScale = linearScale({
    domain: [0, Math.max(1, ...bars.map((bar) => bar.value))],
    range: [innerHeight, 0],
    nice: true,
  });
  const label = dateFormat(
    locale,
    period === 'month' ? { month: 'short' } : { day: 'numeric', month: 'short' },
  );
  // As many labels as fit their longest text in this language ("29 de dez." is wider than
  // "Dec 29"), never closer than 48 px.
  const longest = Math.max(0, ...bars.map((bar) => label.format(utc(bar.start)).length));
  const room = Math.max(48, labelRoom(longest));
  const every = Math.max(1, Math.ceil(bars.length / Math.max(1, Math.floor(innerWidth / room))));
  return (
    <figure className="xoss-curve xoss-root" ref={ref}>
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      <svg width={width} height={height} aria-hidden="true">
        <Group left={MARGIN.left} top={MARGIN.top}>
          {bars.map((bar) => (
            <Bar
              key={bar.start}
              x={xScale(bar.start)}
              y={yScale(bar.value)}
              width={xScale.bandwidth()}
              height={innerHeight - yScale(bar.value)}
              fill="var(--xoss-color-brand)"
            >
              <title>{`${label.format(utc(bar.start))}: ${format(bar.value)}`}</title>
            </Bar>
          ))}
          <AxisLeft scale={yScale} numTicks={4} tickFormat={(v) => format(v)} />
          <AxisBottom
            top={innerHeight}
            scale={xScale}
            tickValues={bars.filter((_, i) => i % every === 0).map((bar) => bar.start)}
            tickFormat={(start) => label.format(utc(start))}
          />
        </Group>
      </svg>
      <table className="xoss-visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{t(period === 'month' ? 'training.month' : 'training.week')}</th>
            <th scope="col">{title}</th>
          </tr>
        </thead>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.start}>
              <th scope="row">{label.format(utc(bar.start))}</th>
              <td>{format(bar.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** A day of the calendar with what to show in its cell. */
export interface CalendarDay {
  /** `YYYY-MM-DD` (UTC). */
  readonly day: string;
  readonly content: ReactNode;
}

export interface TrainingCalendarProps {
  /** Accessible name: "November 2026". */
  readonly title: string;
  /** Whole weeks, Monday to Sunday (a multiple of 7 days), in order. */
  readonly days: readonly CalendarDay[];
  /** What each week's last column shows (its totals), one per 7 days. */
  readonly weekTotals: readonly ReactNode[];
  /** Days outside this month (`YYYY-MM`) are dimmed; omit for a week view. */
  readonly month?: string;
  /** The day to mark as today. */
  readonly today?: string;
}

/**
 * The training log as a table: a row per week (Monday first), a cell per day with its
 * rides, and the week's totals in the last column. On a phone (640 px and less) each week
 * becomes a card of its own with a line per day ("Mon 3" and its rides) and the totals
 * last, as the training logs of Strava and intervals.icu read on a phone: eight columns on
 * 360 px left a letter per line.
 */
export function TrainingCalendar({ title, days, weekTotals, month, today }: TrainingCalendarProps) {
  const t = useT();
  const locale = useLocale();
  const weekday = dateFormat(locale, { weekday: 'short' });
  const dayNumber = dateFormat(locale, { day: 'numeric' });
  const full = dateFormat(locale, { dateStyle: 'full' });
  const weeks: CalendarDay[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  return (
    <table className="xoss-calendar xoss-table xoss-root">
      <caption>{title}</caption>
      <thead>
        <tr>
          {(weeks[0] ?? []).map((day) => (
            <th key={day.day} scope="col">
              {weekday.format(utc(day.day))}
            </th>
          ))}
          <th scope="col">{t('training.weekTotal')}</th>
        </tr>
      </thead>
      <tbody>
        {weeks.map((week, index) => (
          <tr key={week[0]!.day}>
            {week.map((day) => (
              <td
                key={day.day}
                data-weekday={weekday.format(utc(day.day))}
                data-outside={month !== undefined && !day.day.startsWith(month)}
                aria-current={day.day === today ? 'date' : undefined}
              >
                <time dateTime={day.day} aria-label={full.format(utc(day.day))}>
                  {dayNumber.format(utc(day.day))}
                </time>
                {day.content}
              </td>
            ))}
            <td className="xoss-calendar__total" data-label={t('training.weekTotal')}>
              {weekTotals[index]}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
