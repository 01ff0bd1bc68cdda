import { describe, expect, it } from 'vitest';
import { effortClock } from './effortClock.ts';

describe('effortClock', () => {
  it('counts real time while the distance grows, timer time while it does not', () => {
    // 0-10 s riding; 10-310 s standing with the timer paused (runs 0 s), 310-320 s riding;
    // 320-380 s standing with the timer running.
    const time = [0, 10, 310, 320, 380];
    const distance = [0, 100, 100, 200, 200];
    const running = [10, 0, 10, 60, 1];
    expect(Array.from(effortClock(time, distance, running))).toEqual([0, 10, 10, 20, 80]);
  });

  it('lets a ride cover ground only with time passing, even across a paused timer', () => {
    // The timer paused while the distance still grew: the real 30 s count.
    expect(Array.from(effortClock([0, 30, 40], [0, 300, 400], [0, 10, 1]))).toEqual([0, 30, 40]);
  });
});
