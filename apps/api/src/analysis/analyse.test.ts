import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { cleanStreams, simulateRide } from '@xoss/workout-stats';
import { describe, expect, it } from 'vitest';
import { analyseActivity } from './analyse.ts';
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
