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
  /** A leg's timer seconds as its overview's timer intervals count them within its session. */
  const legTimer = (leg: ReturnType<typeof fitLegs>[number]) => {
    const overview = activityOverview(leg);
    const { start, end } = overview.sessions[0]!;
    if (!overview.timer) return end - start;
    return overview.timer.reduce(
      (sum, [from, to]) => sum + Math.max(0, Math.min(to, end) - Math.max(from, start)),
      0,
    );
  };

  it("runs a leg's timer from the leg's start when its first timer start comes late, unless the file stopped it", () => {
    const decoded = decodeFit(corpus('fitparse-activity-large-fenxi2-multisport.fit'));
    if (!decoded.ok) throw new Error(decoded.error.message);
    const original = decoded.value;
    const bikeStart = original.sessions.find((session) => session.sport === 2)!.startTime as number;
    const isBikeStart = (event: (typeof original.events)[number]) =>
      event.event === 0 && event.eventType === 0 && event.timestamp === bikeStart;
    expect(original.events.filter(isBikeStart)).toHaveLength(1);
    // A dirty copy (its decoded events), as a real Ironman file was: the bike leg's only
    // timer start 1,500 s in.
    const late = original.events.map((event) =>
      isBikeStart(event) ? { ...event, timestamp: bikeStart + 1500 } : event,
    );
    for (const leg of fitLegs({ ...original, events: late })) {
      const device = leg.sessions[0]!.totalTimerTime as number;
      expect(
        Math.abs(legTimer(leg) - device),
        `sport ${String(leg.sessions[0]!.sport)}`,
      ).toBeLessThanOrEqual(Math.max(0.01 * device, 1));
    }
    // The same late start after a stop the file made before the leg (and a timer marker
    // after the stop, which says nothing of the timer): the pause is kept.
    const stopped = [
      ...late,
      { event: 0, eventType: 4, timestamp: bikeStart - 10 },
      { event: 0, eventType: 3, timestamp: bikeStart - 5 },
    ].sort((a, b) => (a.timestamp as number) - (b.timestamp as number));
    const bike = fitLegs({ ...original, events: stopped }).find(
      (leg) => leg.sessions[0]!.sport === 2,
    )!;
    const device = bike.sessions[0]!.totalTimerTime as number;
    expect(legTimer(bike)).toBeCloseTo(device - 1500, 0);
  });
});
