import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkoutListItem } from '@xoss/api-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { DEMO_USER } from '../src/commands/seed.ts';

// The demo rider is the first thing a visitor of `pnpm start` sees: figures a real amateur
// with FTP 250 W could have ridden, or every figure of the product looks wrong.

const FTP = 250;

describe('the demo data is believable', () => {
  let close: () => Promise<void>;
  let rides: WorkoutListItem[];

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xoss-demo-'));
    const { server } = await createApp({ dataDir: dir, demo: true, logger: false });
    close = async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    };
    const login = await server.inject({
      method: 'POST',
      url: '/api/v1/jwt-token/',
      headers: { origin: 'http://localhost' },
      payload: { email: DEMO_USER.email, password: DEMO_USER.password },
    });
    if (login.statusCode !== 200) throw new Error(login.body);
    const { access } = login.json<{ data: { access: string } }>().data;
    const list = await server.inject({
      method: 'GET',
      url: '/api/v2/workouts/?page_size=100',
      headers: { authorization: `Bearer ${access}` },
    });
    if (list.statusCode !== 200) throw new Error(list.body);
    rides = list.json<{ data: { results: WorkoutListItem[] } }>().data.results;
  });

  afterAll(() => close?.());

  const hours = (ride: WorkoutListItem) => ride.timer_time_s / 3600;
  /** IF from TSS = hours x IF^2 x 100. */
  const intensity = (ride: WorkoutListItem) => Math.sqrt(ride.tss! / (hours(ride) * 100));

  it('has a ten-hour audax near 60 % of FTP, TSS 350-450', () => {
    const audax = rides.find((ride) => ride.name.startsWith('Ten-hour audax'))!;
    expect(hours(audax)).toBeGreaterThan(9);
    expect(audax.tss).toBeGreaterThanOrEqual(350);
    expect(audax.tss).toBeLessThanOrEqual(450);
    expect(intensity(audax)).toBeGreaterThanOrEqual(0.55);
    expect(intensity(audax)).toBeLessThanOrEqual(0.67);
    expect(audax.power_avg! / FTP).toBeLessThan(0.65);
    const km = audax.distance_m! / 1000;
    expect(km).toBeGreaterThan(200);
    expect(audax.elevation_gain_m! / km).toBeLessThan(12);
  });

  it('has training rides and commutes an amateur rides: IF 0.55-0.9, up to 20 m of climbing per km, 20-35 km/h', () => {
    const outdoor = rides.filter((ride) => !ride.indoor && !ride.name.startsWith('Ten-hour'));
    expect(outdoor.length).toBeGreaterThan(15);
    for (const ride of outdoor) {
      const km = ride.distance_m! / 1000;
      const kmh = (ride.speed_avg_ms ?? 0) * 3.6;
      // Named, so a failure says which ride.
      const figures = {
        ride: ride.name,
        if: intensity(ride),
        climbPerKm: ride.elevation_gain_m! / km,
        kmh,
      };
      expect(figures.if, ride.name).toBeGreaterThanOrEqual(0.55);
      expect(figures.if, ride.name).toBeLessThanOrEqual(0.9);
      expect(figures.climbPerKm, ride.name).toBeGreaterThan(0.5);
      expect(figures.climbPerKm, ride.name).toBeLessThanOrEqual(20);
      expect(figures.kmh, ride.name).toBeGreaterThanOrEqual(20);
      expect(figures.kmh, ride.name).toBeLessThanOrEqual(35);
      expect(ride.power_avg! / FTP).toBeLessThan(0.8);
    }
  });

  it('has indoor sessions without climbing and below threshold on average', () => {
    const indoor = rides.filter((ride) => ride.indoor);
    expect(indoor.length).toBeGreaterThan(3);
    for (const ride of indoor) {
      expect(ride.elevation_gain_m ?? 0).toBe(0);
      expect(intensity(ride)).toBeLessThan(0.95);
    }
  });
});
