import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { cleanStreams, simulateRide } from '@xoss/workout-stats';
import { describe, expect, it } from 'vitest';
import { analyseActivity, MAX_ACTIVITIES_PER_FILE } from './analyse.ts';
import { MAX_CURVE_S } from './series.ts';

describe('analyseActivity curves', () => {
  it('keeps a ride longer than a day to its first 24 hours of curve', () => {
    const seconds = MAX_CURVE_S + 600;
    const ride = simulateRide({ seconds, seed: 11 });
    const fit = encodeFit(activityFromStreams(ride, { startTime: 1_790_000_000, sport: 2 }));
    const result = analyseActivity(fit, { maxSamples: seconds + 10 });
    if (!result.ok) throw new Error(JSON.stringify(result));
    const { powerCurve, speedCurve } = result.value;
    expect(powerCurve).toHaveLength(MAX_CURVE_S);
    expect(speedCurve).toHaveLength(MAX_CURVE_S);
    // The kept part is the curve as before: its first second is the highest power recorded
    // that the cleaning keeps (the simulator writes a few one-second spikes, 1,864 W
    // between 550 W samples, which it takes out).
    const kept = cleanStreams(ride, { sport: 2 }).streams.power!.filter(Number.isFinite);
    expect(kept.length).toBeLessThan(ride.power!.length);
    expect(powerCurve![0]).toBe(Math.max(...Array.from(kept, Math.round)));
    expect(powerCurve![MAX_CURVE_S - 1]).toBeGreaterThan(0);
    expect(powerCurve![MAX_CURVE_S - 1]).toBeLessThanOrEqual(powerCurve![3599]!);
  });
});

describe('a file with more activities than an import takes', () => {
  // A 40-minute ride whose file says it is 40 one-minute legs of alternating sports (a
  // multisport file of the kind that once took 32 s to refuse: 5,000 sessions).
  const ride = simulateRide({ seconds: 2400, seed: 5 });
  const startTime = 1_790_000_000;
  const manyLegs = (count: number) => {
    const activity = activityFromStreams(ride, { startTime, sport: 2 });
    const fitStart = activity.sessions[0]!.startTime as number;
    const sessions = Array.from({ length: count }, (_, k) => ({
      ...activity.sessions[0]!,
      sport: k % 2 === 0 ? 2 : 1,
      startTime: fitStart + k * 60,
      timestamp: fitStart + (k + 1) * 60,
      totalElapsedTime: 60,
      totalTimerTime: 60,
    }));
    return encodeFit({ ...activity, sessions });
  };

  it('refuses one of 40 legs by their count, naming the limit', () => {
    const result = analyseActivity(manyLegs(40));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('tooManyActivities');
    expect(result.error.messageId).toBe('workouts.tooManyActivities');
    expect(result.error.message).toContain('40 activities');
    expect(result.error.message).toContain(String(MAX_ACTIVITIES_PER_FILE));
  });

  it('takes one of as many legs as the limit, and says how many it has', () => {
    const result = analyseActivity(manyLegs(MAX_ACTIVITIES_PER_FILE));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.legs).toBe(MAX_ACTIVITIES_PER_FILE);
  });
});
