// Numbers a rider can trust from the files riders really have (issue #44): real corpus
// files, and copies of them made dirty on purpose, checked against the clean file's figures
// and against a mean-max computed here over the clock.
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

describe('mean-max never joins two efforts across a stop', () => {
  // A real ride with stops; the oracle: the clock second by second from the file's own
  // samples and timer, moving where the device's speed read 0.5 m/s or more, stops of over
  // 5 s breaking the series, and a brute-force best mean over each piece.
  const file = 'fit/fitparse-2019-02-17-062644-ELEMNT-297E-195-0.fit';
  const analysis = analysed(bytesOf(file));

  function oracleEfforts(): Float64Array[] {
    const { time, speed, power } = analysis.streams as Record<string, Float64Array>;
    const origin = time![0]!;
    const timer = analysis.timer;
    const end = time![time!.length - 1]! - origin + 1;
    const efforts: Float64Array[] = [];
    let effort: number[] = [];
    let stop: number[] = [];
    let k = 0;
    let interval = 0;
    for (let t = 0; t < end; t++) {
      while (k + 1 < time!.length && time![k + 1]! - origin <= t) k++;
      while (interval < timer.length && timer[interval]![1] <= t) interval++;
      const running = interval < timer.length && timer[interval]![0] <= t;
      const value = Number.isFinite(power![k]) ? power![k]! : 0;
      if (running && speed![k]! >= 0.5) {
        if (stop.length > 5) {
          if (effort.length) efforts.push(Float64Array.from(effort));
          effort = [];
        } else effort.push(...stop);
        stop = [];
        effort.push(value);
      } else stop.push(running ? value : 0);
    }
    if (effort.length) efforts.push(Float64Array.from(effort));
    return efforts;
  }

  const bestMean = (efforts: Float64Array[], d: number) => {
    let best = -Infinity;
    for (const effort of efforts) {
      let sum = 0;
      for (let i = 0; i < effort.length; i++) {
        sum += effort[i]!;
        if (i >= d) sum -= effort[i - d]!;
        if (i >= d - 1) best = Math.max(best, sum / d);
      }
    }
    return best;
  };

  it('has stops longer than 5 s, and equals the brute force over the clock', () => {
    const efforts = oracleEfforts();
    expect(efforts.length).toBeGreaterThan(1);
    const longest = Math.max(...efforts.map((e) => e.length));
    const curve = analysis.powerCurve!;
    expect(Math.abs(curve.length - longest)).toBeLessThanOrEqual(2);
    for (const d of [5, 60, 300, 1200, 3600]) {
      if (d > longest) continue;
      const oracle = bestMean(efforts, d);
      expect(within(curve[d - 1], oracle, 0.01), `${d} s: ${curve[d - 1]} vs ${oracle}`).toBe(true);
    }
  });
});
