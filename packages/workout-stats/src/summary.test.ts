import { describe, expect, it } from 'vitest';
import { downsampleMinMax } from './downsample.ts';
import { elevationGainLoss, gradeSeries } from './elevation.ts';
import { simulateRide } from './simulate.ts';
import { summarizeRange, summarizeSessions, summarizeWorkout } from './summary.ts';
import { oneHertzSeries, sampleIndexAt, timeline, timerFromSamples } from './timeline.ts';

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
    // An hour at FTP: 3,571 full 30 s windows (bike computers' convention), not 3,600 s.
    expect(summary.trainingStressScore).toBeCloseTo(((3600 - 29) / 3600) * 100, 9);
    // 900 kJ of work at 24% efficiency.
    expect(summary.calories).toBeCloseTo(900 / (4.184 * 0.24), 6);
    expect(summary.heartRateZones!.zones[2]!.seconds).toBe(3600);
  });

  it('counts gaps over 5 s without movement as paused, and standing still as stopped', () => {
    const time = f([0, 1, 2, 3, 63, 64, 65]);
    const streams = {
      time,
      speed: f([5, 5, 0, 5, 5, 5, 5]),
      distance: f([0, 5, 10, 10, 15, 20, 25]),
    };
    expect(timerFromSamples(streams)).toEqual([
      [0, 4],
      [63, 66],
    ]);
    const summary = summarizeWorkout(streams, { distanceUnit: 1 });
    expect(summary.totalTimeS).toBe(66);
    expect(summary.timerTimeS).toBe(7);
    // 2 -> 3 stood still (its speed reading is 0); 3 stands for 1 s before the pause, moving
    // by its speed reading (5 m/s).
    expect(summary.movingTimeS).toBe(6);
    expect(summary.pausedTimeS).toBe(59);
    expect(summary.stoppedTimeS).toBe(1);
    expect(summary.distance.unit).toBe('mi');
  });

  it('counts smart recording (a sample every 1-8 s) as moving when the distance grew', () => {
    // 30 km/h (8.33 m/s) for an hour, sampled every 1 to 8 seconds.
    const times: number[] = [0];
    while (times[times.length - 1]! < 3600)
      times.push(times[times.length - 1]! + 1 + ((times.length * 7) % 8));
    const time = f(times);
    const distance = f(times.map((t) => t * (30 / 3.6)));
    const power = f(times.map(() => 200));
    const summary = summarizeWorkout({ time, distance, power }, { ftpWatts: 200 });
    const end = times[times.length - 1]! + 1;
    expect(summary.timerTimeS).toBe(end);
    expect(summary.movingTimeS).toBe(end);
    expect(summary.avgSpeedMs! * 3.6).toBeCloseTo(30, 0);
    expect(summary.normalizedPower).toBeCloseTo(200, 6);
    expect(summary.trainingStressScore).toBeCloseTo(((end - 29) / 3600) * 100, 6);
  });

  it('counts a device that writes distance every third record as moving throughout, and a real stop as stopped', () => {
    // 30 km/h for 20 minutes with a 2-minute stop at 600 s; distance written on every third
    // record only (the others repeat it), as some devices and smart recording do.
    const time = f(Array.from({ length: 1200 }, (_, t) => t));
    const exact = (t: number) => (t < 600 ? t : t < 720 ? 600 : t - 120) * (30 / 3.6);
    const distance = f(Array.from(time, (t) => exact(t - (t % 3))));
    const summary = summarizeWorkout({ time, distance });
    expect(summary.timerTimeS).toBe(1200);
    // Moving but for the stop, give or take the distance's updates around its two ends (one
    // step of three records each); one record's step alone would have missed 800 s.
    expect(Math.abs(summary.movingTimeS - 1080)).toBeLessThanOrEqual(6);
    expect(summary.avgSpeedMs! * 3.6).toBeCloseTo(30, 0);
  });

  it('reads the highest speed from the distance when there is no speed channel, over 3 s, not one jump', () => {
    // 20 km/h for a minute, then 64 km/h (17.78 m/s) for 20 s, then 20 km/h; one GPS fix
    // catching up adds 30 m in a second at 40 s.
    const time = f(Array.from({ length: 120 }, (_, t) => t));
    let metres = 0;
    const distance = f(
      Array.from(time, (t) => {
        const here = metres;
        metres += (t >= 60 && t < 80 ? 64 : 20) / 3.6 + (t === 40 ? 30 : 0);
        return here;
      }),
    );
    const summary = summarizeWorkout({ time, distance });
    expect(summary.maxSpeedMs! * 3.6).toBeCloseTo(64, 6);
  });

  it('tells no speed for a ride with no speed, distance or position (a trainer without a sensor)', () => {
    const time = f(Array.from({ length: 600 }, (_, t) => t));
    const summary = summarizeWorkout({ time, power: f(Array.from(time, () => 180)) });
    expect(summary.movingTimeS).toBe(600);
    expect(summary.avgSpeedMs).toBeUndefined();
    expect(summary.maxSpeedMs).toBeUndefined();
    expect(summary.avgPower).toBe(180);
  });

  it("follows the device's speed reading over the distance's steps when it has one", () => {
    const time = f([0, 1, 2, 3, 4, 5]);
    // Distance in whole 10 m steps: a step of 0 m between two of 10 m, speed 5 m/s throughout.
    const summary = summarizeWorkout({
      time,
      distance: f([0, 10, 10, 20, 20, 30]),
      speed: f([5, 5, 5, 5, 0.2, 5]),
    });
    expect(summary.movingTimeS).toBe(5);
  });

  it('follows the timer intervals of the file, not the gaps', () => {
    // Records every second for 0-99 and 200-299; the timer ran 0-100 and 200-300, and the
    // rider stood still with the timer running from 50 to 60.
    const times = [
      ...Array.from({ length: 100 }, (_, i) => i),
      ...Array.from({ length: 100 }, (_, i) => 200 + i),
    ];
    const distance = f(times.map((t) => (t < 50 ? t * 5 : t < 60 ? 250 : 250 + (t - 60) * 5)));
    const streams = { time: f(times), distance, power: f(times.map(() => 100)) };
    const summary = summarizeWorkout(
      streams,
      {},
      {
        timer: [
          [0, 100],
          [200, 300],
        ],
      },
    );
    expect(summary.timerTimeS).toBe(200);
    expect(summary.movingTimeS).toBe(190);
    expect(summary.totalTimeS).toBe(300);
    expect(summary.pausedTimeS).toBe(100);
    const line = timeline(streams, {
      timer: [
        [0, 100],
        [200, 300],
      ],
    });
    expect(oneHertzSeries(streams.power, line, 'moving').length).toBe(190);
    expect(oneHertzSeries(streams.power, line, 'timer').length).toBe(200);
  });

  it('adds up the sessions of a multisport file, each with its own timer and distance', () => {
    // Swim 0-600 s (distance 0-750 m), transition 600-700 s, bike 700-1900 s (distance
    // restarting at 0, 30 km/h); the file's timer events cover only the bike.
    const times = Array.from({ length: 1900 }, (_, i) => i);
    const distance = f(
      times.map((t) =>
        t < 600 ? t * 1.25 : t < 700 ? 750 + (t - 600) * 0.8 : (t - 700) * (30 / 3.6),
      ),
    );
    const result = summarizeSessions(
      { time: f(times), distance },
      [
        { start: 0, end: 600 },
        { start: 600, end: 700 },
        { start: 700, end: 1900 },
      ],
      {},
      { timer: [[700, 1900]] },
    );
    expect(result.sessions.map((session) => Math.round(session.timerTimeS))).toEqual([
      600, 100, 1200,
    ]);
    expect(result.sessions[2]!.distanceM).toBeCloseTo(1199 * (30 / 3.6), 6);
    expect(result.whole.timerTimeS).toBe(1900);
    expect(result.whole.distanceM).toBeCloseTo(
      result.sessions.reduce((total, session) => total + session.distanceM, 0),
      9,
    );
  });

  it('gives a range over every sample the same figures as the ride', () => {
    const ride = simulateRide({ seconds: 3600, seed: 3, stops: [[600, 90]] });
    expect(summarizeRange(ride, 0, ride.time.length, { ftpWatts: 250 })).toEqual(
      summarizeWorkout(ride, { ftpWatts: 250 }),
    );
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
    expect(summary.stoppedTimeS).toBeGreaterThanOrEqual(120);
    expect(summary.normalizedPower!).toBeGreaterThan(summary.avgPower!);
    expect(summary.elevationGainM!).toBeGreaterThan(0);
    expect(summary.leftRightBalance!).toBeGreaterThan(45);
    const range = summarizeRange(ride, 2000, 2600, {});
    expect(range.totalTimeS).toBe(600);
  });

  it('gives a zoomed range the power, NP and heart rate of its own samples, wherever it lies', () => {
    const ride = simulateRide({ seconds: 7200, seed: 21 });
    const mean = (values: ArrayLike<number>, from: number, to: number) => {
      let sum = 0;
      for (let i = from; i < to; i++) sum += values[i]!;
      return sum / (to - from);
    };
    // Brute force over the range's 1 Hz samples is the oracle: each sample stands for a second.
    for (const [from, to] of [
      [0, 600],
      [1172, 2091],
      [5000, 7100],
      [7000, 7200],
    ] as const) {
      const range = summarizeRange(ride, from, to, { ftpWatts: 250 });
      expect(range.avgPower!).toBeCloseTo(mean(ride.power!, from, to), 6);
      expect(range.avgHeartRate!).toBeCloseTo(mean(ride.heartRate!, from, to), 6);
      expect(range.maxPower).toBe(Math.max(...Array.from(ride.power!.subarray(from, to))));
      // NP of a range is at least its average power (impossible below it).
      expect(range.normalizedPower!).toBeGreaterThanOrEqual(range.avgPower!);
      expect(range.trainingStressScore!).toBeGreaterThan(0);
    }
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

describe('sampleIndexAt', () => {
  it('finds the first sample at or after a time, across gaps and past the end', () => {
    const time = Float64Array.of(0, 1, 5, 6, 6, 9);
    expect([-1, 0, 0.5, 2, 5, 6, 7, 9, 10].map((t) => sampleIndexAt(time, t))).toEqual([
      0, 0, 1, 2, 2, 3, 5, 5, 6,
    ]);
    expect(sampleIndexAt(new Float64Array(0), 3)).toBe(0);
  });
});
