// Real files written by other makers' devices and apps (see corpus/NOTICE.md): every one is
// read, damaged ones up to the damage, and GPX distances agree with a plain DOM reading.
import { readFileSync } from 'node:fs';
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import {
  activityFromGpx,
  activityFromTcx,
  activityOverview,
  decodeFit,
  parseGpx,
  parseTcx,
} from '../src/index.ts';

interface Entry {
  readonly file: string;
  readonly kind: 'activity' | 'other' | 'damaged' | 'track' | 'route' | 'waypoints';
  readonly device: string;
  readonly notes: string;
}

const corpus = new URL('./corpus/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', corpus), 'utf8')) as Entry[];
const bytesOf = (entry: Entry) => new Uint8Array(readFileSync(new URL(entry.file, corpus)));
const of = (extension: string, ...kinds: Entry['kind'][]) =>
  manifest.filter((entry) => entry.file.endsWith(extension) && kinds.includes(entry.kind));

describe('the corpus', () => {
  it('holds many devices and every kind of file', () => {
    expect(of('.fit', 'activity').length).toBeGreaterThanOrEqual(40);
    expect(of('.fit', 'damaged').length).toBeGreaterThanOrEqual(2);
    expect(of('.gpx', 'track', 'route', 'waypoints').length).toBeGreaterThanOrEqual(20);
    expect(of('.tcx', 'activity', 'route').length).toBeGreaterThanOrEqual(8);
    const makers = new Set(
      of('.fit', 'activity').map((entry) => entry.device.split(/\s/)[0]!.toLowerCase()),
    );
    expect(makers.size).toBeGreaterThanOrEqual(6);
  });
});

describe('FIT files of other devices', () => {
  it.each(of('.fit', 'activity').map((entry) => [entry.file, entry] as const))(
    '%s is read whole, with its sessions and timed samples',
    (_, entry) => {
      const strict = decodeFit(bytesOf(entry), { strict: true });
      if (!strict.ok) throw new Error(strict.error.message);
      expect(strict.value.damage).toBeUndefined();
      expect(strict.value.sessions.length).toBeGreaterThanOrEqual(1);
      const overview = activityOverview(strict.value);
      expect(overview.streams.time.length).toBeGreaterThanOrEqual(2);
      // Two older watches without a clock count from the FIT epoch (1989-12-31).
      expect(overview.startTime).toBeGreaterThanOrEqual(631_065_600);
    },
  );

  it.each(of('.fit', 'other').map((entry) => [entry.file, entry] as const))(
    '%s (not an activity) is read without records',
    (_, entry) => {
      const result = decodeFit(bytesOf(entry), { strict: true });
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.value.records.length).toBe(0);
    },
  );

  it.each(of('.fit', 'damaged').map((entry) => [entry.file, entry] as const))(
    '%s is refused by the strict reading and salvaged up to the damage otherwise',
    (_, entry) => {
      const bytes = bytesOf(entry);
      expect(decodeFit(bytes, { strict: true }).ok).toBe(false);
      const salvaged = decodeFit(bytes);
      if (!salvaged.ok) throw new Error(salvaged.error.message);
      expect(salvaged.value.damage).toBeDefined();
      expect(activityOverview(salvaged.value).streams.time.length).toBeGreaterThan(100);
    },
  );

  it('salvages a real ride cut anywhere, keeping the records before the cut', () => {
    const entry = of('.fit', 'activity').find((e) => e.file.includes('Edge810'))!;
    const bytes = bytesOf(entry);
    const whole = decodeFit(bytes);
    if (!whole.ok) throw new Error(whole.error.message);
    for (const share of [0.1, 0.37, 0.5, 0.81, 0.999]) {
      const cut = decodeFit(bytes.subarray(0, Math.floor(bytes.length * share)));
      if (!cut.ok) throw new Error(cut.error.message);
      expect(cut.value.damage).toBeDefined();
      const n = cut.value.records.length;
      expect(n).toBeGreaterThan(whole.value.records.length * share * 0.8);
      expect(Array.from(cut.value.records.timestamp)).toEqual(
        Array.from(whole.value.records.timestamp.subarray(0, n)),
      );
    }
  });
});

// A plain reading of GPX, independent of ours: the DOM's points of each segment and route.
const EARTH_RADIUS_M = 6371008.8;
function plainDistance(text: string): { segments: number[][][]; metres: number } {
  const document = new DOMParser().parseFromString(text, 'text/xml');
  const segments: number[][][] = [];
  for (const [parent, child] of [
    ['trkseg', 'trkpt'],
    ['rte', 'rtept'],
  ] as const) {
    const parents = document.getElementsByTagName(parent);
    for (let i = 0; i < parents.length; i++) {
      const points = parents[i]!.getElementsByTagName(child);
      const segment: number[][] = [];
      for (let j = 0; j < points.length; j++)
        segment.push([
          Number(points[j]!.getAttribute('lat')),
          Number(points[j]!.getAttribute('lon')),
        ]);
      segments.push(segment);
    }
  }
  let metres = 0;
  const rad = Math.PI / 180;
  for (const segment of segments)
    for (let k = 1; k < segment.length; k++) {
      const [lat1, lon1] = segment[k - 1]!;
      const [lat2, lon2] = segment[k]!;
      const a =
        Math.sin(((lat2! - lat1!) * rad) / 2) ** 2 +
        Math.cos(lat1! * rad) * Math.cos(lat2! * rad) * Math.sin(((lon2! - lon1!) * rad) / 2) ** 2;
      metres += 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
    }
  return { segments, metres };
}

describe('GPX files of other apps', () => {
  it.each(of('.gpx', 'track', 'route').map((entry) => [entry.file, entry] as const))(
    '%s is accepted when it holds 2+ points, with the plain haversine distance',
    (_, entry) => {
      const bytes = bytesOf(entry);
      const plain = plainDistance(new TextDecoder('latin1').decode(bytes));
      const result = parseGpx(bytes);
      if (plain.segments.some((segment) => segment.length >= 2)) {
        if (!result.ok) throw new Error(result.error.message);
        expect(result.value.distanceM).toBeCloseTo(plain.metres, 3);
        // A recorded track with times is also an activity.
        if (result.value.hasTime && entry.kind === 'track')
          expect(activityFromGpx(result.value)?.streams.time.length).toBeGreaterThanOrEqual(1);
      } else if (!result.ok) {
        expect(result.error.messageId).toMatch(/^activityFiles\.gpx\./);
      }
    },
  );

  it.each(of('.gpx', 'waypoints').map((entry) => [entry.file, entry] as const))(
    '%s (waypoints only) gets a clear refusal',
    (_, entry) => {
      const result = parseGpx(bytesOf(entry));
      expect(result).toMatchObject({ ok: false, error: { code: 'onlyWaypoints' } });
    },
  );
});

describe('TCX files of other devices', () => {
  it.each(of('.tcx', 'activity').map((entry) => [entry.file, entry] as const))(
    '%s is read as an activity',
    (_, entry) => {
      const result = parseTcx(bytesOf(entry));
      if (!result.ok) throw new Error(result.error.message);
      expect(result.value.laps.length).toBeGreaterThanOrEqual(1);
      const activity = activityFromTcx(result.value);
      expect(activity?.streams.time.length).toBeGreaterThanOrEqual(2);
    },
  );

  it.each(of('.tcx', 'route').map((entry) => [entry.file, entry] as const))(
    '%s (a course) is read, and is not an activity',
    (_, entry) => {
      const result = parseTcx(bytesOf(entry));
      if (!result.ok) throw new Error(result.error.message);
      expect(result.value.sport).toBe('Course');
      expect(activityFromTcx(result.value)).toBeUndefined();
    },
  );
});

describe('laps', () => {
  it("keeps the device's laps: the Edge 810's eight, adding up to its session", () => {
    const entry = manifest.find((candidate) => candidate.file.includes('Edge810-Vector'))!;
    const decoded = decodeFit(bytesOf(entry));
    if (!decoded.ok) throw new Error(decoded.error.message);
    const overview = activityOverview(decoded.value);
    const laps = overview.laps ?? [];
    expect(laps).toHaveLength(8);
    const session = decoded.value.sessions[0]!;
    const sum = (key: 'timerS' | 'distanceM') =>
      laps.reduce((total, lap) => total + (lap[key] ?? 0), 0);
    expect(sum('timerS')).toBeCloseTo(Number(session.totalTimerTime), 0);
    expect(Math.abs(sum('distanceM') - Number(session.totalDistance))).toBeLessThan(5);
    // In order, each starting where the ride is, with the power meter's averages.
    for (const [index, lap] of laps.entries()) {
      expect(lap.start).toBeGreaterThanOrEqual(index === 0 ? -1 : laps[index - 1]!.start);
      expect(lap.avgPower).toBeGreaterThan(0);
    }
  });

  it('reads the laps of every real FIT activity that has some as starting inside the ride', () => {
    let withLaps = 0;
    for (const entry of of('.fit', 'activity')) {
      const decoded = decodeFit(bytesOf(entry));
      if (!decoded.ok) continue;
      const overview = activityOverview(decoded.value);
      const end = overview.streams.time.at(-1) ?? 0;
      for (const lap of overview.laps ?? []) {
        expect(lap.start, entry.file).toBeGreaterThan(-3600);
        expect(lap.start, entry.file).toBeLessThanOrEqual(end + 1);
      }
      if ((overview.laps ?? []).length > 0) withLaps++;
    }
    expect(withLaps).toBeGreaterThan(20);
  });
});
