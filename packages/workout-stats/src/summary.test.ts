import { describe, expect, it } from 'vitest';
import { downsampleMinMax } from './downsample.ts';
import { elevationGainLoss, gradeSeries } from './elevation.ts';
import { simulateRide } from './simulate.ts';
import { sampleDurations, summarizeRange, summarizeWorkout } from './summary.ts';

const f = (values: number[]) => Float64Array.from(values);

describe('elevation', () => {
  it('ignores noise inside the hysteresis and counts real climbs', () => {
    expect(elevationGainLoss([100, 101, 100, 101, 110, 104])).toEqual({ gain: 10, loss: 6 });
    expect(elevationGainLoss([100, 102, 100, 102, 100])).toEqual({ gain: 0, loss: 0 });
    expect(elevationGainLoss([Number.NaN, 10, 20])).toEqual({ gain: 10, loss: 0 });
  });
  it('measures grade over 100 m', () => {
    const distance = f([0, 50, 100, 150, 200]);
    const altitude = f([0, 2, 5, 8, 10]);
    const grade = gradeSeries(distance, altitude);
    expect(Number.isNaN(grade[1]!)).toBe(true);
    expect(grade[2]).toBeCloseTo(5, 9);
    expect(grade[4]).toBeCloseTo(5, 9);
  });
});

describe('summarizeWorkout', () => {
  it('computes a hand-checked steady ride', () => {
    const n = 3600;
    const summary = summarizeWorkout(
      {
        time: f(Array.from({ length: n }, (_, i) => i)),
        power: f(new Array<number>(n).fill(250)),
        speed: f(new Array<number>(n).fill(10)),
        distance: f(Array.from({ length: n }, (_, i) => i * 10)),
        heartRate: f(new Array<number>(n).fill(150)),
        cadence: f(new Array<number>(n).fill(90)),
      },
      { ftpWatts: 250, maxHeartRate: 200, distanceUnit: 0 },
    );
    expect(summary).toMatchObject({
      totalTimeS: 3600,
      movingTimeS: 3600,
      pausedTimeS: 0,
      distanceM: 35990,
      avgPower: 250,
      maxPower: 250,
      avgHeartRate: 150,
      avgCadence: 90,
    });
    expect(summary.distance).toEqual({ value: 35.99, unit: 'km' });
    expect(summary.normalizedPower).toBeCloseTo(250, 9);
    expect(summary.intensityFactor).toBeCloseTo(1, 9);
    expect(summary.trainingStressScore).toBeCloseTo(100, 9);
    // 900 kJ of work at 24% efficiency.
    expect(summary.calories).toBeCloseTo(900 / (4.184 * 0.24), 6);
    expect(summary.heartRateZones!.zones[2]!.seconds).toBe(3600);
  });

  it('counts gaps over 5 s and stopped samples as paused time', () => {
    const time = f([0, 1, 2, 3, 63, 64, 65]);
    expect(Array.from(sampleDurations(time))).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const summary = summarizeWorkout(
      { time, speed: f([5, 5, 0, 5, 5, 5, 5]), distance: f([0, 5, 10, 10, 15, 20, 25]) },
      { distanceUnit: 1 },
    );
    expect(summary.totalTimeS).toBe(66);
    expect(summary.movingTimeS).toBe(6);
    expect(summary.pausedTimeS).toBe(60);
    expect(summary.distance.unit).toBe('mi');
  });

  it('uses heart rate for calories without power, and GPS for distance without a distance channel', () => {
    const summary = summarizeWorkout({
      time: f([0, 1, 2]),
      heartRate: f([140, 140, 140]),
      speed: f([5, 5, 5]),
      latitude: f([0, 0, 0]),
      longitude: f([0, 0.001, 0.002]),
    });
    expect(summary.caloriesSource).toBe('heartRate');
    expect(summary.distanceM).toBeCloseTo(222.39, 1);
  });

  it('summarizes a simulated 10-hour ride and a zoomed range of it', () => {
    const ride = simulateRide({ seconds: 36000, seed: 5, stops: [[1000, 120]] });
    const summary = summarizeWorkout(ride, { ftpWatts: 250, maxHeartRate: 185 });
    expect(summary.pausedTimeS).toBeGreaterThanOrEqual(120);
    expect(summary.normalizedPower!).toBeGreaterThan(summary.avgPower!);
    expect(summary.elevationGainM!).toBeGreaterThan(0);
    expect(summary.leftRightBalance!).toBeGreaterThan(45);
    const range = summarizeRange(ride, 2000, 2600, {});
    expect(range.totalTimeS).toBe(600);
  });
});

describe('downsampleMinMax and simulateRide', () => {
  it('keeps spikes and dips of a long series', () => {
    const values = new Float64Array(36000).fill(200);
    values[12345] = 1500;
    values[23456] = 0;
    const indices = downsampleMinMax(values, 1000);
    expect(indices.length).toBeLessThanOrEqual(1000);
    expect(indices).toContain(12345);
    expect(indices).toContain(23456);
    for (let i = 1; i < indices.length; i++) expect(indices[i]!).toBeGreaterThan(indices[i - 1]!);
  });
  it('simulates the same ride for the same seed', () => {
    const a = simulateRide({ seconds: 600, seed: 9 });
    const b = simulateRide({ seconds: 600, seed: 9 });
    expect(Array.from(a.power!)).toEqual(Array.from(b.power!));
    expect(simulateRide({ seconds: 60, indoor: true }).latitude).toBeUndefined();
  });
});
