import {
  memo,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import { Group } from '@visx/group';
import { Area, LinePath } from '@visx/shape';
import { formatInUserUnit, type DistanceUnit } from '@xoss/data-fields';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { downsampleMinMax } from '@xoss/workout-stats';
import { AxisBottom, AxisLeft } from './Axis.tsx';
import { linearScale, type ContinuousScale } from './scales.ts';
import { formatClock, timeTicks } from './format.ts';
import { useElementWidth } from './useElementWidth.ts';
import { useInView } from './useInView.ts';

/** One stream of a workout: its values per sample (NaN or null where it has none). */
export interface StreamSeries {
  readonly id: string;
  readonly label: ReactNode;
  readonly unit: string;
  readonly values: ArrayLike<number | null>;
  readonly kind?: 'line' | 'area';
  /** A CSS colour, one of `chartColors` as a rule; the design tokens' brand red by default. */
  readonly color?: string;
  readonly digits?: number;
  /**
   * Points called out on the panel (a W' balance's lowest point): a dot at the sample and
   * its text beside it.
   */
  readonly markers?: readonly StreamMarker[];
  /**
   * A second ride's values on the same x (compare two rides), drawn dashed over this one in
   * the comparison colour; its value is read out after the first one's.
   */
  readonly overlay?: ArrayLike<number | null>;
}

/** A sample called out on a panel. */
export interface StreamMarker {
  readonly index: number;
  readonly label: string;
}

/**
 * A span of x (seconds or metres, `from` to `to`) shaded on one panel: a climb on the
 * elevation chart. `active` shades it stronger (the climb the rider picked).
 */
export interface StreamBand {
  readonly series: string;
  readonly from: number;
  readonly to: number;
  readonly active?: boolean;
}

/** A range of sample indices, both ends included. */
export type IndexRange = readonly [number, number];

export interface StreamChartsProps {
  /** The x of every sample: seconds from the start, or metres. */
  readonly x: ArrayLike<number>;
  readonly xKind: 'time' | 'distance';
  readonly series: readonly StreamSeries[];
  /** Height of each panel in pixels. */
  readonly panelHeight?: number;
  /** The sample under the cursor, shared with a map (controlled); else internal. */
  readonly hoverIndex?: number | null;
  readonly onHover?: (index: number | null) => void;
  /** The zoomed range, or null at full extent: for statistics of the range. */
  readonly onRangeChange?: (range: IndexRange | null) => void;
  /** `mi` shows distance axes in miles. */
  readonly distanceUnit?: DistanceUnit;
  /** Spans shaded on a panel (climbs on the elevation chart). */
  readonly bands?: readonly StreamBand[];
  /**
   * A zoom asked for from outside (an interval or a climb picked in a table): each new
   * object is zoomed to as a drag would, onto the same Undo stack. The page knows the range
   * it asked for, so `onRangeChange` is not called for it.
   */
  readonly zoom?: { readonly range: IndexRange } | null;
}

const MARGIN = { top: 8, right: 16, bottom: 30, left: 48 };
const toNumber = (value: number | null | undefined) =>
  value === null || value === undefined ? Number.NaN : value;

/** A range inside `[0, last]`, at least two samples wide where the ride has them. */
function clampRange(range: IndexRange, last: number): IndexRange {
  const from = Math.max(0, Math.min(range[0], last));
  const to = Math.max(from, Math.min(range[1], last));
  return to > from || last === 0 ? [from, to] : [Math.max(0, from - 1), from];
}

/** The last index whose x is at most `target` (binary search over ascending x). */
export function indexAtX(x: ArrayLike<number>, target: number, from = 0, to = x.length - 1) {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((x[mid] ?? 0) <= target) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * Workout streams over time or distance, one panel each, sharing the x axis, the zoom and
 * a hover crosshair. Drag across a panel to zoom to that range; Undo zoom steps back one
 * zoom, Reset zoom shows the whole ride (spec 2). From the keyboard: arrow keys move the
 * cursor, `+` zooms in around it, `-` undoes. Each panel draws at most about two points
 * per pixel (min/max per bucket), so a 10-hour ride stays smooth.
 */
export function StreamCharts({
  x,
  xKind,
  series,
  panelHeight = 120,
  hoverIndex: controlledHover,
  onHover,
  onRangeChange,
  distanceUnit = 'km',
  bands = [],
  zoom = null,
}: StreamChartsProps) {
  const t = useT();
  const locale = useLocale();
  const helpId = useId();
  const [ref, width] = useElementWidth<HTMLDivElement>(640);
  const last = Math.max(0, x.length - 1);
  const [zooms, setZooms] = useState<readonly IndexRange[]>([]);
  const [ownHover, setOwnHover] = useState<number | null>(null);
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  // A zoom asked from outside joins the stack while rendering (React's way of adjusting
  // state to a changed prop, no effect and no second paint).
  const [askedZoom, setAskedZoom] = useState(zoom);
  if (zoom !== askedZoom) {
    setAskedZoom(zoom);
    if (zoom) setZooms([...zooms, clampRange(zoom.range, x.length - 1)]);
  }
  const hover = controlledHover === undefined ? ownHover : controlledHover;
  const range: IndexRange = useMemo(() => zooms[zooms.length - 1] ?? [0, last], [zooms, last]);
  const innerWidth = Math.max(10, width - MARGIN.left - MARGIN.right);
  const innerHeight = panelHeight - MARGIN.top - MARGIN.bottom;
  const xScale = useMemo(
    () =>
      linearScale({
        domain: [x[range[0]] ?? 0, Math.max(x[range[1]] ?? 0, (x[range[0]] ?? 0) + 1e-9)],
        range: [0, innerWidth],
      }),
    [x, range, innerWidth],
  );

  const setHover = (index: number | null) => {
    if (controlledHover === undefined) setOwnHover(index);
    onHover?.(index);
  };
  const zoomTo = (next: IndexRange | null) => {
    const stack = next ? [...zooms, next] : [];
    setZooms(stack);
    onRangeChange?.(next);
  };
  const undo = () => {
    const stack = zooms.slice(0, -1);
    setZooms(stack);
    onRangeChange?.(stack[stack.length - 1] ?? null);
  };
  const indexAtPixel = (pixel: number) =>
    indexAtX(x, xScale.invert(Math.min(innerWidth, Math.max(0, pixel))), range[0], range[1]);
  const pixelOf = (event: PointerEvent<SVGRectElement>) =>
    event.clientX - event.currentTarget.getBoundingClientRect().left;

  // Round steps (time: 5 min, 15 min, 1 h…; distance: 1-2-5), none so close to the right
  // end that its label would be cut off.
  const xTicks = useMemo(() => {
    const [from = 0, to = 0] = xScale.domain();
    const max = Math.max(2, Math.floor(innerWidth / 110));
    const ticks = xKind === 'time' ? timeTicks(from, to, max) : xScale.ticks(max);
    const room = ticks.filter((tick) => xScale(tick) <= innerWidth - 24);
    return room.length > 0 ? room : ticks.slice(0, 1);
  }, [xScale, xKind, innerWidth]);

  const formatX = useMemo(() => {
    if (xKind === 'time') return formatClock;
    return (value: number) =>
      formatInUserUnit('distance', value, distanceUnit, { locale, digits: 1, upTo: true });
  }, [xKind, locale, distanceUnit]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const span = range[1] - range[0];
    const step = Math.max(1, Math.round(span / 100));
    const current = hover ?? range[0];
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      const next = current + (event.key === 'ArrowRight' ? step : -step);
      setHover(Math.min(range[1], Math.max(range[0], next)));
    } else if (event.key === '+' || event.key === '=') {
      event.preventDefault();
      if (span < 4) return;
      const half = Math.max(2, Math.round(span / 4));
      const from = Math.max(range[0], current - half);
      zoomTo([from, Math.min(range[1], from + 2 * half)]);
    } else if (event.key === '-' || event.key === 'Backspace') {
      event.preventDefault();
      if (zooms.length > 0) undo();
    } else if (event.key === 'Escape') {
      setHover(null);
    }
  };

  const visibleHover = hover !== null && hover >= range[0] && hover <= range[1] ? hover : null;
  // The first render lays out empty panels at once; the plots follow in a background
  // render that React splits between panels, so a 10-hour ride never blocks the page in
  // one long task (the portal's budget: no task over 200 ms).
  const plotted = useDeferredValue(true, false);
  return (
    <div className="xoss-streams xoss-root" ref={ref}>
      <div className="xoss-streams__toolbar">
        <button type="button" className="xoss-button" disabled={zooms.length === 0} onClick={undo}>
          <Message id="workouts.share.zoomRevert" />
        </button>
        <button
          type="button"
          className="xoss-button"
          disabled={zooms.length === 0}
          onClick={() => zoomTo(null)}
        >
          <Message id="workouts.share.zoomReset" />
        </button>
        <span className="xoss-streams__range" aria-live="polite">
          {formatX(x[range[0]] ?? 0)} – {formatX(x[range[1]] ?? 0)}
        </span>
      </div>
      <p id={helpId} className="xoss-visually-hidden">
        <Message id="charts.keyboardHelp" />
      </p>
      {/* The cursor along the ride is a slider: arrow keys move it, the value reads the position. */}
      <div
        className="xoss-streams__panels"
        role="slider"
        tabIndex={0}
        aria-label={t('charts.streams')}
        aria-describedby={helpId}
        aria-valuemin={range[0]}
        aria-valuemax={range[1]}
        aria-valuenow={visibleHover ?? range[0]}
        aria-valuetext={formatX(x[visibleHover ?? range[0]] ?? 0)}
        onKeyDown={onKeyDown}
      >
        {series.map((stream) => (
          <StreamPanel
            key={stream.id}
            stream={stream}
            x={x}
            range={range}
            width={width}
            height={panelHeight}
            innerWidth={innerWidth}
            innerHeight={innerHeight}
            xScale={xScale}
            hover={visibleHover}
            drag={drag}
            formatX={formatX}
            xTicks={xTicks}
            locale={locale}
            plotted={plotted}
            bands={bands.filter((band) => band.series === stream.id)}
            onPointerDown={(event) => {
              event.currentTarget.setPointerCapture?.(event.pointerId);
              const at = indexAtPixel(pixelOf(event));
              setDrag({ from: at, to: at });
            }}
            onPointerMove={(event) => {
              const at = indexAtPixel(pixelOf(event));
              if (drag) setDrag({ from: drag.from, to: at });
              setHover(at);
            }}
            onPointerUp={() => {
              if (drag) {
                const from = Math.min(drag.from, drag.to);
                const to = Math.max(drag.from, drag.to);
                if (to - from >= 2) zoomTo([from, to]);
              }
              setDrag(null);
            }}
            onPointerLeave={() => {
              if (!drag) setHover(null);
            }}
          />
        ))}
      </div>
    </div>
  );
}

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

function StreamPanel({
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
    <figure className="xoss-streams__panel" ref={figure}>
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
