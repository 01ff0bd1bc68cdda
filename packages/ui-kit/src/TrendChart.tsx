import { useMemo, useState, type PointerEvent, type ReactNode } from 'react';
import { Group } from '@visx/group';
import { LinePath } from '@visx/shape';
import { useLocale } from '@xoss/i18n/react';
import { AxisBottom, AxisLeft } from './Axis.tsx';
import { chartColors } from './chartColors.ts';
import { dateTicks } from './dateTicks.ts';
import { linearScale } from './scales.ts';
import { useElementWidth } from './useElementWidth.ts';

/** One ride's value on a day (`YYYY-MM-DD` or a full ISO time, read as UTC). */
export interface TrendPoint {
  readonly date: string;
  readonly value: number;
}

export interface TrendChartProps {
  /** Accessible name and caption: "Efficiency factor". */
  readonly title: string;
  readonly points: readonly TrendPoint[];
  /** What the rolling mean is called in the legend ("Mean of 5 rides"). */
  readonly meanLabel: ReactNode;
  /** What a single ride's dot is called in the legend ("Ride"). */
  readonly pointLabel: ReactNode;
  /** How many rides the rolling mean spans (itself and the ones before). */
  readonly window?: number;
  /** A value as shown, with its unit (`1.52`, `4.1 %`). */
  readonly format: (value: number) => string;
  readonly color?: string;
  readonly height?: number;
}

const MARGIN = { top: 12, right: 16, bottom: 28, left: 52 };
const timeOf = (date: string) => Date.parse(date.length === 10 ? `${date}T00:00:00Z` : date);

/** The mean of each point and the `window - 1` before it (fewer at the start). */
function rollingMean(values: readonly number[], window: number): number[] {
  const size = Math.max(1, Math.floor(window));
  const means: number[] = [];
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i]!;
    if (i >= size) sum -= values[i - size]!;
    means.push(sum / Math.min(i + 1, size));
  }
  return means;
}

/**
 * A figure per ride over time (efficiency factor, aerobic decoupling): a dot for each ride on
 * its date and the rolling mean of the last `window` rides as a line, so a trend shows
 * through the day-to-day spread. Hovering reads the nearest ride and the mean there.
 */
export function TrendChart({
  title,
  points,
  meanLabel,
  pointLabel,
  window = 5,
  format,
  color = chartColors.fitness,
  height = 220,
}: TrendChartProps) {
  const locale = useLocale();
  const [ref, width] = useElementWidth<HTMLDivElement>(640);
  const [hover, setHover] = useState<number | null>(null);
  const innerWidth = Math.max(10, width - MARGIN.left - MARGIN.right);
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const sorted = useMemo(
    () => [...points].sort((a, b) => timeOf(a.date) - timeOf(b.date)),
    [points],
  );
  const means = useMemo(
    () =>
      rollingMean(
        sorted.map((point) => point.value),
        window,
      ),
    [sorted, window],
  );
  const times = sorted.map((point) => timeOf(point.date));
  const first = times[0] ?? 0;
  const last = Math.max(first + 86_400_000, times[times.length - 1] ?? 0);
  const xScale = linearScale({ domain: [first, last], range: [0, innerWidth] });
  const values = sorted.map((point) => point.value);
  const low = Math.min(...values, 0);
  const high = Math.max(...values, 1e-9);
  const yScale = linearScale({
    domain: [low < 0 ? low * 1.1 : 0, high * 1.1],
    range: [innerHeight, 0],
    nice: true,
  });
  const long = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', dateStyle: 'medium' });
  const shown = hover ?? sorted.length - 1;
  const current = sorted[shown];
  const onMove = (event: PointerEvent<SVGRectElement>) => {
    if (sorted.length === 0) return;
    const pixel = event.clientX - event.currentTarget.getBoundingClientRect().left;
    const at = xScale.invert(Math.max(0, Math.min(innerWidth, pixel)));
    let nearest = 0;
    for (let i = 1; i < times.length; i++)
      if (Math.abs(times[i]! - at) < Math.abs(times[nearest]! - at)) nearest = i;
    setHover(nearest);
  };
  const line = sorted.map((point, index) => ({ x: times[index]!, y: means[index]! }));
  // Distinct dates that fit the width: two rides of one day, or ticks closer than a label,
  // never repeat or overlap a date.
  const xTicks = dateTicks(first, last, innerWidth, locale);
  return (
    <figure className="xoss-curve xoss-root" ref={ref}>
      <figcaption>
        <span className="xoss-curve__title">
          <strong>{title}</strong>
          {current ? (
            <time dateTime={current.date}>{long.format(timeOf(current.date))}</time>
          ) : null}
        </span>
        <ul className="xoss-curve__legend">
          <li>
            <svg width="20" height="8" aria-hidden="true">
              <circle cx="10" cy="4" r="3" fill={color} fillOpacity={0.5} />
            </svg>
            {pointLabel}
            {current ? <output> {format(current.value)}</output> : null}
          </li>
          <li>
            <svg width="20" height="8" aria-hidden="true">
              <line x1="0" x2="20" y1="4" y2="4" stroke={color} strokeWidth="2" />
            </svg>
            {meanLabel}
            {current ? <output> {format(means[shown]!)}</output> : null}
          </li>
        </ul>
      </figcaption>
      <svg width={width} height={height} role="img" aria-label={title}>
        <Group left={MARGIN.left} top={MARGIN.top}>
          {sorted.map((point, index) => (
            <circle
              key={`${point.date}-${index}`}
              className="xoss-trend__point"
              cx={xScale(times[index]!)}
              cy={yScale(point.value)}
              r={index === hover ? 5 : 3}
              fill={color}
              fillOpacity={0.45}
            />
          ))}
          <LinePath
            data={line}
            x={(point) => xScale(point.x)}
            y={(point) => yScale(point.y)}
            stroke={color}
            strokeWidth={2}
          />
          <AxisLeft scale={yScale} numTicks={4} tickFormat={(value) => format(value)} />
          <AxisBottom
            top={innerHeight}
            scale={xScale}
            tickValues={xTicks.values.filter((tick) => xScale(tick) <= innerWidth - 12)}
            tickFormat={(value) => xTicks.format(value)}
          />
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
