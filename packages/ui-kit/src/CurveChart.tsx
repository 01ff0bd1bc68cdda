import { useMemo, useState, type PointerEvent, type ReactNode } from 'react';
import { Group } from '@visx/group';
import { LinePath } from '@visx/shape';
import { useLocale, useT } from '@xoss/i18n/react';
import { AxisBottom, AxisLeft } from './Axis.tsx';
import { linearScale, logScale } from './scales.ts';
import { formatShortDuration } from './format.ts';
import { useElementWidth } from './useElementWidth.ts';

/** A mean-max curve: the best average for each duration (seconds, ascending). */
export interface CurveSeries {
  readonly id: string;
  readonly label: ReactNode;
  readonly durations: ArrayLike<number>;
  readonly values: ArrayLike<number | null>;
  readonly color?: string;
  /** Comparison curves are dashed. */
  readonly dashed?: boolean;
}

export interface CurveChartProps {
  /** Accessible name: "Power curve". */
  readonly title: string;
  readonly unit: string;
  readonly series: readonly CurveSeries[];
  readonly height?: number;
  readonly digits?: number;
  /**
   * How a value reads, on the axis and in the legend (a pace as `4:05`); by default a
   * number with `digits` decimals.
   */
  readonly format?: (value: number) => string;
  /**
   * Called with the duration (seconds) the rider points at, and `null` when they leave: the
   * page fetches the exact values there (the series may hold only some durations).
   */
  readonly onHover?: (duration: number | null) => void;
  /** The exact values at one duration, by series id, as the page fetched them. */
  readonly exact?: {
    readonly duration: number;
    readonly values: Readonly<Record<string, number | null>>;
  };
}

const MARGIN = { top: 12, right: 16, bottom: 28, left: 52 };
const TICKS = [1, 5, 15, 30, 60, 300, 600, 1200, 3600, 7200, 18_000, 36_000];

/**
 * The ticks whose labels do not run into each other: each at least 40 px from the last one
 * kept (on a phone "15s30s1m" would otherwise overlap).
 */
function spacedTicks(ticks: readonly number[], at: (tick: number) => number): number[] {
  const kept: number[] = [];
  for (const tick of ticks) {
    const previous = kept[kept.length - 1];
    if (previous === undefined || at(tick) - at(previous) >= 40) kept.push(tick);
  }
  return kept;
}

/** Nearest point index at or below a duration, in ascending durations. */
function indexAtDuration(durations: ArrayLike<number>, target: number) {
  let low = 0;
  let high = durations.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((durations[mid] ?? 0) <= target) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The value of a series at exactly `duration`, when it holds that duration. */
function valueAt(curve: CurveSeries, duration: number): number | null | undefined {
  const index = indexAtDuration(curve.durations, duration);
  return curve.durations[index] === duration ? curve.values[index] : undefined;
}

/**
 * Power or speed curve on a logarithmic duration axis from 1 s to the ride's length, with
 * comparison curves (last 6 weeks, this year, a past year) dashed; hovering reads every
 * curve at one duration. Points are thinned to about one per pixel along the log axis.
 * The series may hold only some durations (log-spaced): the value shown at a duration is
 * the series' own when it holds it, else the page's `exact` one; never interpolated.
 */
export function CurveChart({
  title,
  unit,
  series,
  height = 280,
  digits = 0,
  format,
  onHover,
  exact,
}: CurveChartProps) {
  const t = useT();
  const locale = useLocale();
  const [ref, width] = useElementWidth<HTMLDivElement>(640);
  const [hover, setHover] = useState<number | null>(null);
  const innerWidth = Math.max(10, width - MARGIN.left - MARGIN.right);
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const maxDuration = Math.max(
    2,
    ...series.map((curve) => curve.durations[curve.durations.length - 1] ?? 1),
  );
  const maxValue = Math.max(
    1,
    ...series.flatMap((curve) => Array.from(curve.values, (value) => value ?? 0)),
  );
  const xScale = logScale({ domain: [1, maxDuration], range: [0, innerWidth] });
  const yScale = linearScale({
    domain: [0, maxValue * 1.05],
    range: [innerHeight, 0],
    nice: true,
  });
  const thinned = useMemo(
    () =>
      series.map((curve) => {
        const points: { x: number; y: number }[] = [];
        let lastPixel = -1;
        for (let i = 0; i < curve.durations.length; i++) {
          const duration = curve.durations[i]!;
          const value = curve.values[i];
          if (value === null || value === undefined || !Number.isFinite(value)) continue;
          const pixel = Math.round(xScale(duration));
          if (pixel === lastPixel && i !== curve.durations.length - 1) continue;
          lastPixel = pixel;
          points.push({ x: duration, y: value });
        }
        return points;
      }),
    // xScale is derived from width and the series.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [series, innerWidth, maxDuration],
  );
  const numberFormat = new Intl.NumberFormat(locale, { maximumFractionDigits: digits });
  const number = { format: format ?? ((value: number) => numberFormat.format(value)) };
  const onMove = (event: PointerEvent<SVGRectElement>) => {
    const pixel = event.clientX - event.currentTarget.getBoundingClientRect().left;
    const duration = Math.max(
      1,
      Math.round(xScale.invert(Math.max(0, Math.min(innerWidth, pixel)))),
    );
    if (duration === hover) return;
    setHover(duration);
    onHover?.(duration);
  };
  return (
    <figure className="xoss-curve xoss-root" ref={ref}>
      <figcaption>
        <strong>{title}</strong>
        <ul className="xoss-curve__legend">
          {series.map((curve) => {
            const own = hover === null ? undefined : valueAt(curve, hover);
            const at =
              own !== undefined
                ? own
                : hover !== null && exact?.duration === hover
                  ? exact.values[curve.id]
                  : undefined;
            return (
              <li key={curve.id} data-dashed={curve.dashed ?? false}>
                <svg width="20" height="8" aria-hidden="true">
                  <line
                    x1="0"
                    x2="20"
                    y1="4"
                    y2="4"
                    stroke={curve.color ?? 'var(--xoss-color-brand)'}
                    strokeWidth="2"
                    strokeDasharray={curve.dashed ? '4 3' : undefined}
                  />
                </svg>
                {curve.label}
                {at !== undefined && at !== null ? (
                  <output>
                    {' '}
                    {number.format(at)} {unit} @ {formatShortDuration(hover!)}
                  </output>
                ) : null}
              </li>
            );
          })}
        </ul>
      </figcaption>
      <svg
        width={width}
        height={height}
        role="img"
        aria-label={`${title} (${t('charts.logAxis')})`}
      >
        <Group left={MARGIN.left} top={MARGIN.top}>
          {thinned.map((points, index) => (
            <LinePath
              key={series[index]!.id}
              data={points}
              x={(point) => xScale(point.x)}
              y={(point) => yScale(point.y)}
              stroke={series[index]!.color ?? 'var(--xoss-color-brand)'}
              strokeWidth={2}
              strokeDasharray={series[index]!.dashed ? '5 4' : undefined}
            />
          ))}
          <AxisLeft
            scale={yScale}
            numTicks={5}
            tickFormat={(value) => number.format(value)}
            label={unit}
          />
          <AxisBottom
            top={innerHeight}
            scale={xScale}
            tickValues={spacedTicks(
              TICKS.filter((tick) => tick <= maxDuration),
              (tick) => xScale(tick),
            )}
            tickFormat={formatShortDuration}
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
            onPointerLeave={() => {
              setHover(null);
              onHover?.(null);
            }}
          />
        </Group>
      </svg>
    </figure>
  );
}
