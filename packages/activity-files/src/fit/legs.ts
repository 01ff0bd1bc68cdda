import { TIMER_START, TIMER_STOPS, isTimerEvent } from './streams.ts';
import type { FitActivity, FitMessage, RecordColumns } from './types.ts';

/**
 * When a session started: its `start_time`, or earlier where its end (`timestamp`) less its
 * elapsed time says so (some devices write the first session's start late, after the
 * recording had begun).
 */
function startOf(session: FitMessage): number | undefined {
  const start = typeof session.startTime === 'number' ? session.startTime : undefined;
  const end = typeof session.timestamp === 'number' ? session.timestamp : undefined;
  const elapsed =
    typeof session.totalElapsedTime === 'number' ? session.totalElapsedTime : undefined;
  const fromEnd =
    end !== undefined && elapsed !== undefined ? Math.floor(end - elapsed) : undefined;
  if (start === undefined) return fromEnd;
  return fromEnd !== undefined ? Math.min(start, fromEnd) : start;
}

/**
 * How many legs `fitLegs` makes of an activity, counted from its sessions alone (no record
 * is read): a file with thousands of sessions is refused before its legs are cut.
 *
 * @example
 * fitLegCount(decoded.value); // 5 for a triathlon, 1 for a ride
 */
export function fitLegCount(activity: FitActivity): number {
  const sessions = activity.sessions.filter((session) => startOf(session) !== undefined);
  if (sessions.length < 2) return 1;
  return new Set(sessions.map((session) => session.sport)).size < 2 ? 1 : sessions.length;
}

/**
 * The legs of a multisport FIT activity, each an activity of its own: one per session when
 * the sessions are of more than one sport (a triathlon's swim, T1, bike, T2 and run; a
 * duathlon), else the activity itself (one session, or a ride saved in parts).
 *
 * @remarks
 * Leg k holds the records, laps, pool lengths and events from its session's start to the
 * next session's (the last to the end of the file), with its own session: what a device
 * recorded before the first session started belongs to no leg; the file's identity, devices and sport settings are every leg's. A leg's
 * distance counts from 0 at its first reading, as its session's total does (devices count
 * distance over the whole multisport file).
 *
 * @example
 * const [swim, t1, bike, t2, run] = fitLegs(decoded.value);
 */
export function fitLegs(activity: FitActivity): FitActivity[] {
  if (fitLegCount(activity) < 2) return [activity];
  const sessions = [...activity.sessions].filter((session) => startOf(session) !== undefined);
  sessions.sort((a, b) => startOf(a)! - startOf(b)!);
  return sessions.map((session, k) => {
    const from = startOf(session)!;
    const to = k === sessions.length - 1 ? Infinity : startOf(sessions[k + 1]!)!;
    const inLeg = (message: FitMessage) => withinLeg(message, 'startTime', from, to);
    return {
      ...activity,
      // Its start as the leg counts it (a late-written first start moved back).
      sessions: [from === session.startTime ? session : { ...session, startTime: from }],
      laps: activity.laps.filter(inLeg),
      lengths: activity.lengths.filter(inLeg),
      events: legEvents(activity.events, from, to),
      timeInZones: [],
      records: recordsBetween(activity.records, from, to),
    };
  });
}

/** Whether `message` (by its `field`, else its timestamp) falls in the leg [from, to). */
function withinLeg(
  message: FitMessage,
  field: 'startTime' | 'timestamp',
  from: number,
  to: number,
): boolean {
  const at = message[field] ?? message.timestamp;
  return typeof at === 'number' && at >= from && at < to;
}

/**
 * The events in [from, to), with the leg's timer running from its start: a session begins
 * with its timer running, so where the leg's first timer event is a start later than its
 * own start (an Ironman file's bike leg has one 11,725 s in, and nothing before it) and the
 * file did not stop the timer before the leg, a start at the leg's start is added. Read
 * alone, that late start left the leg's timer stopped until then (half the bike leg lost).
 */
function legEvents(events: readonly FitMessage[], from: number, to: number): FitMessage[] {
  const inLeg = events.filter((event) => withinLeg(event, 'timestamp', from, to));
  // Starts and stops only: a marker or another kind of timer event says nothing of whether
  // the timer ran.
  const startsAndStops = (list: readonly FitMessage[]) =>
    list
      .filter(isTimerEvent)
      .filter((event) => event.eventType === TIMER_START || TIMER_STOPS.has(event.eventType))
      .sort((a, b) => a.timestamp - b.timestamp);
  const first = startsAndStops(inLeg)[0];
  if (!first || first.eventType !== TIMER_START || first.timestamp <= from + 1) return inLeg;
  const before = startsAndStops(events)
    .filter((event) => event.timestamp < from)
    .at(-1);
  if (before && TIMER_STOPS.has(before.eventType)) return inLeg;
  return [{ event: 0, eventType: TIMER_START, timestamp: from }, ...inLeg];
}

/** The records with a timestamp in [from, to), distance counted from the first of them. */
function recordsBetween(records: RecordColumns, from: number, to: number): RecordColumns {
  const time = records.timestamp;
  let first = 0;
  while (first < records.length && !(time[first]! >= from)) first++;
  let end = first;
  while (end < records.length && time[end]! < to) end++;
  const out: Record<string, unknown> = { length: end - first };
  for (const [name, column] of Object.entries(records)) {
    if (name === 'length') continue;
    if (name === 'developer') {
      out.developer = Object.fromEntries(
        Object.entries(column as Record<string, Float64Array>).map(([field, values]) => [
          field,
          values.slice(first, end),
        ]),
      );
    } else out[name] = (column as Float64Array).slice(first, end);
  }
  const distance = out.distance as Float64Array | undefined;
  if (distance) {
    const zero = distance.find((value) => Number.isFinite(value));
    if (zero !== undefined)
      for (let i = 0; i < distance.length; i++) distance[i] = distance[i]! - zero;
  }
  return out as RecordColumns;
}
