import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { activityOverview } from './streams.ts';
import { decodeFit } from './decode.ts';
import { fitLegCount, fitLegs } from './legs.ts';

const corpus = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../test/corpus/fit/${name}`, import.meta.url)));

describe('the legs of a multisport FIT file', () => {
  it("splits a multisport recording into its sessions, each with the device's own totals", () => {
    const decoded = decodeFit(corpus('fitparse-activity-large-fenxi2-multisport.fit'));
    if (!decoded.ok) throw new Error(decoded.error.message);
    const legs = fitLegs(decoded.value);
    const sessions = decoded.value.sessions;
    expect(legs).toHaveLength(sessions.length);
    // Every record of a session goes to exactly one leg.
    const first = Math.min(
      sessions[0]!.startTime as number,
      Math.floor((sessions[0]!.timestamp as number) - (sessions[0]!.totalElapsedTime as number)),
    );
    const inSessions = decoded.value.records.timestamp.filter((t) => t >= first).length;
    expect(legs.reduce((sum, leg) => sum + leg.records.length, 0)).toBe(inSessions);
    for (const [k, leg] of legs.entries()) {
      const session = sessions[k]!;
      expect(leg.sessions).toHaveLength(1);
      expect(leg.sessions[0]!.totalTimerTime).toBe(session.totalTimerTime);
      // Each leg is an activity whose distance and time are its session's (the device's
      // values as the oracle).
      const overview = activityOverview(leg);
      const distance = session.totalDistance as number;
      const measured = overview.streams.distance?.at(-1) ?? 0;
      if (distance > 100) expect(Math.abs(measured - distance) / distance).toBeLessThan(0.01);
      const timer = session.totalTimerTime as number;
      const span = overview.streams.time.at(-1)! - overview.streams.time[0]!;
      if (timer > 60) expect(Math.abs(span - timer) / timer).toBeLessThan(0.02);
      expect(overview.sessions).toHaveLength(1);
    }
  });

  it('keeps a one-sport file whole, whatever its sessions', () => {
    const decoded = decodeFit(corpus('phpffa-swim.fit'));
    if (!decoded.ok) throw new Error(decoded.error.message);
    expect(fitLegs(decoded.value)).toEqual([decoded.value]);
    expect(fitLegCount(decoded.value)).toBe(1);
  });

  it('counts the legs from the sessions alone, as many as it cuts', () => {
    const decoded = decodeFit(corpus('fitparse-activity-large-fenxi2-multisport.fit'));
    if (!decoded.ok) throw new Error(decoded.error.message);
    expect(fitLegCount(decoded.value)).toBe(fitLegs(decoded.value).length);
    expect(fitLegCount(decoded.value)).toBeGreaterThan(1);
    expect(
      fitLegCount({ ...decoded.value, records: { ...decoded.value.records, length: 0 } }),
    ).toBe(fitLegs(decoded.value).length);
  });
});
