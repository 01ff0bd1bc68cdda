import { describe, expect, it } from 'vitest';
import { activityFromTcx } from './activity.ts';
import { parseTcx } from './tcx/parse.ts';

const START = Date.UTC(2026, 5, 1, 8) / 1000;
const iso = (seconds: number) => new Date((START + seconds) * 1000).toISOString();

/** A TCX ride of one lap and one track: trackpoints each second at `seconds`, 8 m/s. */
function tcx(seconds: number[], lapTimerS: number): string {
  const points = seconds
    .map(
      (t) =>
        `<Trackpoint><Time>${iso(t)}</Time><DistanceMeters>${t * 8}</DistanceMeters><HeartRateBpm><Value>140</Value></HeartRateBpm></Trackpoint>`,
    )
    .join('');
  return `<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities><Activity Sport="Biking"><Id>${iso(0)}</Id><Lap StartTime="${iso(0)}"><TotalTimeSeconds>${lapTimerS}</TotalTimeSeconds><DistanceMeters>${seconds.length * 8}</DistanceMeters><Track>${points}</Track></Lap></Activity></Activities></TrainingCenterDatabase>`;
}

const timerSeconds = (timer: readonly (readonly [number, number])[] | undefined) =>
  (timer ?? []).reduce((sum, [start, end]) => sum + end - start, 0);

describe('activityFromTcx', () => {
  it("takes a pause between trackpoints of one track out of the timer, as the lap's TotalTimeSeconds says", () => {
    // 0-299 s, a 5-minute pause with the timer stopped, 600-899 s: the lap's timer is 600 s.
    const seconds = [
      ...Array.from({ length: 300 }, (_, t) => t),
      ...Array.from({ length: 300 }, (_, t) => 600 + t),
    ];
    const parsed = parseTcx(tcx(seconds, 600));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const activity = activityFromTcx(parsed.value)!;
    expect(timerSeconds(activity.timer)).toBeCloseTo(600, 6);
  });

  it('keeps the timer of a lap whose trackpoints span its TotalTimeSeconds', () => {
    const seconds = Array.from({ length: 600 }, (_, t) => t);
    const parsed = parseTcx(tcx(seconds, 600));
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(timerSeconds(activityFromTcx(parsed.value)!.timer)).toBeCloseTo(600, 6);
  });
});
