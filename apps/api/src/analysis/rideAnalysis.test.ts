import { simulateRide } from '@xoss/workout-stats';
import { afterAll, describe, expect, it } from 'vitest';
import { AnalysisPool } from '../imports/pool.ts';
import { analysisFigures, extraCurveFigures, wbalFigures } from './rideAnalysis.ts';

describe('intervals and device laps', () => {
  it('gives a work lap its edges in seconds from the start, across a pause before it', () => {
    // 1 Hz at 150 W, the timer paused from 900 to 1200 s; a 10-minute lap from 1400 to
    // 2000 s at 330 W that the rider starts 15 s early, with a 20 s coast in it.
    const time = Float64Array.from({ length: 1800 }, (_, i) => (i < 900 ? i : i + 300));
    const power = time.map((t) => (t >= 1385 && t < 2000 && !(t >= 1420 && t < 1440) ? 330 : 150));
    const task = {
      streams: { time, power },
      timer: [
        [0, 900],
        [1200, 2100],
      ] as const,
      cpW: null,
      wPrimeJ: null,
      ftpW: 250,
      summary: {},
    };
    const edges = (laps?: { start: number; elapsedS: number }[]) =>
      analysisFigures({ ...task, ...(laps ? { laps } : {}) }).intervals.map((i) => [
        i.start_s,
        i.end_s,
      ]);
    expect(edges()).toEqual([[1385, 2000]]);
    const laps = [
      { start: 0, elapsedS: 1400 },
      { start: 1400, elapsedS: 600 },
      { start: 2000, elapsedS: 100 },
    ];
    expect(edges(laps)).toEqual([[1400, 2000]]);
  });
});

// Long rides are analysed in the figures worker: the same pure functions, so the same figures.
// Starting the figures worker takes seconds when this 2-core machine is shared.
describe('ride analysis in the figures worker', () => {
  const pool = new AnalysisPool(1);
  afterAll(() => pool.close());

  it('gives the figures the API thread gives', async () => {
    const ride = simulateRide({ seconds: 4000, seed: 5 });
    const streams = {
      time: ride.time,
      power: ride.power!,
      heart_rate: ride.heartRate!,
      cadence: ride.cadence!,
      speed: ride.speed!,
      distance: ride.distance!,
      altitude: ride.altitude!,
    };
    const task = {
      streams,
      timer: null,
      cpW: 260,
      wPrimeJ: 20_000,
      ftpW: 250,
      summary: { normalizedPower: 240, avgHeartRate: 150 },
    };
    const inline = analysisFigures(task);
    expect(inline.intervals.length).toBeGreaterThan(0);
    expect(inline.climbs.length).toBeGreaterThan(0);
    expect(await pool.figures('analysis', task)).toEqual(inline);
    expect(await pool.figures('wbal', task)).toEqual(wbalFigures(task));
    const curves = { streams, timer: null, kinds: ['heart_rate', 'pace'] as const };
    expect(await pool.figures('curves', curves)).toEqual(extraCurveFigures(curves));
  });

  it("gives riders turns: one rider's many asks do not keep another rider waiting", async () => {
    const ride = simulateRide({ seconds: 3000, seed: 6 });
    const streams = { time: ride.time, heart_rate: ride.heartRate!, speed: ride.speed! };
    const curves = { streams, timer: null, kinds: ['heart_rate', 'pace'] as const };
    const order: string[] = [];
    const ask = (owner: string, label: string) =>
      pool.figures('curves', curves, owner).then(() => order.push(label));
    await Promise.all([
      ask('a', 'a1'),
      ask('a', 'a2'),
      ask('a', 'a3'),
      ask('a', 'a4'),
      ask('b', 'b1'),
    ]);
    // Rider b's one ask runs second, not after all of a's.
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
  });
});
