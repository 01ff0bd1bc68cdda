import { describe, expect, it } from 'vitest';
import { describeInterval, findIntervals } from './intervals.ts';
import { normalizedPower } from './normalizedPower.ts';
import { seededRandom } from './simulate.ts';
import { wPrimeBalance } from './wbal.ts';

const FTP = 250;

/** Blocks of [seconds, share of FTP], with ±`noise` uniform noise on each second. */
function workout(blocks: readonly [number, number][], seed = 5, noise = 0.1): Float64Array {
  const random = seededRandom(seed);
  const power: number[] = [];
  for (const [seconds, share] of blocks)
    for (let i = 0; i < seconds; i++)
      power.push(Math.round(FTP * share * (1 + noise * (2 * random() - 1))));
  return Float64Array.from(power);
}

// 10 min warm-up at 60 %, 5 × (4 min at 110 %, 3 min at 50 %), 10 min cool-down at 55 %.
const blocks: [number, number][] = [[600, 0.6]];
for (let r = 0; r < 5; r++) blocks.push([240, 1.1], [180, 0.5]);
blocks.push([600, 0.55]);

describe('findIntervals', () => {
  it('finds exactly the five 4-minute efforts of a noisy 5 × 4 min workout', () => {
    const power = workout(blocks);
    const intervals = findIntervals(power, FTP);
    expect(intervals).toHaveLength(5);
    intervals.forEach((interval, r) => {
      const start = 600 + r * 420;
      expect(Math.abs(interval.startS - start)).toBeLessThanOrEqual(2);
      expect(Math.abs(interval.endS - (start + 240))).toBeLessThanOrEqual(2);
      expect(interval.durationS).toBe(interval.endS - interval.startS);
      expect(Math.abs(interval.avgPowerW / (1.1 * FTP) - 1)).toBeLessThan(0.02);
    });
  });

  it('keeps an effort whole across a short dip and splits it across a long one', () => {
    const short = workout(
      [
        [300, 0.5],
        [120, 1.0],
        [6, 0.3],
        [120, 1.0],
        [300, 0.5],
      ],
      2,
      0.05,
    );
    expect(findIntervals(short, FTP).map((i) => [i.startS, i.endS])).toEqual([[300, 546]]);
    const long = workout(
      [
        [300, 0.5],
        [120, 1.0],
        [90, 0.3],
        [120, 1.0],
        [300, 0.5],
      ],
      2,
      0.05,
    );
    // Two efforts, each within a second of its segment (the 2 s ramps between segments).
    const found = findIntervals(long, FTP);
    expect(found).toHaveLength(2);
    [
      [300, 420],
      [510, 630],
    ].forEach(([start, end], i) => {
      expect(Math.abs(found[i]!.startS - start!)).toBeLessThanOrEqual(1);
      expect(Math.abs(found[i]!.endS - end!)).toBeLessThanOrEqual(1);
    });
  });

  it('keeps 30/15 s repetitions apart and a trimmed 29 s repetition at 190 % of FTP', () => {
    const power = workout(
      [
        [300, 0.5],
        [30, 1.9],
        [15, 0.4],
        [30, 1.9],
        [15, 0.4],
        [29, 1.9],
        [300, 0.5],
      ],
      2,
      0.02,
    );
    expect(findIntervals(power, FTP).map((i) => [i.startS, i.endS])).toEqual([
      [300, 330],
      [345, 375],
      [390, 419],
    ]);
  });

  it('gives a work lap its own edges when the efforts in it start and end within 60 s of them', () => {
    // The rider is on the power 15 s before pressing the lap button, coasts 20 s early in
    // the lap, holds 110 % to 10 s before its end, then rides 12 s hard after 12 s of rest.
    const power = workout([
      [600, 0.55],
      [15, 1.1], // 600-615: before the lap (lap: 615-1815)
      [25, 1.1],
      [20, 0], // 640-660
      [1145, 1.1],
      [12, 0.2], // 1805-1817
      [12, 1.1],
      [600, 0.55],
    ]);
    const lap: [number, number] = [615, 1815];
    const laps = [[0, 615], lap, [1815, power.length]] as const;
    const plain = findIntervals(power, FTP);
    expect(
      plain.some((i) => Math.abs(i.startS - lap[0]) > 10 || Math.abs(i.endS - lap[1]) > 10),
    ).toBe(true);
    const snapped = findIntervals(power, FTP, { laps });
    expect(snapped.map((i) => [i.startS, i.endS])).toEqual([lap]);
    // The lap's mean, not the efforts': 20 s of coasting included.
    const sum = power.subarray(lap[0], lap[1]).reduce((a, b) => a + b, 0);
    expect(snapped[0]!.avgPowerW).toBeCloseTo(sum / 1200, 9);
  });

  it('leaves efforts as found in a lap that is no work, holds efforts apart, or is far off', () => {
    const power = workout([
      [600, 0.55],
      [120, 1.1], // 600-720
      [240, 0.5],
      [120, 1.1], // 960-1080
      [600, 0.55],
    ]);
    const found = findIntervals(power, FTP).map((i) => [i.startS, i.endS]);
    expect(found).toHaveLength(2);
    for (const laps of [
      [[540, 1140]], // both efforts within 60 s of its edges, but the lap averages 75 % of FTP
      [[0, 1680]], // the whole ride: efforts far from its edges
      [[500, 800]], // an effort 100 s from the lap's start
    ] as const) {
      const snapped = findIntervals(power, FTP, { laps }).map((i) => [i.startS, i.endS]);
      expect(snapped).toEqual(found);
    }
  });

  it('does not cut a steady tempo ride into dozens, and keeps a climb that stands out of it', () => {
    const random = seededRandom(7);
    // An hour of steady riding at 80-95 % of FTP, its power wandering as a rider's does
    // (a drift of about ±10 % over tens of seconds, ±15 % second to second), auto-laps
    // every 15 minutes.
    const laps = [0, 900, 1800, 2700].map((start) => [start, start + 900] as const);
    for (const share of [0.8, 0.85, 0.9, 0.95]) {
      let drift = 0;
      const power = Float64Array.from({ length: 3600 }, () => {
        drift = 0.95 * drift + 0.05 * (random() - 0.5) * 2 * 0.3 * FTP;
        return FTP * share + drift + (random() - 0.5) * 0.3 * FTP * share;
      });
      expect(findIntervals(power, FTP, { laps }).length, `${share}`).toBeLessThanOrEqual(2);
      // A 5-minute climb at 130 % in the middle of a ride below the threshold is an
      // interval (its auto-lap, which the climb lifts above the laps beside it, is none).
      if (share > 0.8) continue;
      power.fill(FTP * 1.3, 1500, 1800);
      const climb = findIntervals(power, FTP, { laps }).filter(
        (interval) => interval.startS < 1800 && interval.endS > 1500,
      );
      expect(climb).toHaveLength(1);
      // It holds the climb; its edges reach out over some of the riding at 75 % of FTP and
      // more around it (the build-up and fade rule), never far.
      expect(climb[0]!.startS).toBeLessThanOrEqual(1505);
      expect(climb[0]!.endS).toBeGreaterThanOrEqual(1795);
      expect(climb[0]!.durationS).toBeLessThanOrEqual(300 + 2 * 90);
    }
  });

  it('makes the work laps the intervals whatever FTP, and no lap of a steady ride one', () => {
    // 2 × 20 min at 300 W, 3 minutes at 200 W between them, 10 minutes either side at 180 W.
    const power = Float64Array.from({ length: 3780 }, (_, i) =>
      (i >= 600 && i < 1800) || (i >= 1980 && i < 3180) ? 300 : i < 600 || i >= 3180 ? 180 : 200,
    );
    const laps = [
      [0, 600],
      [600, 1800],
      [1800, 1980],
      [1980, 3180],
      [3180, 3780],
    ] as const;
    for (const ftp of [220, 250, 280, 330]) {
      const found = findIntervals(power, ftp, { laps }).map((i) => [i.startS, i.endS]);
      expect(found, `FTP ${ftp}`).toEqual([
        [600, 1800],
        [1980, 3180],
      ]);
    }
    const steady = Float64Array.from({ length: 3600 }, () => 240);
    const quarters = [0, 900, 1800, 2700].map((start) => [start, start + 900] as const);
    expect(findIntervals(steady, 250, { laps: quarters })).toHaveLength(1);
  });

  it('ignores single spikes and efforts shorter than the minimum', () => {
    const power = workout(
      [
        [300, 0.5],
        [20, 1.2],
        [300, 0.5],
      ],
      3,
      0.05,
    );
    power[100] = 900; // one sprint second in the recovery
    expect(findIntervals(power, FTP)).toEqual([]);
    expect(findIntervals(power, FTP, { minDurationS: 15 })).toHaveLength(1);
  });

  it('fills heart rate, cadence and W′ balance of each interval', () => {
    const power = workout(blocks);
    const heartRate = Float64Array.from(power, (_, i) => (i % 2 === 0 ? 150 : 160));
    heartRate[700] = 0; // a drop-out is no reading
    const cadence = Float64Array.from(power, () => 90);
    const wbal = wPrimeBalance(power, 260, 20000);
    const [first] = findIntervals(power, FTP, { heartRate, cadence, wbal });
    expect(first!.avgHr).toBeGreaterThan(154);
    expect(first!.avgHr).toBeLessThan(156);
    expect(first!.avgCadence).toBe(90);
    expect(first!.wbalEndJ).toBe(wbal[first!.endS - 1]);
    expect(first!.wbalEndJ).toBeLessThan(20000);
  });

  it('describes an interval: mean power and NP of exactly its seconds', () => {
    const power = workout(blocks);
    const interval = describeInterval(power, 600, 840);
    const slice = Array.from(power.subarray(600, 840));
    expect(interval.avgPowerW).toBeCloseTo(slice.reduce((a, b) => a + b, 0) / 240, 9);
    expect(interval.npW).toBeCloseTo(normalizedPower(slice)!, 9);
    expect(interval).not.toHaveProperty('avgHr');
  });

  it('rejects an FTP that is not positive', () => {
    expect(() => findIntervals([100], 0)).toThrow(RangeError);
  });
});
