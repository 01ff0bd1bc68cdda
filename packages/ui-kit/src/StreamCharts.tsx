import {
  useDeferredValue,
  useId,
  useMemo,
  useState,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { formatInUserUnit, type DistanceUnit } from '@xoss/data-fields';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { linearScale } from './scales.ts';
import { formatClock, timeTicks } from './format.ts';
import { StreamPanel } from './StreamPanel.tsx';
import { MARGIN, type IndexRange, type StreamBand, type StreamSeries } from './streamSeries.ts';
import { useElementWidth } from './useElementWidth.ts';

export type { IndexRange, StreamBand, StreamMarker, StreamSeries } from './streamSeries.ts';

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
