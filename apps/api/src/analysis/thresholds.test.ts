import type { WorkoutSummary } from '@xoss/workout-stats';
import { describe, expect, it } from 'vitest';
import { HEART_RATE_COVERAGE, measuredSummary } from './thresholds.ts';

/** A 90-minute activity without power whose heart rate was read for `seconds` at 150 bpm. */
const swim = (seconds: number) =>
  ({
    timerTimeS: 5400,
    movingTimeS: 5400,
    totalTimeS: 5400,
    heartRateSeconds: { '0': 5400 - seconds, '150': seconds },
  }) as unknown as WorkoutSummary & { heartRateSeconds: Record<string, number> };

const thresholds = { ftp: null, ftpSource: null, maxHr: 190, maxHrSource: 'settings' } as const;

describe('a load from heart rate only where the heart rate covers the activity', () => {
  it('scores a swim whose heart rate was read throughout', () => {
    const scored = measuredSummary(swim(5400), thresholds, {
      sportType: 5,
      thresholdPaceSPerKm: null,
    });
    expect(scored.tssMethod).toBe('heartRate');
    expect(scored.trainingStressScore).toBeGreaterThan(30);
  });

  it('gives no load to a swim with 8 readings in 90 minutes (it scored 0.2)', () => {
    const scored = measuredSummary(swim(8), thresholds, {
      sportType: 5,
      thresholdPaceSPerKm: null,
    });
    expect(scored.trainingStressScore).toBeUndefined();
    expect(scored.tssMethod).toBeUndefined();
  });

  it('draws the line at the covered share', () => {
    const enough = Math.ceil(HEART_RATE_COVERAGE * 5400);
    const scoring = { sportType: 5, thresholdPaceSPerKm: null };
    expect(measuredSummary(swim(enough), thresholds, scoring).tssMethod).toBe('heartRate');
    expect(measuredSummary(swim(enough - 60), thresholds, scoring).tssMethod).toBeUndefined();
  });
});
