/**
 * The charts' scales: linear, logarithmic and band, with just what the charts and axes use
 * (map, invert, domain, range, round ticks, a band's width). Our own instead of
 * `@visx/scale`, which brings d3-scale and with it d3's colour, interpolation, number and
 * time formatting modules (about 10 kB brotli on every chart page, none of it used: our
 * axes format their own labels). Ticks fall on round steps (1, 2 or 5 times a power of ten)
 * as d3's do, so axes read the same.
 */

/** A continuous scale from values to pixels. */
export interface ContinuousScale {
  (value: number): number;
  domain(): [number, number];
  range(): [number, number];
  /** The value at a pixel. */
  invert(pixel: number): number;
  /** About `count` round values within the domain, ascending. */
  ticks(count?: number): number[];
}

/** Bands of equal width for a list of keys (bar charts). */
export interface BandScale<T> {
  /** The left edge of `key`'s band, undefined for a key not in the domain. */
  (key: T): number | undefined;
  domain(): T[];
  range(): [number, number];
  /** The width of one band. */
  bandwidth(): number;
}

/**
 * The round step (1, 2 or 5 times a power of ten) that cuts [start, stop] into about
 * `count` parts. The thresholds sit at the geometric middles (√2, √10, √50), so the step
 * picked is the one nearest on a log scale.
 */
export function roundStep(start: number, stop: number, count: number): number {
  const raw = Math.abs(stop - start) / Math.max(1e-12, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 0;
  const power = 10 ** Math.floor(Math.log10(raw));
  const ratio = raw / power;
  const factor =
    ratio >= Math.sqrt(50) ? 10 : ratio >= Math.sqrt(10) ? 5 : ratio >= Math.SQRT2 ? 2 : 1;
  return power * factor;
}

/**
 * Round values in [start, stop] (either order; returned ascending). Each is an integer
 * count of steps, divided rather than multiplied for steps under 1 so that 0.1 steps give
 * 0.3, not 0.30000000000000004.
 */
export function roundTicks(start: number, stop: number, count: number): number[] {
  const low = Math.min(start, stop);
  const high = Math.max(start, stop);
  if (!(count > 0) || !Number.isFinite(low) || !Number.isFinite(high)) return [];
  if (low === high) return [low];
  const step = roundStep(low, high, count);
  if (step === 0) return [low];
  const perUnit = step < 1 ? Math.round(1 / step) : 0;
  // `+ 0` writes -0 as 0.
  const at = (index: number) => (perUnit ? index / perUnit : index * step) + 0;
  let first = perUnit ? Math.ceil(low * perUnit - 1e-9) : Math.ceil(low / step - 1e-9);
  const last = perUnit ? Math.floor(high * perUnit + 1e-9) : Math.floor(high / step + 1e-9);
  const ticks: number[] = [];
  for (; first <= last; first++) ticks.push(at(first));
  return ticks;
}

/** `domain` widened to round steps at both ends (d3's `nice()`, about 10 steps). */
function niceDomain([start, stop]: [number, number]): [number, number] {
  let low = Math.min(start, stop);
  let high = Math.max(start, stop);
  let previous = 0;
  // Widening can change the step once more; it settles within a few rounds.
  for (let round = 0; round < 10; round++) {
    const step = roundStep(low, high, 10);
    if (step === 0 || step === previous) break;
    low = Math.floor(low / step) * step;
    high = Math.ceil(high / step) * step;
    previous = step;
  }
  return start <= stop ? [low, high] : [high, low];
}

/**
 * A linear scale. `nice` widens the domain to round values at both ends, as charts want
 * for their value axis. A domain of one value maps to the middle of the range.
 */
export function linearScale({
  domain,
  range,
  nice = false,
}: {
  domain: readonly [number, number];
  range: readonly [number, number];
  nice?: boolean;
}): ContinuousScale {
  const [d0, d1] = nice ? niceDomain([domain[0], domain[1]]) : [domain[0], domain[1]];
  const [r0, r1] = range;
  const span = d1 - d0;
  const scale = ((value: number) =>
    span === 0 ? (r0 + r1) / 2 : r0 + ((value - d0) / span) * (r1 - r0)) as ContinuousScale;
  scale.domain = () => [d0, d1];
  scale.range = () => [r0, r1];
  scale.invert = (pixel) => (r1 === r0 ? d0 : d0 + ((pixel - r0) / (r1 - r0)) * span);
  scale.ticks = (count = 10) => roundTicks(d0, d1, count);
  return scale;
}

/**
 * A logarithmic scale (base 10) for a domain of positive values, e.g. durations from 1 s to
 * hours. Its ticks are the powers of ten within the domain (charts on a log axis usually
 * pass their own tick values).
 */
export function logScale({
  domain,
  range,
}: {
  domain: readonly [number, number];
  range: readonly [number, number];
}): ContinuousScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const l0 = Math.log(d0);
  const span = Math.log(d1) - l0;
  const scale = ((value: number) =>
    span === 0
      ? (r0 + r1) / 2
      : r0 + ((Math.log(value) - l0) / span) * (r1 - r0)) as ContinuousScale;
  scale.domain = () => [d0, d1];
  scale.range = () => [r0, r1];
  scale.invert = (pixel) => (r1 === r0 ? d0 : Math.exp(l0 + ((pixel - r0) / (r1 - r0)) * span));
  scale.ticks = () => {
    const ticks: number[] = [];
    const [low, high] = [Math.min(d0, d1), Math.max(d0, d1)];
    for (let power = Math.ceil(Math.log10(low) - 1e-9); 10 ** power <= high * (1 + 1e-9); power++)
      ticks.push(10 ** power);
    return ticks;
  };
  return scale;
}

/**
 * Bands for `domain`'s keys across `range`, in order: `padding` (0-1) is the share of each
 * step left as the gap between bands, and the same share of a step is left at each end
 * (as with d3's `scaleBand().padding(p)`), the bands centred in the range.
 */
export function bandScale<T>({
  domain,
  range,
  padding = 0,
}: {
  domain: readonly T[];
  range: readonly [number, number];
  padding?: number;
}): BandScale<T> {
  const keys = [...domain];
  const index = new Map(keys.map((key, position) => [key, position]));
  const [r0, r1] = range;
  const count = keys.length;
  // count bands and count - 1 inner gaps, plus a gap of `padding` steps at each end.
  const step = (r1 - r0) / Math.max(1, count - padding + 2 * padding);
  const start = r0 + (r1 - r0 - step * (count - padding)) / 2;
  const scale = ((key: T) => {
    const position = index.get(key);
    return position === undefined ? undefined : start + step * position;
  }) as BandScale<T>;
  scale.domain = () => [...keys];
  scale.range = () => [r0, r1];
  scale.bandwidth = () => step * (1 - padding);
  return scale;
}
