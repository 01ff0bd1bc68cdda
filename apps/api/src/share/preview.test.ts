import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  PREVIEW_TOKENS,
  MAX_TRACK_POINTS,
  PREVIEW_HEIGHT,
  PREVIEW_WIDTH,
  TRACK_BOX,
  previewSvg,
  renderPreview,
  type PreviewInput,
} from './preview.ts';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

interface Decoded {
  readonly width: number;
  readonly height: number;
  /** RGBA, 4 bytes a pixel, row by row. */
  readonly rgba: Uint8Array;
}

/** A minimal PNG decoder for what resvg writes: 8-bit RGBA, not interlaced. */
function decodePng(png: Uint8Array): Decoded {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Uint8Array[] = [];
  while (offset < png.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      expect(data[8]).toBe(8); // bit depth
      expect(data[9]).toBe(6); // colour type RGBA
      expect(data[12]).toBe(0); // not interlaced
    } else if (type === 'IDAT') {
      idat.push(data);
    }
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const rgba = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= 4 ? rgba[y * stride + x - 4]! : 0;
      const b = y > 0 ? rgba[(y - 1) * stride + x]! : 0;
      const c = x >= 4 && y > 0 ? rgba[(y - 1) * stride + x - 4]! : 0;
      let predictor: number;
      switch (filter) {
        case 0:
          predictor = 0;
          break;
        case 1:
          predictor = a;
          break;
        case 2:
          predictor = b;
          break;
        case 3:
          predictor = (a + b) >> 1;
          break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          throw new Error(`bad PNG filter ${filter}`);
      }
      rgba[y * stride + x] = (line[x]! + predictor) & 0xff;
    }
  }
  return { width, height, rgba };
}

/** Pixels in the track box that are clearly the brand red (the track line). */
function redPixelsInTrackBox(img: Decoded): number {
  let count = 0;
  for (let y = TRACK_BOX.y; y < TRACK_BOX.y + TRACK_BOX.height; y++) {
    for (let x = TRACK_BOX.x; x < TRACK_BOX.x + TRACK_BOX.width; x++) {
      const i = (y * img.width + x) * 4;
      const r = img.rgba[i]!;
      const g = img.rgba[i + 1]!;
      const b = img.rgba[i + 2]!;
      if (r > 180 && g < 90 && b < 90) count++;
    }
  }
  return count;
}

/** A loop near Shenzhen with some wiggle, `n` points. */
function loop(n: number): [number, number][] {
  return Array.from({ length: n }, (_, i): [number, number] => {
    const t = (i / n) * 2 * Math.PI;
    return [
      22.54 + 0.05 * Math.sin(t) + 0.002 * Math.sin(t * 97),
      114.06 + 0.08 * Math.cos(t) + 0.002 * Math.cos(t * 89),
    ];
  });
}

const base: PreviewInput = {
  title: 'Morning loop around the bay',
  subtitle: 'Ana · 12 Oct 2026 · Cycling',
  figures: [
    { label: 'Distance', value: '86.4 km' },
    { label: 'Time', value: '3:12:45' },
    { label: 'Elevation', value: '1,204 m' },
    { label: 'Avg speed', value: '27.0 km/h' },
  ],
  segments: [loop(500)],
};

/** The numbers in the track path's `d`, as [x, y] pairs. */
function trackPoints(svg: string): [number, number][] {
  const d = /<path id="track" d="([^"]*)"/.exec(svg)?.[1];
  if (d === undefined) return [];
  const nums = d.match(/-?\d+(?:\.\d+)?/g)?.map(Number) ?? [];
  const pts: [number, number][] = [];
  for (let i = 0; i + 1 < nums.length; i += 2) pts.push([nums[i]!, nums[i + 1]!]);
  return pts;
}

describe('renderPreview', () => {
  it("draws with the design tokens' values, as ui-kit's styles.css defines them", () => {
    const css = readFileSync(
      new URL('../../../../packages/ui-kit/src/styles.css', import.meta.url),
      'utf8',
    );
    for (const [token, value] of Object.entries(PREVIEW_TOKENS))
      expect(`${token}: ${new RegExp(`${token}:\\s*(#[0-9a-f]+)`, 'i').exec(css)?.[1]}`).toBe(
        `${token}: ${value}`,
      );
  });

  it('makes a 1200x630 PNG', async () => {
    const png = await renderPreview(base);
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
    expect(String.fromCharCode(...png.subarray(12, 16))).toBe('IHDR');
    expect(view.getUint32(16)).toBe(PREVIEW_WIDTH);
    expect(view.getUint32(20)).toBe(PREVIEW_HEIGHT);
  });

  it('draws the track: many more red pixels in the track box than with no track', async () => {
    const withTrack = decodePng(await renderPreview(base));
    const indoor = decodePng(await renderPreview({ ...base, segments: [] }));
    expect(withTrack.width).toBe(PREVIEW_WIDTH);
    expect(withTrack.height).toBe(PREVIEW_HEIGHT);
    const drawn = redPixelsInTrackBox(withTrack);
    const empty = redPixelsInTrackBox(indoor);
    expect(drawn).toBeGreaterThan(2000);
    expect(empty).toBeLessThan(drawn / 10);
  });

  it('keeps the track inside its box', () => {
    for (const [x, y] of trackPoints(previewSvg(base))) {
      expect(x).toBeGreaterThanOrEqual(TRACK_BOX.x);
      expect(x).toBeLessThanOrEqual(TRACK_BOX.x + TRACK_BOX.width);
      expect(y).toBeGreaterThanOrEqual(TRACK_BOX.y);
      expect(y).toBeLessThanOrEqual(TRACK_BOX.y + TRACK_BOX.height);
    }
  });

  it('escapes XML-special characters and still renders', async () => {
    const input: PreviewInput = {
      ...base,
      title: `<script>&"'`,
      subtitle: 'a < b & c > d',
      figures: [{ label: '<b>', value: '"1" & 2' }],
    };
    const svg = previewSvg(input);
    expect(svg).toContain('&lt;script&gt;&amp;&quot;&apos;');
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('a &lt; b &amp; c &gt; d');
    expect(svg).not.toContain('<b>');
    const png = await renderPreview(input);
    expect(decodePng(png).width).toBe(PREVIEW_WIDTH);
  });

  it('survives characters XML forbids (controls, lone surrogates)', async () => {
    const input: PreviewInput = { ...base, title: 'a\u0000b\u0007c\ud800d\udc00e\nf' };
    expect(previewSvg(input)).toContain('abcde f');
    await expect(renderPreview(input)).resolves.toBeInstanceOf(Uint8Array);
  });

  it('skips NaN and infinite coordinates', async () => {
    const input: PreviewInput = {
      ...base,
      segments: [
        [
          [22.5, 114.0],
          [Number.NaN, 114.01],
          [22.51, Number.NaN],
          [Number.POSITIVE_INFINITY, 114.02],
          [22.52, 114.02],
        ],
        [[Number.NaN, Number.NaN]],
      ],
    };
    const svg = previewSvg(input);
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(trackPoints(svg)).toHaveLength(2);
    await expect(renderPreview(input)).resolves.toBeInstanceOf(Uint8Array);
  });

  it('treats a track of only bad points like no track', () => {
    const svg = previewSvg({ ...base, segments: [[[Number.NaN, 1]]] });
    expect(svg).not.toContain('id="track"');
    expect(svg).not.toMatch(/NaN/);
  });

  it('draws a single-point or stationary track without dividing by zero', async () => {
    const still: PreviewInput = {
      ...base,
      segments: [
        [[45, 7]],
        [
          [45, 7],
          [45, 7],
        ],
      ],
    };
    expect(previewSvg(still)).not.toMatch(/NaN|Infinity/);
    await expect(renderPreview(still)).resolves.toBeInstanceOf(Uint8Array);
  });

  it('bounds 100,000 points to at most the point budget and renders them', async () => {
    const big: PreviewInput = {
      ...base,
      segments: [
        loop(60_000),
        loop(40_000).map(([lat, lon]): [number, number] => [lat + 0.01, lon]),
      ],
    };
    const svg = previewSvg(big);
    const points = trackPoints(svg).length;
    expect(points).toBeGreaterThan(10);
    expect(points).toBeLessThanOrEqual(MAX_TRACK_POINTS);
    const img = decodePng(await renderPreview(big));
    expect(redPixelsInTrackBox(img)).toBeGreaterThan(2000);
  });

  it('renders Chinese, Japanese and emoji titles without throwing', async () => {
    for (const title of ['周末环湖骑行 🚴', '朝の峠ライド', '👨‍👩‍👧 family ride']) {
      const png = await renderPreview({ ...base, title });
      expect(decodePng(png).height).toBe(PREVIEW_HEIGHT);
    }
  });

  it('fits very long titles and many or long figures', async () => {
    const input: PreviewInput = {
      title: 'A very long ride name '.repeat(40),
      subtitle: 'x'.repeat(1000),
      figures: Array.from({ length: 8 }, (_, i) => ({
        label: `Label ${i}`,
        value: `${i}`.repeat(50),
      })),
      segments: [],
    };
    const svg = previewSvg(input);
    expect(svg).toContain('…');
    expect(svg.match(/font-weight="bold"/g)?.length).toBeLessThanOrEqual(1 + 2 + 4);
    await expect(renderPreview(input)).resolves.toBeInstanceOf(Uint8Array);
  });
});
