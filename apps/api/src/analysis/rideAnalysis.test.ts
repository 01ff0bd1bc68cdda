import { simulateRide } from '@xoss/workout-stats';
import { afterAll, describe, expect, it } from 'vitest';
import { AnalysisPool } from '../imports/pool.ts';
import { analysisFigures, extraCurveFigures, wbalFigures } from './rideAnalysis.ts';

// Long rides are analysed in the figures worker: the same pure functions, so the same figures.
// Starting the figures worker takes seconds when this 2-core machine is shared.
describe('ride analysis in the figures worker', { timeout: 30_000 }, () => {
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
