// A multisport file becomes its legs (on the embedded database): each session of a
// triathlon-like FIT recording is an activity of its own, with its sport and the device's
// session totals, and only the cycling leg counts for the rider's cycling bests.
import { readFileSync } from 'node:fs';
import { decodeFit } from '@xoss/activity-files';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { bearer, closePool, harness, pgliteFactory, upload } from './harness.ts';

const file = new Uint8Array(
  readFileSync(
    new URL(
      '../../../packages/activity-files/test/corpus/fit/fitparse-activity-large-fenxi2-multisport.fit',
      import.meta.url,
    ),
  ),
);

afterAll(() => closePool());

describe('a multisport file', () => {
  it("imports each session as its own activity, with its sport and the device's totals", async () => {
    const decoded = decodeFit(file);
    if (!decoded.ok) throw new Error(decoded.error.message);
    const sessions = decoded.value.sessions;
    expect(new Set(sessions.map((session) => session.sport)).size).toBeGreaterThan(1);
    const factory = await pgliteFactory();
    const h = await harness(factory);
    try {
      const rider = await h.user();
      const first = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'multisport.fit',
        bytes: file,
      });
      expect(first.statusCode).toBe(201);
      type Ride = {
        id: number;
        sport_type: number;
        name: string;
        start_time: string;
        distance_m: number | null;
        timer_time_s: number;
      };
      const rides = await vi.waitFor(
        async () => {
          const list = (
            await h.server.inject({
              method: 'GET',
              url: '/api/v2/workouts/?page_size=50',
              headers: bearer(rider.access),
            })
          ).json<{ data: { results: Ride[] } }>().data.results;
          expect(list).toHaveLength(sessions.length);
          return list;
        },
        { interval: 250 },
      );
      const byStart = [...rides].sort((a, b) => a.start_time.localeCompare(b.start_time));
      for (const [k, session] of sessions.entries()) {
        const ride = byStart[k]!;
        expect(ride.sport_type, `leg ${k}`).toBe(session.sport);
        // Named for what it is: a transition is not a ride.
        const named = { 1: 'Run', 2: 'Ride', 3: 'Transition' }[session.sport as number] ?? 'Ride';
        expect(ride.name, `leg ${k}`).toBe(`${named} ${ride.start_time.slice(0, 10)}`);
        const timer = session.totalTimerTime as number;
        // Within 1 %, or the second a 4 s transition rounds to.
        expect(Math.abs(ride.timer_time_s - timer), `leg ${k} timer`).toBeLessThanOrEqual(
          Math.max(0.01 * timer, 1),
        );
        const distance = session.totalDistance as number;
        // The device's distance, though the run leg's device counted a few steps of 17-42 m
        // in a second (GPS jumps, faster than anyone runs) that our cleaning takes out of the
        // streams: the rider's device decides the total, as Garmin Connect shows it.
        expect(Math.abs(ride.distance_m! - distance) / distance, `leg ${k} distance`).toBeLessThan(
          0.01,
        );
      }
      // Each leg's page lists the file's legs in order, itself among them.
      for (const ride of [byStart[0]!, byStart.at(-1)!]) {
        const legs = (
          await h.server.inject({
            method: 'GET',
            url: `/api/v2/workouts/${ride.id}/`,
            headers: bearer(rider.access),
          })
        ).json<{ data: { legs: { id: number; sport_type: number }[] } }>().data.legs;
        expect(legs.map((leg) => leg.id)).toEqual(byStart.map((leg) => leg.id));
        expect(legs.map((leg) => leg.sport_type)).toEqual(sessions.map((s) => s.sport));
      }
      // The file sent again is already imported.
      const again = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'again.fit',
        bytes: file,
      });
      expect(again.json()).toMatchObject({ errors: [{ message: 'workouts.duplicate' }] });
      // No run or transition leg makes cycling bests (a run's speed or power never does);
      // the bike leg does.
      const bests = (
        await h.db.query<{ workout_id: number }>(
          "SELECT DISTINCT workout_id FROM workout_bests WHERE effort NOT LIKE 'run\\_%'",
        )
      ).map((row) => row.workout_id);
      // The run leg's are a runner's bests, of its own.
      const runBests = (
        await h.db.query<{ workout_id: number }>(
          "SELECT DISTINCT workout_id FROM workout_bests WHERE effort LIKE 'run\\_%'",
        )
      ).map((row) => row.workout_id);
      expect(runBests.sort((a, b) => a - b)).toEqual(
        rides
          .filter((ride) => ride.sport_type === 1)
          .map((ride) => ride.id)
          .sort((a, b) => a - b),
      );
      const onFoot = rides
        .filter((ride) => [1, 3].includes(ride.sport_type))
        .map((ride) => ride.id);
      expect(onFoot.length).toBeGreaterThan(0);
      expect(bests.filter((id) => onFoot.includes(id))).toEqual([]);
      expect(bests).toContain(rides.find((ride) => ride.sport_type === 2)!.id);
    } finally {
      await h.close();
      await factory.close();
    }
  });
});
