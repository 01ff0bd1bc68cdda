import { describe, expect, it } from 'vitest';
import { simulateRide } from './simulate.ts';

const mean = (values: ArrayLike<number> = []) => {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
};

const climbing = (altitude: ArrayLike<number> = []) => {
  let gain = 0;
  for (let i = 1; i < altitude.length; i++) gain += Math.max(0, altitude[i]! - altitude[i - 1]!);
  return gain;
};

describe('simulateRide', () => {
  it('gives the same ride for the same seed, and the defaults are intensity 0.8 and hilliness 1', () => {
    const plain = simulateRide({ seconds: 1800, seed: 4 });
    expect(simulateRide({ seconds: 1800, seed: 4 })).toEqual(plain);
    expect(simulateRide({ seconds: 1800, seed: 4, intensity: 0.8, hilliness: 1 })).toEqual(plain);
  });

  it('rides easier at a lower intensity and climbs less on gentler terrain', () => {
    const hard = simulateRide({ seconds: 3600, seed: 9 });
    const easy = simulateRide({ seconds: 3600, seed: 9, intensity: 0.6, hilliness: 0.2 });
    expect(mean(easy.power) / 250).toBeLessThan(0.7);
    expect(mean(easy.power)).toBeLessThan(mean(hard.power) * 0.8);
    const perKm = (ride: typeof hard) => climbing(ride.altitude) / (ride.distance!.at(-1)! / 1000);
    expect(perKm(easy)).toBeLessThan(20);
    expect(perKm(hard)).toBeGreaterThan(25);
  });
});
