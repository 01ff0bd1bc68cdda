import type { RideStreams } from './streams.ts';

/** Options of the ride simulator. */
export interface SimulationOptions {
  /** Length in seconds. */
  readonly seconds: number;
  /** Same seed, same ride. */
  readonly seed?: number;
  readonly ftpWatts?: number;
  readonly maxHeartRate?: number;
  /** Rider and bike in kilograms. */
  readonly massKg?: number;
  /** Indoor rides have no position and no real elevation. */
  readonly indoor?: boolean;
  /** Start position (degrees). */
  readonly start?: { readonly latitude: number; readonly longitude: number };
  /** Stops along the way (traffic lights, café), as [start second, length]; speed and power 0. */
  readonly stops?: readonly (readonly [number, number])[];
  /**
   * The rider's usual effort in a block, as a fraction of FTP. 0.8 by default: with the
   * default hills, a hard test ride of IF 1.1-1.3 (the benchmarks' ride). On gentle terrain
   * 0.59 gives an audax pace (IF about 0.62), 0.65-0.7 a training ride or commute (IF 0.7).
   */
  readonly intensity?: number;
  /**
   * How hilly the terrain is: 1 by default (steep rolling hills, 30-60 m of climbing per
   * km); 0.15-0.25 is a usual amateur ride of 5-15 m per km.
   */
  readonly hilliness?: number;
}

/** A small deterministic PRNG (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GRAVITY = 9.80665;
const EARTH_RADIUS_M = 6371008.8;

// Speed that balances power against air, rolling and climbing resistance (Newton's method).
function steadySpeed(watts: number, grade: number, massKg: number): number {
  const cda = 0.32;
  const rho = 1.2;
  const crr = 0.005;
  const slope = Math.atan(grade);
  const resist = massKg * GRAVITY * (crr * Math.cos(slope) + Math.sin(slope));
  let v = 8;
  for (let i = 0; i < 20; i++) {
    const f = 0.5 * cda * rho * v ** 3 + resist * v - watts;
    const df = 1.5 * cda * rho * v ** 2 + resist;
    const next = v - f / (df === 0 ? 1 : df);
    v = Number.isFinite(next) ? Math.min(25, Math.max(0.5, next)) : 0.5;
  }
  return v;
}

/**
 * A deterministic, realistic ride: rolling terrain, efforts and recoveries, coasting on
 * descents, optional stops, heart rate lagging power, physics-based speed. The benchmarks,
 * tests and the demo data use it.
 *
 * @example
 * const ride = simulateRide({ seconds: 3600, seed: 7 }); // one hour at 1 Hz
 */
export function simulateRide(options: SimulationOptions): RideStreams {
  const n = Math.max(0, Math.floor(options.seconds));
  const random = seededRandom(options.seed ?? 1);
  const ftp = options.ftpWatts ?? 250;
  const maxHr = options.maxHeartRate ?? 185;
  const mass = options.massKg ?? 80;
  const indoor = options.indoor ?? false;
  const stops = options.stops ?? [];
  const time = new Float64Array(n);
  const power = new Float64Array(n);
  const heartRate = new Float64Array(n);
  const cadence = new Float64Array(n);
  const speed = new Float64Array(n);
  const distance = new Float64Array(n);
  const altitude = new Float64Array(n);
  const latitude = new Float64Array(n);
  const longitude = new Float64Array(n);
  const temperature = new Float64Array(n);
  const balance = new Float64Array(n);
  const torque = new Float64Array(n);
  const smoothness = new Float64Array(n);

  // Terrain: a few sine waves over distance; effort blocks change every 1-10 minutes.
  const waves = Array.from({ length: 4 }, () => ({
    length: 800 + random() * 6000,
    height: (5 + random() * 40) * (options.hilliness ?? 1),
    phase: random() * Math.PI * 2,
  }));
  const terrain = (metres: number) =>
    200 +
    waves.reduce(
      (sum, wave) =>
        sum + wave.height * Math.sin((metres / wave.length) * Math.PI * 2 + wave.phase),
      0,
    );
  const effortScale = (options.intensity ?? 0.8) / 0.8;
  let effortLeft = 0;
  let effort = 0.75;
  let hr = maxHr * 0.55;
  let lat = options.start?.latitude ?? 22.543;
  let lon = options.start?.longitude ?? 114.058;
  let heading = random() * Math.PI * 2;
  let travelled = 0;

  for (let t = 0; t < n; t++) {
    time[t] = t;
    if (effortLeft <= 0) {
      const roll = random();
      effort =
        roll < 0.1
          ? 1.05 + random() * 0.5
          : roll < 0.25
            ? 0.45 + random() * 0.2
            : 0.65 + random() * 0.3;
      effort *= effortScale;
      effortLeft = 60 + Math.floor(random() * (roll < 0.1 ? 240 : 540));
    }
    effortLeft--;
    const stopped = stops.some(([from, length]) => t >= from && t < from + length);
    const grade = indoor ? 0 : (terrain(travelled + 5) - terrain(travelled)) / 5;
    const sprint = random() < 0.002 ? 2.5 + random() : 1;
    let watts = stopped ? 0 : ftp * effort * sprint * (1 + grade * 4) * (0.9 + random() * 0.2);
    if (!stopped && grade < -0.03 && random() < 0.8) watts = 0; // coasting downhill
    watts = Math.max(0, Math.round(watts));
    const v = stopped
      ? 0
      : indoor
        ? steadySpeed(watts, 0, mass)
        : Math.max(watts === 0 ? 9 + grade * -80 : 0, steadySpeed(watts, grade, mass));
    const cappedV = Math.min(v, 22);
    travelled += cappedV;
    const target = stopped ? maxHr * 0.5 : maxHr * (0.55 + 0.33 * Math.min(1.4, watts / ftp));
    hr += (target - hr) / 25;

    power[t] = watts;
    heartRate[t] = Math.round(hr);
    cadence[t] = watts === 0 ? 0 : Math.round(82 + random() * 14 + (watts > ftp * 1.2 ? 8 : 0));
    speed[t] = cappedV;
    distance[t] = travelled;
    altitude[t] = indoor ? 0 : Math.round(terrain(travelled) * 10) / 10;
    temperature[t] = Math.round(24 + 4 * Math.sin(t / 7200) - altitude[t]! / 300);
    balance[t] = watts === 0 ? 50 : Math.round(48 + random() * 5);
    torque[t] = watts === 0 ? 0 : Math.round(70 + random() * 20);
    smoothness[t] = watts === 0 ? 0 : Math.round(18 + random() * 10);
    if (!indoor) {
      heading += (random() - 0.5) * 0.05;
      lat += ((cappedV * Math.cos(heading)) / EARTH_RADIUS_M) * (180 / Math.PI);
      lon +=
        ((cappedV * Math.sin(heading)) / (EARTH_RADIUS_M * Math.cos((lat * Math.PI) / 180))) *
        (180 / Math.PI);
      latitude[t] = lat;
      longitude[t] = lon;
    }
  }
  return {
    time,
    power,
    heartRate,
    cadence,
    speed,
    distance,
    temperature,
    leftRightBalance: balance,
    torqueEffectiveness: torque,
    pedalSmoothness: smoothness,
    ...(indoor ? {} : { altitude, latitude, longitude }),
  };
}
