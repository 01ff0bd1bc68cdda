import { escapeXml, cleanText, textWidth, truncate, wrap } from './previewText.ts';

// Over 300 lines: the preview card is drawn as one SVG (track, title, figures, layout) and
// rendered to PNG here; its drawing code reads best in one place.
/**
 * Server-side preview image for a shared ride: the 1200x630 picture a chat app shows
 * (Open Graph / Twitter card) when a rider pastes the share link. Made without a
 * browser: an SVG built here as a string, rasterised to PNG by resvg (`@resvg/resvg-js`,
 * a native renderer whose prebuilt binaries ship inside its npm packages).
 *
 * Fonts: system fonts are never loaded (a fresh CI or server machine may have none), so
 * the output is the same everywhere. Text is set in DejaVu Sans (regular and bold), read
 * by path from the `dejavu-fonts-ttf` npm package (Bitstream Vera licence + public-domain
 * DejaVu changes: free to redistribute). DejaVu covers Latin, Greek, Cyrillic, Armenian,
 * Georgian, Hebrew, Arabic basics and many symbols, but NOT Chinese, Japanese or Korean
 * ideographs/kana/hangul, nor colour emoji: those characters render as the font's
 * ".notdef" boxes. No Noto CJK package small enough was found (the npm packages holding a
 * Noto Sans SC/JP TTF are 50-90 MB, the small ones only ship WOFF2, which resvg cannot
 * read), so CJK titles fall back to boxes; they never make rendering fail.
 */
import { createRequire } from 'node:module';
import { renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';

export interface PreviewInput {
  /** Ride name, any Unicode. */
  readonly title: string;
  /** E.g. "Ana · 12 Oct 2026 · Cycling", already formatted by the caller. */
  readonly subtitle: string;
  /** Up to 4 are drawn, e.g. `{ label: 'Distance', value: '86.4 km' }`. */
  readonly figures: readonly { readonly label: string; readonly value: string }[];
  /**
   * The visible track as [latitude, longitude] pairs (privacy zones already removed by
   * the caller); may be empty (indoor ride) or have gaps as separate segments.
   */
  readonly segments: readonly (readonly (readonly [number, number])[])[];
}

export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 630;
/** Where the track is drawn (when there is one), in image pixels. */
export const TRACK_BOX = { x: 700, y: 40, width: 460, height: 400 } as const;
/** At most this many track points end up in one image, whatever the input size. */
export const MAX_TRACK_POINTS = 2000;

/**
 * The design tokens the card is drawn with, as values: the server draws without a browser,
 * so it cannot read ui-kit's `styles.css`; a test checks these against it.
 */
export const PREVIEW_TOKENS = {
  '--xoss-color-brand': '#e60012',
  '--xoss-color-ink': '#1a1d21',
  '--xoss-color-ink-muted': '#565d66',
  '--xoss-color-surface': '#ffffff',
  '--xoss-color-surface-alt': '#f3f4f6',
} as const;
const BRAND_RED = PREVIEW_TOKENS['--xoss-color-brand'];
const INK = PREVIEW_TOKENS['--xoss-color-ink'];
const MUTED = PREVIEW_TOKENS['--xoss-color-ink-muted'];
const SURFACE = PREVIEW_TOKENS['--xoss-color-surface'];
const PANEL = PREVIEW_TOKENS['--xoss-color-surface-alt'];
const FONT_FAMILY = 'DejaVu Sans';
const MARGIN = 60;
const TRACK_PADDING = 36;

// ---------------------------------------------------------------------------------------
// Text helpers

function textEl(
  x: number,
  y: number,
  text: string,
  size: number,
  fill: string,
  extra = '',
): string {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${fill}"${extra}>${escapeXml(text)}</text>`;
}

// ---------------------------------------------------------------------------------------
// Track geometry

type Pt = [number, number];

/** Keeps finite, in-range pairs; longitudes are unwrapped across the antimeridian. */
function cleanSegments(segments: PreviewInput['segments']): [number, number][][] {
  const out: [number, number][][] = [];
  let prevLon: number | undefined;
  for (const segment of segments) {
    const pts: [number, number][] = [];
    for (const pair of segment) {
      const lat = pair[0];
      let lon = pair[1];
      if (!Number.isFinite(lat) || !Number.isFinite(lon)) continue;
      if (lat < -90 || lat > 90 || lon < -360 || lon > 360) continue;
      if (prevLon !== undefined) {
        while (lon - prevLon > 180) lon -= 360;
        while (lon - prevLon < -180) lon += 360;
      }
      prevLon = lon;
      pts.push([lat, lon]);
    }
    if (pts.length > 0) out.push(pts);
  }
  return out;
}

/**
 * Equirectangular projection scaled by cos(mid-latitude), fitted into `box` (aspect kept,
 * centred, with padding). Returns pixel coordinates.
 */
function project(
  segments: readonly (readonly [number, number])[][],
  box: { x: number; y: number; width: number; height: number },
  padding: number,
): Pt[][] {
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLon = Infinity;
  let maxLon = -Infinity;
  for (const seg of segments) {
    for (const [lat, lon] of seg) {
      if (lat < minLat) minLat = lat;
      if (lat > maxLat) maxLat = lat;
      if (lon < minLon) minLon = lon;
      if (lon > maxLon) maxLon = lon;
    }
  }
  const k = Math.max(Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180), 0.01);
  const spanX = (maxLon - minLon) * k;
  const spanY = maxLat - minLat;
  const innerW = box.width - 2 * padding;
  const innerH = box.height - 2 * padding;
  const span = Math.max(spanX / innerW, spanY / innerH);
  const scale = span > 0 ? 1 / span : 0;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const midLon = (minLon + maxLon) / 2;
  const midLat = (minLat + maxLat) / 2;
  return segments.map((seg) =>
    seg.map(([lat, lon]): Pt => [cx + (lon - midLon) * k * scale, cy - (lat - midLat) * scale]),
  );
}

/** Drops points closer than `minDist` pixels to the last kept one (keeps the ends). */
function thin(points: Pt[], minDist: number): Pt[] {
  if (points.length <= 2) return points;
  const first = points[0] as Pt;
  const out: Pt[] = [first];
  let [lx, ly] = first;
  const d2 = minDist * minDist;
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i] as Pt;
    const dx = p[0] - lx;
    const dy = p[1] - ly;
    if (dx * dx + dy * dy >= d2) {
      out.push(p);
      [lx, ly] = p;
    }
  }
  out.push(points[points.length - 1] as Pt);
  return out;
}

/** Ramer–Douglas–Peucker with an explicit stack (no recursion depth limit). */
function simplify(points: Pt[], tolerance: number): Pt[] {
  const n = points.length;
  if (n <= 2) return points;
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const stack: number[] = [0, n - 1];
  const tol2 = tolerance * tolerance;
  while (stack.length > 0) {
    const last = stack.pop() as number;
    const firstIdx = stack.pop() as number;
    const [ax, ay] = points[firstIdx] as Pt;
    const [bx, by] = points[last] as Pt;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let maxD = -1;
    let index = -1;
    for (let i = firstIdx + 1; i < last; i++) {
      const [px, py] = points[i] as Pt;
      let d: number;
      if (len2 === 0) {
        d = (px - ax) ** 2 + (py - ay) ** 2;
      } else {
        const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
        d = (px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2;
      }
      if (d > maxD) {
        maxD = d;
        index = i;
      }
    }
    if (index > 0 && maxD > tol2) {
      keep[index] = 1;
      stack.push(firstIdx, index, index, last);
    }
  }
  return points.filter((_, i) => keep[i] === 1);
}

/** Keeps every k-th point (and both ends) so the total stays within `budget`. */
function decimate(segments: Pt[][], budget: number): Pt[][] {
  const total = segments.reduce((n, s) => n + s.length, 0);
  if (total <= budget) return segments;
  const step = Math.ceil(total / Math.max(budget - 2 * segments.length, 1));
  return segments.map((seg) => {
    if (seg.length <= 2) return seg;
    const out = seg.filter((_, i) => i % step === 0);
    const lastPt = seg[seg.length - 1] as Pt;
    if (out[out.length - 1] !== lastPt) out.push(lastPt);
    return out;
  });
}

/** Cleans, projects and simplifies the track into pixel polylines inside `TRACK_BOX`. */
function trackPixels(segments: PreviewInput['segments']): Pt[][] {
  const clean = cleanSegments(segments);
  if (clean.length === 0) return [];
  const projected = project(clean, TRACK_BOX, TRACK_PADDING);
  let simplified = projected.map((seg) => simplify(thin(seg, 0.75), 0.4));
  // Drop whole segments beyond the budget's reach (each keeps at least its 2 ends).
  if (simplified.length > MAX_TRACK_POINTS / 2) {
    simplified = simplified.slice(0, MAX_TRACK_POINTS / 2);
  }
  return decimate(simplified, MAX_TRACK_POINTS);
}

function fmt(n: number): string {
  return (Math.round(n * 10) / 10).toString();
}

function trackSvg(pixels: Pt[][]): string {
  const { x, y, width, height } = TRACK_BOX;
  const parts: string[] = [
    `<rect x="${x}" y="${y}" width="${width}" height="${height}" rx="24" fill="${PANEL}"/>`,
  ];
  let d = '';
  const dots: Pt[] = [];
  for (const seg of pixels) {
    if (seg.length === 1) {
      dots.push(seg[0] as Pt);
      continue;
    }
    seg.forEach(([px, py], i) => {
      d += `${i === 0 ? 'M' : 'L'}${fmt(px)} ${fmt(py)}`;
    });
  }
  if (d !== '') {
    // A white casing under the red line keeps crossings readable.
    const common = 'fill="none" stroke-linecap="round" stroke-linejoin="round"';
    parts.push(`<path d="${d}" ${common} stroke="${SURFACE}" stroke-width="11"/>`);
    parts.push(`<path id="track" d="${d}" ${common} stroke="${BRAND_RED}" stroke-width="6"/>`);
  }
  for (const [px, py] of dots) {
    parts.push(`<circle cx="${fmt(px)}" cy="${fmt(py)}" r="4" fill="${BRAND_RED}"/>`);
  }
  const first = pixels[0]?.[0];
  const lastSeg = pixels[pixels.length - 1];
  const last = lastSeg?.[lastSeg.length - 1];
  if (first && last) {
    parts.push(
      `<circle cx="${fmt(first[0])}" cy="${fmt(first[1])}" r="9" fill="${SURFACE}" stroke="${INK}" stroke-width="4"/>`,
      `<circle cx="${fmt(last[0])}" cy="${fmt(last[1])}" r="9" fill="${INK}" stroke="${SURFACE}" stroke-width="3"/>`,
    );
  }
  return parts.join('');
}

// ---------------------------------------------------------------------------------------
// The card

/** The preview card as an SVG document (1200x630); all text is XML-escaped. */
export function previewSvg(input: PreviewInput): string {
  const pixels = trackPixels(input.segments);
  const hasTrack = pixels.length > 0;
  // Title and subtitle share the top with the track; the figures row spans the width.
  const fullWidth = PREVIEW_WIDTH - 2 * MARGIN;
  const textWidthMax = hasTrack ? TRACK_BOX.x - 40 - MARGIN : fullWidth;

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" viewBox="0 0 ${PREVIEW_WIDTH} ${PREVIEW_HEIGHT}" font-family="${FONT_FAMILY}">`,
    `<rect width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" fill="${SURFACE}"/>`,
    `<rect x="0" y="${PREVIEW_HEIGHT - 14}" width="${PREVIEW_WIDTH}" height="14" fill="${BRAND_RED}"/>`,
    `<rect x="${MARGIN}" y="66" width="10" height="38" fill="${BRAND_RED}"/>`,
    textEl(MARGIN + 22, 100, 'XOSS', 40, BRAND_RED, ' font-weight="bold" letter-spacing="3"'),
  ];

  // Title: one line as large as fits, else two lines, else two lines with an ellipsis.
  const title = cleanText(input.title);
  let titleSize = 64;
  let titleLines = title === '' ? [] : [title];
  if (textWidth(title, titleSize, true) > textWidthMax) {
    titleSize = 52;
    titleLines = wrap(title, textWidthMax, titleSize, true, 2);
  }
  let y = 150 + titleSize;
  for (const line of titleLines) {
    parts.push(textEl(MARGIN, y, line, titleSize, INK, ' font-weight="bold"'));
    y += Math.round(titleSize * 1.2);
  }

  const subtitle = cleanText(input.subtitle);
  if (subtitle !== '') {
    const size = 28;
    y += 4;
    parts.push(textEl(MARGIN, y, truncate(subtitle, textWidthMax, size, false), size, MUTED));
  }

  // Figures: label/value pairs along the bottom, one row under the track; with no track
  // they are drawn larger, in a two-column grid when there are more than two.
  const figures = input.figures
    .slice(0, 4)
    .map((f) => ({ label: cleanText(f.label), value: cleanText(f.value) }))
    .filter((f) => f.label !== '' || f.value !== '');
  if (figures.length > 0) {
    const gap = 24;
    const rowGap = 40;
    const labelSize = hasTrack ? 22 : 24;
    const lastBaseline = PREVIEW_HEIGHT - 62;
    const top = y + 36; // below the subtitle
    /** The largest value size that fits `columns` columns (and the height left). */
    const fitValueSize = (columns: number): number => {
      const rows = Math.ceil(figures.length / columns);
      const colWidth = (fullWidth - gap * (columns - 1)) / columns;
      let size = hasTrack ? 48 : 72;
      for (const f of figures) {
        const w = textWidth(f.value, 1, true);
        if (w > 0) size = Math.min(size, colWidth / w);
      }
      // rows * (label + 12 + value) + (rows - 1) * rowGap must fit between top and baseline
      const height = lastBaseline - top - rows * (labelSize + 12) - (rows - 1) * rowGap;
      return Math.max(Math.floor(Math.min(size, height / rows)), 22);
    };
    let columns = figures.length;
    let valueSize = fitValueSize(columns);
    if (!hasTrack && figures.length > 2 && fitValueSize(2) > valueSize) {
      columns = 2;
      valueSize = fitValueSize(2);
    }
    const rows = Math.ceil(figures.length / columns);
    const colWidth = (fullWidth - gap * (columns - 1)) / columns;
    const rowPitch = valueSize + labelSize + 12 + rowGap;
    figures.forEach((f, i) => {
      const x = Math.round(MARGIN + (i % columns) * (colWidth + gap));
      const baseline = lastBaseline - (rows - 1 - Math.floor(i / columns)) * rowPitch;
      const label = truncate(f.label.toUpperCase(), colWidth, labelSize, false);
      const value = truncate(f.value, colWidth, valueSize, true);
      parts.push(
        textEl(x, baseline - valueSize - 12, label, labelSize, MUTED, ' letter-spacing="1"'),
        textEl(x, baseline, value, valueSize, INK, ' font-weight="bold"'),
      );
    });
  }

  if (hasTrack) parts.push(trackSvg(pixels));
  parts.push('</svg>');
  return parts.join('');
}

// ---------------------------------------------------------------------------------------
// Rendering

let fontFilesCache: string[] | undefined;

/** The bundled fonts, resolved from node_modules (never from the system). */
function fontFiles(): string[] {
  if (fontFilesCache === undefined) {
    const require = createRequire(import.meta.url);
    fontFilesCache = [
      require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
      require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
    ];
  }
  return fontFilesCache;
}

/** Renders the preview card to PNG bytes (1200x630), off the main thread. */
export async function renderPreview(input: PreviewInput): Promise<Uint8Array> {
  const options: ResvgRenderOptions = {
    font: {
      loadSystemFonts: false,
      fontFiles: fontFiles(),
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
    },
    fitTo: { mode: 'original' },
    logLevel: 'off',
  };
  const image = await renderAsync(previewSvg(input), options);
  return image.asPng(); // a Buffer, which is a Uint8Array
}
