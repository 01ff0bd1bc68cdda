import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react';
import OlMap from 'ol/Map.js';
import View from 'ol/View.js';
import Feature from 'ol/Feature.js';
import { fromExtent } from 'ol/geom/Polygon.js';
import type { Coordinate } from 'ol/coordinate.js';
import { boundingExtent } from 'ol/extent.js';
import Layer from 'ol/layer/Layer.js';
import TileLayer from 'ol/layer/Tile.js';
import { apply as applyTransform } from 'ol/transform.js';
import VectorLayer from 'ol/layer/Vector.js';
import { fromLonLat, transformExtent } from 'ol/proj.js';
import VectorSource from 'ol/source/Vector.js';
import XYZ from 'ol/source/XYZ.js';
import { Fill, Stroke, Style, Text } from 'ol/style.js';
import { defaults as defaultControls } from 'ol/control/defaults.js';
import { defaults as defaultInteractions } from 'ol/interaction/defaults.js';
import DragPan from 'ol/interaction/DragPan.js';
import MouseWheelZoom from 'ol/interaction/MouseWheelZoom.js';
import type MapBrowserEvent from 'ol/MapBrowserEvent.js';
import { noModifierKeys, platformModifierKeyOnly, primaryAction } from 'ol/events/condition.js';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { formatBytes } from './format.ts';

/** A longitude/latitude pair in degrees. */
export type LonLat = readonly [number, number];

/**
 * OpenStreetMap's tiles, for apps to pass as `tileUrl`. Components default to no base map:
 * the ui-kit never reaches the network on its own (tests, Storybook, offline runs).
 */
export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/**
 * An app's tile setting (its build's `VITE_TILE_URL`) as a `tileUrl`: unset means
 * OpenStreetMap, `none` no base map (offline runs and tests), anything else that service.
 */
export const tileUrlFrom = (setting: string | undefined): string | null =>
  setting === 'none' ? null : setting || DEFAULT_TILE_URL;

/**
 * Design tokens of styles.css as values, for what draws on a canvas (OpenLayers' styles and
 * the track layer), which cannot read CSS custom properties itself. Read when a map is set
 * up; apps load styles.css once (see the package README).
 */
function canvasTokens() {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return {
    brand: read('--xoss-color-brand'),
    focus: read('--xoss-color-focus'),
    surface: read('--xoss-color-surface'),
    // Climbs and other spans picked out along the track (the chart's band colour).
    segment: read('--xoss-color-amber') || read('--xoss-color-focus'),
  };
}

/** A `#rrggbb` token at `alpha` opacity, as `rgba()`; another colour unchanged. */
function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!hex) return color;
  const [red, green, blue] = hex.slice(1).map((part) => parseInt(part, 16));
  return `rgba(${red},${green},${blue},${alpha})`;
}

/**
 * The track and its marker drawn straight onto a canvas of their own, each frame, in the
 * view's pixels. OpenLayers' vector layers (features, styles, a spatial index, the
 * instruction builders and executors) are about a third of its weight on the ride page;
 * one line and one dot need none of it.
 */
function trackCanvasLayer(
  coordinates: Coordinate[],
  markerAt: () => number | null,
  segmentsNow: () => readonly TrackSegment[],
): Layer {
  const canvas = document.createElement('canvas');
  // Placed over the map by styles.css; a canvas takes its colours as values.
  canvas.className = 'xoss-map__track';
  const { brand: line, surface: dot, segment: segmentColor } = canvasTokens();
  return new Layer({
    render(frame) {
      const [width, height] = frame.size as [number, number];
      const ratio = frame.pixelRatio;
      if (canvas.width !== Math.round(width * ratio)) canvas.width = Math.round(width * ratio);
      if (canvas.height !== Math.round(height * ratio)) canvas.height = Math.round(height * ratio);
      const context = canvas.getContext('2d')!;
      context.setTransform(1, 0, 0, 1, 0, 0);
      context.clearRect(0, 0, canvas.width, canvas.height);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      const toPixel = frame.coordinateToPixelTransform;
      if (coordinates.length > 1) {
        context.beginPath();
        for (const [index, coordinate] of coordinates.entries()) {
          const [x, y] = applyTransform(toPixel, coordinate.slice());
          if (index === 0) context.moveTo(x!, y!);
          else context.lineTo(x!, y!);
        }
        context.strokeStyle = line;
        context.lineWidth = 4;
        context.lineCap = 'round';
        context.lineJoin = 'round';
        context.stroke();
      }
      // Spans over the track (climbs), the picked one wider.
      for (const segment of segmentsNow()) {
        const from = Math.max(0, segment.from);
        const to = Math.min(coordinates.length - 1, segment.to);
        if (to <= from) continue;
        context.beginPath();
        for (let index = from; index <= to; index++) {
          const [x, y] = applyTransform(toPixel, coordinates[index]!.slice());
          if (index === from) context.moveTo(x!, y!);
          else context.lineTo(x!, y!);
        }
        context.strokeStyle = segmentColor;
        context.lineWidth = segment.active ? 8 : 5;
        context.lineCap = 'round';
        context.lineJoin = 'round';
        context.stroke();
      }
      const at = markerAt();
      const point = at === null ? undefined : coordinates[at];
      if (point) {
        const [x, y] = applyTransform(toPixel, point.slice());
        context.beginPath();
        context.arc(x!, y!, 7, 0, 2 * Math.PI);
        context.fillStyle = dot;
        context.fill();
        context.strokeStyle = line;
        context.lineWidth = 3;
        context.stroke();
      }
      return canvas;
    },
  });
}

/**
 * The map is the page's guest, as embedded maps on the web are: the wheel and a finger
 * scroll the page; Ctrl (Cmd on a Mac) with the wheel zooms, two fingers move and pinch, a
 * mouse drags as ever. The hint says so when a rider tries the page's gesture on the map.
 */
function guestInteractions() {
  const pan: DragPan = new DragPan({
    condition(event: MapBrowserEvent) {
      if ((event.originalEvent as PointerEvent).pointerType === 'touch')
        return pan.getPointerCount() >= 2;
      return (noModifierKeys(event) && primaryAction(event)) || platformModifierKeyOnly(event);
    },
  });
  return defaultInteractions({ dragPan: false, mouseWheelZoom: false }).extend([
    pan,
    new MouseWheelZoom({ condition: platformModifierKeyOnly }),
  ]);
}

/** Which hint the map shows now: none, the wheel's or the finger's. */
type GestureHint = 'wheel' | 'touch' | null;

/** How long a hint stays after the last gesture that called for it. */
const HINT_MS = 1500;

/**
 * Shows the hint while a rider scrolls the wheel without Ctrl/Cmd, or moves one finger, over
 * `target`: the page scrolls, and the hint says how to move the map instead.
 */
function useGestureHint(target: RefObject<HTMLDivElement | null>): GestureHint {
  const [hint, setHint] = useState<GestureHint>(null);
  useEffect(() => {
    const element = target.current;
    if (!element) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = (kind: Exclude<GestureHint, null>) => {
      setHint(kind);
      clearTimeout(timer);
      timer = setTimeout(() => setHint(null), HINT_MS);
    };
    const onWheel = (event: WheelEvent) => {
      if (event.ctrlKey || event.metaKey) setHint(null);
      else show('wheel');
    };
    const onTouch = (event: TouchEvent) => {
      if (event.touches.length === 1) show('touch');
      else setHint(null);
    };
    element.addEventListener('wheel', onWheel, { passive: true });
    element.addEventListener('touchmove', onTouch, { passive: true });
    return () => {
      clearTimeout(timer);
      element.removeEventListener('wheel', onWheel);
      element.removeEventListener('touchmove', onTouch);
    };
  }, [target]);
  return hint;
}

/** The platform's zoom key as riders read it on their keyboard. */
const isMac = () => /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '');

function MapHint({ hint }: { readonly hint: GestureHint }) {
  return (
    <p className="xoss-map__hint" data-shown={hint !== null} aria-live="polite">
      {hint === 'wheel' ? (
        <Message id="maps.zoomHint" values={{ mac: String(isMac()) }} />
      ) : hint === 'touch' ? (
        <Message id="maps.moveHint" />
      ) : null}
    </p>
  );
}

/** Creates a map in `target` with an optional tile layer that reports load failures. */
function createMap(target: HTMLElement, tileUrl: string | null, onTileError: () => void) {
  const layers = [];
  if (tileUrl) {
    const source = new XYZ({ url: tileUrl, crossOrigin: 'anonymous', maxZoom: 18 });
    source.on('tileloaderror', onTileError);
    layers.push(new TileLayer({ source }));
  }
  return new OlMap({
    target,
    layers,
    // At most two device pixels per CSS pixel: the tiles are 256-pixel images, no sharper on a
    // phone's 3x screen, and a 3x canvas has 2.25 times the pixels to clear and draw each frame.
    pixelRatio: Math.min(2, globalThis.devicePixelRatio || 1),
    controls: defaultControls({ rotate: false, attribution: tileUrl !== null }),
    interactions: guestInteractions(),
    view: new View({ center: fromLonLat([0, 20]), zoom: 2 }),
  });
}

/**
 * An OpenLayers map in the returned `target` for as long as the component shows it, built
 * again when `tileUrl` or `setUp` change (a `useCallback`): `setUp` adds the layers and
 * returns what to undo before the map goes. `failed` turns true once a tile fails to load.
 */
function useOlMap(tileUrl: string | null, setUp: (map: OlMap) => () => void) {
  const target = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!target.current) return;
    const map = createMap(target.current, tileUrl, () => setFailed(true));
    const undo = setUp(map);
    // Drawn now, in this task, rather than at the next animation frame.
    map.renderSync();
    return () => {
      undo();
      map.setTarget(undefined);
      map.dispose();
    };
  }, [tileUrl, setUp]);
  const hint = useGestureHint(target);
  return { target, failed, hint };
}

function MapFailure() {
  return (
    <p className="xoss-map__error" role="alert">
      <Message id="errors.mapFailed" />
    </p>
  );
}

export interface RouteMapProps {
  /** The track or route, [longitude, latitude] per point. */
  readonly track: readonly LonLat[];
  /** Index of the point the marker sits on (the chart's hover), or null for none. */
  readonly marker?: number | null;
  readonly tileUrl?: string | null;
  readonly height?: number;
  /** Accessible name; "Route map" by default. */
  readonly label?: string;
  /** Spans of the track drawn over it in another colour (a ride's climbs), by point index. */
  readonly segments?: readonly TrackSegment[];
}

/** Points `from` to `to` (indices of `track`, both included) picked out on the map. */
export interface TrackSegment {
  readonly from: number;
  readonly to: number;
  /** The one the rider chose: drawn wider. */
  readonly active?: boolean;
}

const NO_SEGMENTS: readonly TrackSegment[] = [];

/**
 * A track or route on an OpenLayers map with a position marker that follows `marker`
 * (a chart's hover). If the tile service fails, a clear message says so (spec 8); the
 * track still draws.
 */
export function RouteMap({
  track,
  marker = null,
  tileUrl = null,
  height = 360,
  label,
  segments = NO_SEGMENTS,
}: RouteMapProps) {
  const t = useT();
  const markerAt = useRef<number | null>(marker);
  const segmentsNow = useRef(segments);
  const trackLayer = useRef<Layer | null>(null);
  const setUp = useCallback(
    (map: OlMap) => {
      const coordinates = track.map((point) => fromLonLat([point[0], point[1]]));
      const layer = trackCanvasLayer(
        coordinates,
        () => markerAt.current,
        () => segmentsNow.current,
      );
      trackLayer.current = layer;
      map.addLayer(layer);
      if (coordinates.length > 0)
        map.getView().fit(boundingExtent(coordinates), { padding: [24, 24, 24, 24], maxZoom: 16 });
      return () => {
        trackLayer.current = null;
      };
    },
    [track],
  );
  const { target, failed, hint } = useOlMap(tileUrl, setUp);
  useEffect(() => {
    markerAt.current = marker;
    trackLayer.current?.changed();
  }, [marker]);
  useEffect(() => {
    segmentsNow.current = segments;
    trackLayer.current?.changed();
  }, [segments]);
  return (
    <figure className="xoss-map xoss-root">
      <div
        ref={target}
        className="xoss-map__canvas"
        data-height={height}
        role="region"
        aria-label={label ?? t('maps.routeMap')}
        data-marker={marker ?? ''}
        data-segments={segments.map((segment) => `${segment.from}-${segment.to}`).join(' ')}
      >
        <MapHint hint={hint} />
      </div>
      {failed ? <MapFailure /> : null}
    </figure>
  );
}

/** A downloadable map region: its bounding box and package size. */
export interface MapRegion {
  readonly id: string;
  readonly name: string;
  /** [west, south, east, north] in degrees. */
  readonly bbox: readonly [number, number, number, number];
  readonly bytes: number;
}

export interface RegionPickerProps {
  readonly regions: readonly MapRegion[];
  readonly value: readonly string[];
  readonly onChange: (ids: string[]) => void;
  /** NAV+ holds about 3.6 GB of maps (spec 5, 9). */
  readonly maxBytes?: number;
  readonly tileUrl?: string | null;
  readonly height?: number;
}

/**
 * Choose map regions to download: click areas on the map, or tick them in the list (the
 * keyboard way). Shows the count and total size, and warns past the device's limit.
 */
export function RegionPicker({
  regions,
  value,
  onChange,
  maxBytes = 3.6e9,
  tileUrl = null,
  height = 360,
}: RegionPickerProps) {
  const t = useT();
  const locale = useLocale();
  const source = useRef<VectorSource | null>(null);
  const latest = useRef({ value, onChange });
  useEffect(() => {
    latest.current = { value, onChange };
  });
  const listId = useId();
  // Reads the latest props through a ref, so the map need not be built again for them.
  const toggle = useCallback((id: string) => {
    const { value: current, onChange: change } = latest.current;
    change(current.includes(id) ? current.filter((other) => other !== id) : [...current, id]);
  }, []);
  const setUp = useCallback(
    (map: OlMap) => {
      const vectors = new VectorSource();
      for (const region of regions) {
        const extent = transformExtent([...region.bbox], 'EPSG:4326', 'EPSG:3857');
        const feature = new Feature(fromExtent(extent));
        feature.setId(region.id);
        feature.set('name', region.name);
        vectors.addFeature(feature);
      }
      source.current = vectors;
      map.addLayer(new VectorLayer({ source: vectors }));
      const extent = vectors.getExtent();
      if (regions.length > 0 && extent)
        // Top, right, bottom, left: the left edge clears the zoom buttons, which would
        // otherwise cover a region there and its label.
        map.getView().fit(extent, { padding: [16, 16, 16, 56], maxZoom: 8 });
      map.on('singleclick', (event) => {
        map.forEachFeatureAtPixel(event.pixel, (feature) => {
          toggle(String(feature.getId()));
          return true;
        });
      });
      return () => {
        source.current = null;
      };
    },
    [regions, toggle],
  );
  const { target, failed, hint } = useOlMap(tileUrl, setUp);
  useEffect(() => {
    const tokens = canvasTokens();
    for (const feature of source.current?.getFeatures() ?? []) {
      const selected = value.includes(String(feature.getId()));
      feature.setStyle(
        new Style({
          stroke: new Stroke({
            color: selected ? tokens.brand : tokens.focus,
            width: selected ? 3 : 1.5,
          }),
          fill: new Fill({
            color: selected ? withAlpha(tokens.brand, 0.25) : withAlpha(tokens.focus, 0.08),
          }),
          // Every region keeps its label: by default OpenLayers drops a label wider than
          // its polygon, so only the largest region (Japan) was named at a country's zoom.
          text: new Text({
            text: String(feature.get('name')),
            font: '12px sans-serif',
            overflow: true,
          }),
        }),
      );
    }
  }, [value, regions]);
  const total = regions
    .filter((region) => value.includes(region.id))
    .reduce((sum, region) => sum + region.bytes, 0);
  const size = formatBytes(total, locale);
  return (
    <div className="xoss-region-picker xoss-root">
      <div
        ref={target}
        className="xoss-map__canvas"
        data-height={height}
        role="region"
        aria-label={t('maps.selectArea')}
        aria-describedby={listId}
      >
        <MapHint hint={hint} />
      </div>
      {failed ? <MapFailure /> : null}
      <fieldset className="xoss-choice-group" id={listId}>
        <legend>
          <Message id="maps.regions" />
        </legend>
        <div className="xoss-choice-group__options">
          {regions.map((region) => (
            <label key={region.id} className="xoss-choice">
              <input
                type="checkbox"
                checked={value.includes(region.id)}
                onChange={() => toggle(region.id)}
              />
              {region.name}
            </label>
          ))}
        </div>
      </fieldset>
      <p aria-live="polite">
        <Message id="maps.selected" values={{ count: value.length, size }} />
      </p>
      {total > maxBytes ? (
        <p className="xoss-map__error" role="alert">
          <Message id="maps.overLimit" />
        </p>
      ) : null}
    </div>
  );
}
