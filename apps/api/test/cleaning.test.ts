// Numbers a rider can trust from the files riders really have (issue #44): real corpus
// files, and copies of them made dirty on purpose, checked against the clean file's figures
// (mean-max on the clock against an independent one: corpus.test.ts).
import { readFileSync } from 'node:fs';
import { activityFromStreams, activityOverview, decodeFit, encodeFit } from '@xoss/activity-files';
import { withFtp } from '@xoss/workout-stats';
import { describe, expect, it } from 'vitest';
import { analyseActivity, type Analysis } from '../src/analysis/analyse.ts';

const corpus = new URL('../../../packages/activity-files/test/corpus/', import.meta.url);
const bytesOf = (file: string) => new Uint8Array(readFileSync(new URL(file, corpus)));

function analysed(bytes: Uint8Array): Analysis {
  const result = analyseActivity(bytes);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const within = (ours: number | null | undefined, oracle: number, share: number) =>
  ours !== null && ours !== undefined && Math.abs(ours - oracle) <= Math.abs(oracle) * share;

describe('power spikes are kept out of every figure', () => {
  // A real 1 Hz Garmin ride with a power meter, written back as FIT twice: as it is, and with
  // the glitch of a real Garmin file (four samples of 21,733 W) and seven isolated spikes.
  const file = 'fit/fitparse-Edge810-Vector-2013-08-16-15-35-10.fit';
  const decoded = decodeFit(bytesOf(file));
  if (!decoded.ok) throw new Error('corpus file');
  const streams = activityOverview(decoded.value).streams;
  const startTime = 1_376_000_000;
  const clean = analysed(encodeFit(activityFromStreams(streams, { startTime, sport: 2 })));
  const power = streams.power!.slice();
  // Seconds of coasting (0 W, neighbours under 400 W), spread over the ride.
  const coasting: number[] = [];
  for (let i = 100; i < power.length - 100; i++)
    if (power[i] === 0 && power[i - 1]! < 400 && power[i + 1]! < 400) coasting.push(i);
  const at = Array.from({ length: 8 }, (_, k) => coasting[Math.floor((k * coasting.length) / 8)]!);
  power.fill(21_733, at[0], at[0]! + 4);
  const spikes = [3_000, 5_986, 8_000, 12_000, 2_600, 1_600, 1_300];
  spikes.forEach((watts, k) => (power[at[k + 1]!] = watts));
  const dirty = analysed(
    encodeFit(activityFromStreams({ ...streams, power }, { startTime, sport: 2 })),
  );

  it('counts what it took out and keeps the stored power a gap there', () => {
    expect(clean.summary.cleaning?.power).toBe(0);
    expect(dirty.summary.cleaning?.power).toBe(4 + spikes.length);
    expect(Number.isNaN(dirty.streams.power![at[0]!]!)).toBe(true);
    expect(Number.isNaN(dirty.streams.power![at[7]!]!)).toBe(true);
  });

  it('gives the clean ride’s NP, TSS and bests', () => {
    const ftp = 250;
    const ours = withFtp(dirty.summary, ftp);
    const oracle = withFtp(clean.summary, ftp);
    expect(within(ours.normalizedPower, oracle.normalizedPower!, 0.01)).toBe(true);
    expect(within(ours.trainingStressScore, oracle.trainingStressScore!, 0.01)).toBe(true);
    expect(ours.maxPower).toBeLessThan(2500);
    for (const index of [0, 1, 3]) {
      expect(within(dirty.bests.powerW[index], clean.bests.powerW[index]!, 0.01)).toBe(true);
    }
    expect(dirty.powerCurve![0]).toBeLessThan(2500);
    expect(dirty.ftpEstimate).toBe(clean.ftpEstimate);
  });

  it('matches the device’s own NP on the real file', () => {
    const original = analysed(bytesOf(file));
    const device = original.deviceSummary.normalizedPower as number;
    expect(within(original.summary.normalizedPower, device, 0.01)).toBe(true);
  });
});

const text = (file: string) => readFileSync(new URL(file, corpus), 'utf8');

describe('time that is not a ride’s time makes no record', () => {
  // A real GPX ride and a copy with a point dated 1903 before it and its middle point moved
  // 466.7 km away (the two faults real GPX files brought).
  const file = 'gpx/gpxpy-korita-zbevnica.gpx';
  const original = text(file);
  const points = [...original.matchAll(/<trkpt[\s\S]*?<\/trkpt>/g)]
    .map((m) => m[0])
    .filter((point) => point.includes('<time>'));
  const first = points[0]!;
  const middle = points[Math.floor(points.length / 2)]!;
  const dated1903 = first.replace(/<time>[^<]*<\/time>/, '<time>1903-06-01T10:00:00Z</time>');
  const farAway = middle.replace(/lat="([-\d.]+)"/, (_, lat: string) => `lat="${+lat + 4.2}"`);
  const dirtyText = original.replace(first, `${dated1903}\n${first}`).replace(middle, farAway);

  it('drops the points out of the ride and keeps the clean figures', () => {
    const clean = analysed(new TextEncoder().encode(original));
    const dirty = analysed(new TextEncoder().encode(dirtyText));
    expect(dirty.summary.cleaning?.points).toBe(2);
    expect(dirty.startTime).toBe(clean.startTime);
    expect(dirty.summary.totalTimeS).toBe(clean.summary.totalTimeS);
    expect(within(dirty.summary.distanceM, clean.summary.distanceM, 0.01)).toBe(true);
    dirty.bests.timeS.forEach((seconds, index) => {
      const oracle = clean.bests.timeS[index];
      if (oracle === null || oracle === undefined) expect(seconds).toBeNull();
      else expect(within(seconds, oracle, 0.01)).toBe(true);
    });
    expect(dirty.facts.climbs.length).toBe(clean.facts.climbs.length);
  });
});

// The glitches of real altimeters and heart-rate straps, put into copies of real files: three
// points at -500 m (a GPX, a TCX and a FIT), and heart-rate spikes to 250 bpm and drop-outs
// to 40 bpm (a FIT). The figures must stay the clean ride's.
describe('altitude and heart rate cleaned like power', () => {
  // Grades a road allows (the steepest paved roads are under 40 %).
  const ROAD_GRADE_PCT = 40;

  /** A copy of an XML file with the altitude of three timed points, a third into the track, at -500 m. */
  function withSunkenPoints(original: string, point: 'trkpt' | 'Trackpoint', tag: string): string {
    const points = [...original.matchAll(new RegExp(`<${point}[\\s>][\\s\\S]*?</${point}>`, 'g'))]
      .map((m) => m[0])
      .filter((text) => text.includes('<time>') || text.includes('<Time>'))
      .filter((text) => text.includes(`<${tag}>`));
    const at = Math.floor(points.length / 3);
    let dirty = original;
    for (const text of points.slice(at, at + 3))
      dirty = dirty.replace(
        text,
        text.replace(new RegExp(`<${tag}>[^<]*</${tag}>`), `<${tag}>-500</${tag}>`),
      );
    return dirty;
  }

  function expectCleanAltitude(clean: Analysis, dirty: Analysis) {
    expect(dirty.summary.cleaning?.altitude).toBe(3);
    expect(clean.summary.elevationGainM).toBeGreaterThan(10);
    expect(within(dirty.summary.elevationGainM, clean.summary.elevationGainM!, 0.05)).toBe(true);
    expect(within(dirty.summary.elevationLossM, clean.summary.elevationLossM!, 0.05)).toBe(true);
    expect(dirty.summary.maxGradePercent!).toBeLessThan(ROAD_GRADE_PCT);
    expect(dirty.summary.minGradePercent!).toBeGreaterThan(-ROAD_GRADE_PCT);
    expect(dirty.facts.climbs.length).toBe(clean.facts.climbs.length);
  }

  it.each([
    ['gpx/gpxpy-korita-zbevnica.gpx', 'trkpt', 'ele'],
    ['tcx/dblock-tcx-20090528-202902.tcx', 'Trackpoint', 'AltitudeMeters'],
  ] as const)(
    '%s: three points at -500 m leave the clean climbing and grades',
    (file, point, tag) => {
      const original = text(file);
      const clean = analysed(new TextEncoder().encode(original));
      const dirty = analysed(new TextEncoder().encode(withSunkenPoints(original, point, tag)));
      expect(clean.summary.cleaning?.altitude).toBe(0);
      expectCleanAltitude(clean, dirty);
    },
  );

  const fit = 'fit/fitparse-Edge810-Vector-2013-08-16-15-35-10.fit';
  const decoded = decodeFit(bytesOf(fit));
  if (!decoded.ok) throw new Error('corpus file');
  const streams = activityOverview(decoded.value).streams;
  const startTime = 1_376_000_000;
  const encode = (changes: Partial<typeof streams>) =>
    analysed(encodeFit(activityFromStreams({ ...streams, ...changes }, { startTime, sport: 2 })));
  const clean = encode({});

  it('a FIT ride: three points at -500 m leave the clean climbing and grades', () => {
    const altitude = streams.altitude!.slice();
    const at = Math.floor(altitude.length / 3);
    altitude.fill(-500, at, at + 3);
    expect(clean.summary.cleaning?.altitude).toBe(0);
    expectCleanAltitude(clean, encode({ altitude }));
  });

  it('a FIT ride: heart-rate spikes and drop-outs leave its heart rate as it was', () => {
    const heartRate = streams.heartRate!.slice();
    const spots = Array.from({ length: 6 }, (_, k) => Math.floor(((k + 1) * heartRate.length) / 8));
    // Two single spikes to 250, a three-sample burst to 245, a drop-out to 40 bpm.
    heartRate[spots[0]!] = 250;
    heartRate[spots[1]!] = 250;
    heartRate.fill(245, spots[2], spots[2]! + 3);
    heartRate.fill(40, spots[3], spots[3]! + 2);
    const dirty = encode({ heartRate });
    expect(clean.summary.cleaning?.heartRate).toBe(0);
    expect(dirty.summary.cleaning?.heartRate).toBe(7);
    expect(Math.abs(dirty.summary.maxHeartRate! - clean.summary.maxHeartRate!)).toBeLessThanOrEqual(
      2,
    );
    expect(Math.abs(dirty.summary.avgHeartRate! - clean.summary.avgHeartRate!)).toBeLessThanOrEqual(
      1,
    );
    // Its real peak is kept: the clean ride's highest reading is in the dirty one's streams.
    const stored = (dirty.streams as Record<string, Float64Array>).heart_rate!;
    expect(Math.max(...stored.filter(Number.isFinite))).toBe(clean.summary.maxHeartRate);
  });
});

// A file thinned out to a point an hour (three points, 15 km and 500 m of height apart, with
// a heart rate): it recorded three moments, not a ride. It was read as a category 2 climb
// with 2:08:44 of moving time and 7,724 s of heart-rate zone time.
describe('a sparse file gives nothing it did not record', () => {
  const point = (k: number) =>
    `<trkpt lat="${46 + k * 0.135}" lon="14"><ele>${100 + k * 500}</ele>` +
    `<time>2024-05-01T0${6 + k}:00:00Z</time><extensions><gpxtpx:TrackPointExtension>` +
    `<gpxtpx:hr>150</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>`;
  const gpx =
    '<?xml version="1.0"?><gpx version="1.1" creator="thinned" xmlns="http://www.topografix.com/GPX/1/1" ' +
    'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><trkseg>' +
    [0, 1, 2].map(point).join('') +
    '</trkseg></trk></gpx>';

  it('has no moving time, climbs or zone time between its points', () => {
    const sparse = analysed(new TextEncoder().encode(gpx));
    expect(sparse.summary.totalTimeS).toBeGreaterThanOrEqual(7200);
    expect(sparse.summary.timerTimeS).toBeLessThanOrEqual(3);
    expect(sparse.summary.movingTimeS).toBeLessThanOrEqual(3);
    expect(sparse.facts.climbs).toEqual([]);
    const zoned = Object.entries(sparse.summary.heartRateSeconds ?? {})
      .filter(([bpm]) => Number(bpm) > 0)
      .reduce((total, [, seconds]) => total + seconds, 0);
    expect(zoned).toBeLessThanOrEqual(3);
    // Its distance stays what its points say.
    expect(sparse.summary.distanceM).toBeGreaterThan(25_000);
  });
});
