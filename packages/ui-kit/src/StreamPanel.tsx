import { memo, useEffect, useMemo, useState, type PointerEvent } from 'react';
import { Group } from '@visx/group';
import { Area, LinePath } from '@visx/shape';
import { downsampleMinMax } from '@xoss/workout-stats';
import { AxisBottom, AxisLeft } from './Axis.tsx';
import { linearScale, type ContinuousScale } from './scales.ts';
import { MARGIN, type IndexRange, type StreamBand, type StreamSeries } from './streamSeries.ts';
import { useInView } from './useInView.ts';

// One panel of StreamCharts: a stream's plot, axes, readout, markers, bands and crosshair.

const toNumber = (value: number | null | undefined) =>
  value === null || value === undefined ? Number.NaN : value;

/**
 * False until the browser is idle after the first paint (or a second has passed), then true:
 * each panel's late drawing runs in an idle task of its own, never in the first one.
 */
function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (idle) return;
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(() => setIdle(true), { timeout: 1000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => setIdle(true), 200);
    return () => clearTimeout(timer);
  }, [idle]);
  return idle;
}

interface PanelProps {
  stream: StreamSeries;
  x: ArrayLike<number>;
  range: IndexRange;
  width: number;
  height: number;
  innerWidth: number;
  innerHeight: number;
  xScale: Scale;
  hover: number | null;
  drag: { from: number; to: number } | null;
  formatX: (value: number) => string;
  xTicks: readonly number[];
  locale: string;
  /** False in the first render: the panel is laid out, its plot drawn in the next. */
  plotted: boolean;
  bands: readonly StreamBand[];
  onPointerDown: (event: PointerEvent<SVGRectElement>) => void;
  onPointerMove: (event: PointerEvent<SVGRectElement>) => void;
  onPointerUp: () => void;
  onPointerLeave: () => void;
}

export function StreamPanel({
  stream,
  x,
  range,
  width,
  height,
  innerWidth,
  innerHeight,
  xScale,
  hover,
  drag,
  formatX,
  xTicks,
  locale,
  plotted,
  bands,
  ...handlers
}: PanelProps) {
  // A panel more than a screen below the viewport is drawn when the rider scrolls near it,
  // or at the latest once the browser is idle after the first paint: its frame is never left
  // empty where nothing scrolls (a page printed or captured whole, a panel pushed down by
  // what is above it, as the share link's controls push the last one on a shared ride).
  const [figure, near] = useInView<HTMLElement>('100% 0px');
  const idle = useIdle();
  const seen = near || idle;
  // The visible slice, reduced to about two points per pixel keeping each bucket's extremes.
  const points = useMemo(() => {
    if (!seen) return [];
    const count = range[1] - range[0] + 1;
    const slice = new Float64Array(count);
    for (let i = 0; i < count; i++) slice[i] = toNumber(stream.values[range[0] + i]);
    const picked = downsampleMinMax(slice, Math.max(8, innerWidth * 2));
    return Array.from(picked, (offset) => ({ x: x[range[0] + offset] ?? 0, y: slice[offset]! }));
  }, [stream.values, x, range, innerWidth, seen]);
  const overlayPoints = useMemo(() => {
    const other = stream.overlay;
    if (!seen || !other) return [];
    const count = range[1] - range[0] + 1;
    const slice = new Float64Array(count);
    for (let i = 0; i < count; i++) slice[i] = toNumber(other[range[0] + i]);
    const picked = downsampleMinMax(slice, Math.max(8, innerWidth * 2));
    return Array.from(picked, (offset) => ({ x: x[range[0] + offset] ?? 0, y: slice[offset]! }));
  }, [stream.overlay, x, range, innerWidth, seen]);
  const [low, high] = useMemo(() => {
    let min = Infinity;
    let max = -Infinity;
    for (const point of [...points, ...overlayPoints])
      if (Number.isFinite(point.y)) {
        min = Math.min(min, point.y);
        max = Math.max(max, point.y);
      }
    if (!Number.isFinite(min)) return [0, 1];
    const pad = (max - min) * 0.08 || 1;
    return [stream.kind === 'area' && min >= 0 ? 0 : min - pad, max + pad];
  }, [points, overlayPoints, stream.kind]);
  const yScale = useMemo(
    () => linearScale({ domain: [low, high], range: [innerHeight, 0], nice: true }),
    [low, high, innerHeight],
  );
  const number = useMemo(
    () => new Intl.NumberFormat(locale, { maximumFractionDigits: stream.digits ?? 0 }),
    [locale, stream.digits],
  );
  const hoverValue = hover === null ? undefined : toNumber(stream.values[hover]);
  const overlayValue =
    hover === null || !stream.overlay ? undefined : toNumber(stream.overlay[hover]);
  const readout = [hoverValue, overlayValue]
    .filter((value) => value !== undefined)
    .map((value) => (Number.isFinite(value) ? number.format(value) : '—'));
  const markers = (stream.markers ?? []).filter(
    (marker) => marker.index >= range[0] && marker.index <= range[1],
  );
  return (
    <figure
      className="xoss-streams__panel"
      ref={figure}
      // Whether its plot is drawn yet: a test (or a capture) waits for what it shows.
      data-drawn={plotted && seen}
    >
      <figcaption>
        <span>{stream.label}</span>
        <output>
          {hoverValue !== undefined &&
          (Number.isFinite(hoverValue) ||
            (overlayValue !== undefined && Number.isFinite(overlayValue)))
            ? `${readout.join(' / ')} ${stream.unit} @ ${formatX(x[hover!] ?? 0)}`
            : ''}
        </output>
      </figcaption>
      <svg width={width} height={height} aria-hidden="true">
        <Group left={MARGIN.left} top={MARGIN.top}>
          {bands.map((band) => {
            const [domainFrom = 0, domainTo = 0] = xScale.domain();
            const from = Math.max(band.from, domainFrom);
            const to = Math.min(band.to, domainTo);
            if (to <= from) return null;
            return (
              <rect
                key={`${band.from}-${band.to}`}
                className="xoss-streams__band"
                data-active={band.active ?? false}
                x={xScale(from)}
                width={Math.max(1, xScale(to) - xScale(from))}
                y={0}
                height={innerHeight}
              />
            );
          })}
          {plotted && seen ? (
            <PanelPlot
              points={points}
              kind={stream.kind ?? 'line'}
              color={stream.color ?? 'var(--xoss-color-brand)'}
              xScale={xScale}
              yScale={yScale}
              innerHeight={innerHeight}
              number={number}
              formatX={formatX}
              xTicks={xTicks}
              overlay={overlayPoints}
            />
          ) : null}
          {plotted && seen
            ? markers.map((marker) => {
                const value = toNumber(stream.values[marker.index]);
                if (!Number.isFinite(value)) return null;
                const cx = xScale(x[marker.index] ?? 0);
                const cy = yScale(value);
                // The text stays inside the plot: left of the dot in the right half.
                const right = cx > innerWidth / 2;
                return (
                  <g key={marker.index} className="xoss-streams__marker">
                    <circle cx={cx} cy={cy} r={4} />
                    <text
                      x={right ? cx - 8 : cx + 8}
                      y={Math.max(10, cy - 6)}
                      textAnchor={right ? 'end' : 'start'}
                    >
                      {marker.label}
                    </text>
                  </g>
                );
              })
            : null}
          {drag ? (
            <rect
              className="xoss-streams__selection"
              x={Math.min(xScale(x[drag.from] ?? 0), xScale(x[drag.to] ?? 0))}
              width={Math.abs(xScale(x[drag.to] ?? 0) - xScale(x[drag.from] ?? 0))}
              y={0}
              height={innerHeight}
            />
          ) : null}
          {hover !== null ? (
            <line
              className="xoss-streams__crosshair"
              x1={xScale(x[hover] ?? 0)}
              x2={xScale(x[hover] ?? 0)}
              y1={0}
              y2={innerHeight}
            />
          ) : null}
          <rect
            width={innerWidth}
            height={innerHeight}
            fill="transparent"
            className="xoss-streams__hit"
            {...handlers}
          />
        </Group>
      </svg>
    </figure>
  );
}

type Scale = ContinuousScale;
const defined = (point: { y: number }) => Number.isFinite(point.y);

/** A panel's line or area with its axes: unchanged while only the cursor moves. */
const PanelPlot = memo(function PanelPlot({
  points,
  kind,
  color,
  xScale,
  yScale,
  innerHeight,
  number,
  formatX,
  xTicks,
  overlay,
}: {
  overlay: readonly { x: number; y: number }[];
  points: readonly { x: number; y: number }[];
  kind: 'line' | 'area';
  color: string;
  xScale: Scale;
  yScale: Scale;
  innerHeight: number;
  number: Intl.NumberFormat;
  formatX: (value: number) => string;
  xTicks: readonly number[];
}) {
  return (
    <>
      {kind === 'area' ? (
        <Area
          data={points as { x: number; y: number }[]}
          x={(point) => xScale(point.x)}
          y0={Math.max(...yScale.range())}
          y1={(point) => yScale(point.y)}
          defined={defined}
          fill={color}
          fillOpacity={0.25}
          stroke={color}
          strokeWidth={1.5}
        />
      ) : (
        <LinePath
          data={points as { x: number; y: number }[]}
          x={(point) => xScale(point.x)}
          y={(point) => yScale(point.y)}
          defined={defined}
          stroke={color}
          strokeWidth={1.5}
        />
      )}
      {overlay.length > 0 ? (
        <LinePath
          data={overlay as { x: number; y: number }[]}
          x={(point) => xScale(point.x)}
          y={(point) => yScale(point.y)}
          defined={defined}
          stroke="var(--xoss-chart-comparison)"
          strokeWidth={1.5}
          strokeDasharray="5 3"
          data-overlay="true"
        />
      ) : null}
      <AxisLeft scale={yScale} numTicks={3} tickFormat={(value) => number.format(value)} />
      <AxisBottom top={innerHeight} scale={xScale} tickValues={xTicks} tickFormat={formatX} />
    </>
  );
});
