import { describe, expect, it } from 'vitest';
import { findClimbs } from './climbs.ts';
import { seededRandom } from './simulate.ts';

/** A profile of [metres, grade %] sections ridden at 1 Hz, with ±`noise` m on the elevation. */
function ride(sections: readonly [number, number][], noise = 1, seed = 9) {
  const random = seededRandom(seed);
  const distance: number[] = [];
  const elevation: number[] = [];
  const time: number[] = [];
  const power: number[] = [];
  let d = 0;
  let e = 100;
  let t = 0;
  for (const [metres, grade] of sections) {
    // Slower uphill: 4 m/s climbing, 9 m/s on the flat, 12 m/s downhill.
    const speed = grade > 1 ? 4 : grade < -1 ? 12 : 9;
    const end = d + metres;
    while (d < end) {
      const step = Math.min(speed, end - d);
      d += step;
      e += (step * grade) / 100;
      t += 1;
      distance.push(d);
      elevation.push(e + noise * (2 * random() - 1));
      time.push(t);
      power.push(grade > 1 ? 300 : 150);
    }
  }
  return { distance, elevation, time, power };
}

describe('findClimbs', () => {
  it('counts only the seconds the timer ran: a 300 s pause mid-climb changes nothing', () => {
    const { distance, elevation, time, power } = ride([
      [5000, 0],
      [2000, 6],
      [5000, 0],
    ]);
    // The timer stops for 300 s halfway up (a café): one sample stands for 301 s, 1 running.
    const middle = distance.findIndex((d) => d > 6000);
    const paused = time.map((t, i) => (i > middle ? t + 300 : t));
    const pausedPower = power.map((w, i) => (i === middle ? 0 : w));
    const runningS = time.map(() => 1);
    const plain = findClimbs(distance, elevation, time, power)[0]!;
    const moving = findClimbs(distance, elevation, paused, pausedPower, { runningS })[0]!;
    expect(moving.durationS).toBe(plain.durationS);
    expect(moving.vamMh).toBeCloseTo(plain.vamMh, 9);
    // Without the timer the pause counts: 300 s more, and the 0 W sample weighs 301 s.
    const counted = findClimbs(distance, elevation, paused, pausedPower)[0]!;
    expect(counted.durationS).toBe(plain.durationS + 300);
    expect(counted.avgPowerW!).toBeLessThan(moving.avgPowerW! - 50);
  });

  it('finds a 2 km 6 % climb in flat noise, with length and gain within 5 %', () => {
    const { distance, elevation, time, power } = ride([
      [5000, 0],
      [2000, 6],
      [5000, 0],
    ]);
    const climbs = findClimbs(distance, elevation, time, power);
    expect(climbs).toHaveLength(1);
    const [climb] = climbs;
    expect(Math.abs(climb!.lengthM - 2000) / 2000).toBeLessThan(0.05);
    expect(Math.abs(climb!.gainM - 120) / 120).toBeLessThan(0.05);
    expect(climb!.avgGradePct).toBeGreaterThan(5.7);
    expect(climb!.avgGradePct).toBeLessThan(6.3);
    // 2000 m at 4 m/s: 500 s, 120 m climbed: VAM 864 m/h.
    expect(Math.abs(climb!.durationS - 500) / 500).toBeLessThan(0.05);
    expect(Math.abs(climb!.vamMh - 864) / 864).toBeLessThan(0.05);
    expect(climb!.avgPowerW).toBeGreaterThan(290);
    // Score: 2000 m × 6 % = 12 000, between 8000 and 16 000: category 4.
    expect(climb!.score).toBeGreaterThan(11000);
    expect(climb!.category).toBe('4');
    expect(distance[climb!.startIndex]).toBeGreaterThan(4900);
    expect(distance[climb!.endIndex]).toBeLessThan(7100);
  });

  it('finds none on a descent or on rolling noise', () => {
    const down = ride([
      [1000, 0],
      [3000, -6],
      [1000, 0],
    ]);
    expect(findClimbs(down.distance, down.elevation, down.time)).toEqual([]);
    const flat = ride([[20000, 0]], 3);
    expect(findClimbs(flat.distance, flat.elevation, flat.time)).toEqual([]);
  });

  it('merges two climbs across a dip under 10 m and splits them across a deeper one', () => {
    const shallow = ride([
      [2000, 0],
      [1500, 6],
      [200, -2.5], // 5 m down
      [1500, 6],
      [2000, 0],
    ]);
    const merged = findClimbs(shallow.distance, shallow.elevation, shallow.time);
    expect(merged).toHaveLength(1);
    expect(Math.abs(merged[0]!.gainM - 175) / 175).toBeLessThan(0.05);
    const deep = ride([
      [2000, 0],
      [1500, 6],
      [500, -6], // 30 m down
      [1500, 6],
      [2000, 0],
    ]);
    const split = findClimbs(deep.distance, deep.elevation, deep.time);
    expect(split).toHaveLength(2);
    for (const climb of split) expect(Math.abs(climb.gainM - 90) / 90).toBeLessThan(0.05);
  });

  it('leaves out rises too short or too gentle to score 8000 (Strava’s category 4)', () => {
    const short = ride([
      [2000, 0],
      [1000, 6], // score 6000
      [2000, 0],
    ]);
    expect(findClimbs(short.distance, short.elevation, short.time)).toEqual([]);
    expect(
      findClimbs(short.distance, short.elevation, short.time, undefined, { minScore: 5000 }),
    ).toHaveLength(1);
    const gentle = ride([
      [2000, 0],
      [6000, 2], // 2 %: below the 3 % least grade
      [2000, 0],
    ]);
    expect(findClimbs(gentle.distance, gentle.elevation, gentle.time)).toEqual([]);
  });

  it('reports the steep part of a rise too gentle to be a climb (the Edge 1000 case)', () => {
    // 6.9 km at 2.6 %: 850 m at 1 %, 5.2 km at 3.1 % (161 m), 850 m at 1.1 %.
    const { distance, elevation, time } = ride([
      [3000, 0],
      [850, 1],
      [5200, 3.1],
      [850, 1.1],
      [3000, 0],
    ]);
    const climbs = findClimbs(distance, elevation, time);
    expect(climbs).toHaveLength(1);
    const [climb] = climbs;
    expect(climb!.parent).toBeUndefined();
    expect(Math.abs(climb!.lengthM - 5200) / 5200).toBeLessThan(0.05);
    expect(climb!.avgGradePct).toBeGreaterThanOrEqual(3);
    expect(Math.abs(climb!.gainM - 161) / 161).toBeLessThan(0.05);
    // 5200 m × 3.1 % = 16 120: category 3.
    expect(climb!.category).toBe('3');
    expect(distance[climb!.startIndex]).toBeGreaterThan(3850 - 150);
    expect(distance[climb!.endIndex]).toBeLessThan(9050 + 150);
  });

  it('nests the steep part of a climb in it: 1.5 km at 8 % inside 4.5 km at 4.7 %', () => {
    const { distance, elevation, time } = ride([
      [3000, 0],
      [1500, 3],
      [1500, 8],
      [1500, 3],
      [3000, 0],
    ]);
    const climbs = findClimbs(distance, elevation, time);
    expect(climbs).toHaveLength(2);
    const [outer, inner] = climbs;
    expect(outer!.parent).toBeUndefined();
    expect(Math.abs(outer!.gainM - 210) / 210).toBeLessThan(0.05);
    expect(inner!.parent).toBe(0);
    expect(inner!.avgGradePct).toBeGreaterThanOrEqual(outer!.avgGradePct + 2);
    expect(inner!.startIndex).toBeGreaterThanOrEqual(outer!.startIndex);
    expect(inner!.endIndex).toBeLessThanOrEqual(outer!.endIndex);
    // The longest section at 6.7 % or more: the 8 % stretch (120 m) and at most x m of 3 %
    // with (120 + 0.03x) / (1500 + x) ≥ 0.067, x ≤ 540.
    expect(distance[inner!.startIndex]).toBeLessThan(4500 + 100);
    expect(distance[inner!.endIndex]).toBeGreaterThan(6000 - 100);
    expect(inner!.lengthM).toBeLessThan(1500 + 540 + 100);
    expect(inner!.gainM).toBeGreaterThan(120 - 5);
    // An even climb has no steeper part: nothing nested.
    const even = ride([
      [3000, 0],
      [4500, 4.7],
      [3000, 0],
    ]);
    expect(findClimbs(even.distance, even.elevation, even.time)).toHaveLength(1);
  });

  it('skips samples without distance or elevation', () => {
    const { distance, elevation, time } = ride([
      [3000, 0],
      [2000, 6],
      [3000, 0],
    ]);
    for (let i = 0; i < elevation.length; i += 7) elevation[i] = Number.NaN;
    const climbs = findClimbs(distance, elevation, time);
    expect(climbs).toHaveLength(1);
    expect(Math.abs(climbs[0]!.gainM - 120) / 120).toBeLessThan(0.05);
  });
});
