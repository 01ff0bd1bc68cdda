import { haversineMetres } from '@xoss/workout-stats';
import { describe, expect, it } from 'vitest';
import type { StoredStreams } from '../analysis/series.ts';
import { streamsFrom } from '../rides/replies.ts';
import { computeVisibility, sharedStreams, visibilityOf, type Privacy } from './privacy.ts';

const HOME: [number, number] = [48.137, 11.575];
const WORK: [number, number] = [48.2, 11.4];

/** Moves `metres` east and `north` north of a point. */
function offset([lat, lon]: [number, number], east: number, north: number): [number, number] {
  const dLat = north / 111_195;
  const dLon = east / (111_195 * Math.cos((lat * Math.PI) / 180));
  return [lat + dLat, lon + dLon];
}

/**
 * A ride as a rider's device records it at the door: 200 s standing at home with the fix
 * wandering ±4 m (the distance stream counts the wandering: hundreds of metres), a ride out
 * and back through a zone, and 200 s of the same noise at the end, at home again.
 */
function joggedRide(seed = 3): StoredStreams {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const points: [number, number][] = [];
  for (let i = 0; i < 200; i++) points.push(offset(HOME, random() * 8 - 4, random() * 8 - 4));
  // Out: 20 km west-north-west, passing WORK on the way, then the same road back.
  const out: [number, number][] = [];
  for (let i = 1; i <= 2500; i++) {
    const f = i / 2500;
    out.push([HOME[0] + (WORK[0] - HOME[0]) * 1.2 * f, HOME[1] + (WORK[1] - HOME[1]) * 1.2 * f]);
  }
  points.push(...out, ...[...out].reverse());
  for (let i = 0; i < 200; i++) points.push(offset(HOME, random() * 8 - 4, random() * 8 - 4));
  const n = points.length;
  const distance = new Float64Array(n);
  for (let i = 1; i < n; i++)
    distance[i] = distance[i - 1]! + haversineMetres(...points[i - 1]!, ...points[i]!);
  return {
    time: Float64Array.from({ length: n }, (_, i) => 1_790_000_000 + i),
    latitude: Float64Array.from(points, (p) => p[0]),
    longitude: Float64Array.from(points, (p) => p[1]),
    distance,
    speed: Float64Array.from({ length: n }, (_, i) =>
      i > 0 ? distance[i]! - distance[i - 1]! : 0,
    ),
    altitude: Float64Array.from({ length: n }, () => 520),
    heart_rate: Float64Array.from({ length: n }, () => 130),
  };
}

const privacy: Privacy = {
  trimM: 300,
  zones: [{ latitude: WORK[0], longitude: WORK[1], radiusM: 400 }],
};

describe('what a share link shows of a ride', () => {
  it('hides every fix within the trim of the start and end in a straight line, despite GPS noise at the door', async () => {
    const streams = joggedRide();
    // The noise alone is far more than the trim along the track.
    expect(streams.distance![199]!).toBeGreaterThan(300);
    const visibility = await computeVisibility(streams, privacy);
    const { latitude, longitude } = streams;
    let shown = 0;
    for (let i = 0; i < visibility.hidden.length; i++) {
      if (visibility.hidden[i]) continue;
      shown++;
      const at: [number, number] = [latitude![i]!, longitude![i]!];
      expect(haversineMetres(...HOME, ...at)).toBeGreaterThanOrEqual(300);
      expect(haversineMetres(...WORK, ...at)).toBeGreaterThan(400);
    }
    expect(shown).toBeGreaterThan(4000);
    // The window starts after the start's noise and ends before the end's.
    expect(visibility.first).toBeGreaterThan(200);
    expect(visibility.last).toBeLessThan(streams.time!.length - 200);
    // Bounds and the picture come from visible fixes only: home is outside the bounds.
    const bounds = visibility.bounds!;
    expect(
      HOME[0] >= bounds.min_lat &&
        HOME[0] <= bounds.max_lat &&
        HOME[1] >= bounds.min_lon &&
        HOME[1] <= bounds.max_lon,
    ).toBe(false);
    const drawn = visibility.segments.flat();
    expect(drawn.length).toBeGreaterThan(100);
    expect(drawn.length).toBeLessThan(4100);
    for (const point of drawn)
      expect(haversineMetres(...HOME, ...point)).toBeGreaterThanOrEqual(300);
    // The zone is crossed out and back: to it, beyond it to the turn and back, from it home.
    expect(visibility.segments).toHaveLength(3);
  });

  it('sends no position, distance, speed or altitude of a hidden sample, and nothing of the trimmed ends', async () => {
    const streams = joggedRide();
    const visibility = await computeVisibility(streams, privacy);
    const window = sharedStreams(streams, visibility, { heartRate: true, power: true });
    const reply = streamsFrom(window.streams, { points: 20_000 }, { withheld: window.withheld });
    const shared = reply.streams;
    const length = reply.length;
    expect(length).toBe(visibility.last - visibility.first + 1);
    expect(window.streams.time![0]).toBe(streams.time![visibility.first]);
    let gaps = 0;
    for (let k = 0; k < length; k++) {
      const lat = shared.latitude![k];
      if (lat === null) {
        gaps++;
        for (const name of ['longitude', 'distance', 'speed', 'altitude'] as const)
          expect(shared[name]![k], name).toBeNull();
        expect(shared.heart_rate![k]).toBe(130);
        continue;
      }
      expect(haversineMetres(...HOME, lat!, shared.longitude![k]!)).toBeGreaterThanOrEqual(300);
    }
    // The zone in the middle is crossed twice.
    expect(gaps).toBeGreaterThan(50);
    // Distance starts at 0 at the first point shown, and keeps the ride's own increments.
    const shown = shared.distance!.findIndex((value) => value !== null);
    expect(shared.distance![shown]).toBe(0);
    const at = (k: number) => visibility.first + k;
    const later = shared.distance!.findLastIndex((value) => value !== null);
    expect(shared.distance![later]).toBeCloseTo(
      streams.distance![at(later)]! - streams.distance![at(shown)]!,
      0,
    );
    expect(streams.distance![at(shown)]).toBeGreaterThan(300);
    // The owner's streams are untouched.
    expect(streams.latitude!.some((value) => Number.isNaN(value))).toBe(false);
  });

  it('shows no position at all of a ride shorter than twice the trim', async () => {
    const streams = joggedRide();
    const short = Object.fromEntries(
      Object.entries(streams).map(([name, column]) => [name, column.slice(0, 260)]),
    );
    const visibility = await computeVisibility(short, privacy);
    expect(visibility.hidden.every((value) => value === 1)).toBe(true);
    expect(visibility.bounds).toBeNull();
    const window = sharedStreams(short, visibility, { heartRate: true, power: true });
    const { streams: shared } = streamsFrom(
      window.streams,
      { points: 20_000 },
      { withheld: window.withheld },
    );
    expect(shared.latitude!.every((value) => value === null)).toBe(true);
    expect(shared.distance!.every((value) => value === null)).toBe(true);
    expect(shared.heart_rate!.every((value) => value === 130)).toBe(true);
  });

  it('computes a ride’s visibility once per privacy, and again when the zones change', async () => {
    const streams = joggedRide();
    const once = visibilityOf(streams, privacy);
    expect(visibilityOf(streams, { ...privacy, zones: [...privacy.zones] })).toBe(once);
    const other = visibilityOf(streams, { trimM: 300, zones: [] });
    expect(other).not.toBe(once);
    // Without the zone the middle is shown whole: one stretch.
    expect((await other).segments).toHaveLength(1);
  });

  it('yields to the event loop while it computes the largest ride', async () => {
    const streams = joggedRide();
    const big = Object.fromEntries(
      Object.entries(streams).map(([name, column]) => {
        const out = new Float64Array(400_000);
        for (let i = 0; i < out.length; i++) out[i] = column[i % column.length]!;
        return [name, out];
      }),
    );
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    await computeVisibility(big, privacy);
    clearInterval(ticking);
    // Timers ran between the slices: more than one per 100,000 samples.
    expect(turns).toBeGreaterThan(4);
  });
});
