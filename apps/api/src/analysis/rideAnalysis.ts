// The analysis of one ride from its whole streams: intervals, climbs, W' balance and the
// matches burnt, aerobic decoupling and efficiency factor, heart-rate and pace curves. Pure:
// the import worker, the API's thread (ordinary rides) and the figures worker (long ones, as
// `figures.ts`) all run it. The rules are `@xoss/workout-stats`' (its README, "Analysis").
import type { WorkoutAnalysis, Climb as ClimbReply } from '@xoss/api-contract';
import {
  decoupling,
  efficiencyFactor,
  findClimbs,
  findIntervals,
  matchesBurnt,
  oneHertzSeries,
  timeline,
  wPrimeBalance,
  type RideStreams,
  type Timeline,
  type TimerIntervals,
} from '@xoss/workout-stats';
import { clockCurve, rideStreamsOf, type StoredStreams } from './series.ts';

/** What a ride keeps of its analysis (`workout_facts`): at import, or on first need. */
export interface RideFacts {
  readonly efficiencyFactor: number | null;
  readonly decouplingPct: number | null;
  readonly climbs: readonly ClimbReply[];
}

const finite = (value: number | undefined): number | null =>
  value !== undefined && Number.isFinite(value) ? value : null;

/**
 * Timer seconds (the index of a `oneHertzSeries(…, 'timer')`) to seconds from the ride's
 * start, as the streams' `time` and the range endpoint count them: each sample holds the
 * timer seconds it stands for, so a second inside a sample is that sample's time plus the
 * seconds since it began. The same for a ride recorded every second without pauses.
 */
function timerClock(line: Timeline, time: ArrayLike<number>) {
  const first = time[0] ?? 0;
  // Cumulative timer seconds at the start of each sample.
  const before = new Float64Array(line.running.length + 1);
  for (let i = 0; i < line.running.length; i++)
    before[i + 1] = before[i]! + Math.min(line.running[i]!, 600);
  return {
    /** Seconds from the start of timer second `second`. */
    elapsed(second: number): number {
      // The last sample whose timer starts at or before `second` (binary search).
      let low = 0;
      let high = line.running.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (Math.floor(before[mid]! + 1e-9) <= second) low = mid;
        else high = mid - 1;
      }
      const index = line.from + low;
      return time[index]! - first + (second - Math.floor(before[low]! + 1e-9));
    },
    /** The timer second running at `at` seconds from the start (the next one while paused). */
    second(at: number): number {
      let low = 0;
      let high = line.running.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (time[line.from + mid]! - first <= at) low = mid;
        else high = mid - 1;
      }
      const into = Math.max(0, at - (time[line.from + low]! - first));
      return Math.round(before[low]! + Math.min(into, line.running[low]!));
    },
    /** The timer second each sample ends in (its last one; -1 before any). */
    endSecond(sample: number): number {
      return Math.floor(before[sample - line.from + 1]! + 1e-9) - 1;
    },
  };
}

/** The climbs of a ride as sent and stored: times in seconds from its start. */
function rideClimbs(streams: RideStreams, line: Timeline): ClimbReply[] {
  const { distance, altitude, time, power } = streams;
  if (!distance || !altitude) return [];
  // Seconds from the first sample, whether or not `time` was rebased already.
  const first = time[0] ?? 0;
  // Duration, VAM and power count the seconds the timer ran (a café stop is not climbing).
  const runningS = line.from === 0 ? line.running : undefined;
  // A climb inside another (its steep part) names it (`parent`, its index in this list).
  const climbs = findClimbs(distance, altitude, time, power, runningS ? { runningS } : {});
  return climbs.map((climb) => ({
    start_s: time[climb.startIndex]! - first,
    end_s: time[climb.endIndex]! - first,
    start_distance_m: distance[climb.startIndex]!,
    end_distance_m: distance[climb.endIndex]!,
    length_m: climb.lengthM,
    gain_m: climb.gainM,
    avg_grade_pct: climb.avgGradePct,
    vam_m_h: climb.vamMh,
    duration_s: climb.durationS,
    avg_power_w: finite(climb.avgPowerW),
    score: climb.score,
    category: climb.category ?? null,
    parent: climb.parent ?? null,
  }));
}

/**
 * Efficiency factor (the ride's NP over its mean heart rate, as the summary computed them)
 * and aerobic decoupling (on the 1 Hz timer series of power and heart rate), and climbs.
 */
export function rideFacts(
  streams: RideStreams,
  line: Timeline,
  summary: { readonly normalizedPower?: number; readonly avgHeartRate?: number },
): RideFacts {
  const { power, heartRate } = streams;
  let decouplingPct: number | null = null;
  if (power && heartRate)
    decouplingPct = finite(
      decoupling(oneHertzSeries(power, line, 'timer'), oneHertzSeries(heartRate, line, 'timer')),
    );
  const efficiency =
    summary.normalizedPower !== undefined && summary.avgHeartRate !== undefined
      ? finite(efficiencyFactor(summary.normalizedPower, summary.avgHeartRate))
      : null;
  return { efficiencyFactor: efficiency, decouplingPct, climbs: rideClimbs(streams, line) };
}

/** A task of the figures worker (or the API's thread): streams and how to count them. */
export interface StreamsTask {
  readonly streams: StoredStreams;
  readonly timer: TimerIntervals | null;
}

const lineOf = (streams: RideStreams, timer: TimerIntervals | null) =>
  timeline(streams, timer ? { timer } : {});

/** `rideFacts` of stored streams (rides imported before the facts were kept). */
export function factsFigures(
  task: StreamsTask & {
    readonly summary: { readonly normalizedPower?: number; readonly avgHeartRate?: number };
  },
): RideFacts {
  const streams = rideStreamsOf(task.streams);
  if (!streams) return { efficiencyFactor: null, decouplingPct: null, climbs: [] };
  return rideFacts(streams, lineOf(streams, task.timer), task.summary);
}

/** The analysis of a ride, with the CP and W' (and FTP) chosen by the API. */
export interface AnalysisTask extends StreamsTask {
  readonly cpW: number | null;
  readonly wPrimeJ: number | null;
  readonly ftpW: number | null;
  readonly summary: { readonly normalizedPower?: number; readonly avgHeartRate?: number };
  /**
   * The device's laps (seconds from the ride's start, as the stored ride's `laps`): the
   * efforts of a work lap take its edges (workout-stats' README, "Intervals and device laps").
   */
  readonly laps?: readonly LapTimes[] | null;
}

/** What the intervals read of a device lap. */
interface LapTimes {
  readonly start: number;
  readonly elapsedS?: number;
  readonly timerS?: number;
}

export type AnalysisFigures = Omit<
  WorkoutAnalysis,
  'model_source' | 'cp_w' | 'w_prime_j' | 'ftp_w' | 'threshold_source'
>;

/**
 * Intervals (at 88 % of `ftpW`), W' balance, matches, climbs, decoupling and EF of a ride.
 * Power, heart rate and cadence are read as 1 Hz timer series (a paused timer is no
 * recovery; a stop with the timer running is), and every second is sent back as seconds
 * from the ride's start (`timerClock`).
 */
export function analysisFigures(task: AnalysisTask): AnalysisFigures {
  const empty: AnalysisFigures = {
    intervals: [],
    climbs: [],
    matches: [],
    w_bal_min_j: null,
    decoupling_pct: null,
    efficiency_factor: null,
  };
  const streams = rideStreamsOf(task.streams);
  if (!streams) return empty;
  const line = lineOf(streams, task.timer);
  const facts = rideFacts(streams, line, task.summary);
  const result: AnalysisFigures = {
    ...empty,
    climbs: [...facts.climbs],
    decoupling_pct: facts.decouplingPct,
    efficiency_factor: facts.efficiencyFactor,
  };
  if (!streams.power) return result;
  const clock = timerClock(line, streams.time);
  const power = oneHertzSeries(streams.power, line, 'timer');
  const wbal = task.cpW && task.wPrimeJ ? wPrimeBalance(power, task.cpW, task.wPrimeJ) : undefined;
  // Laps on the timer series: from the second running at their start to the one at their end.
  const laps = (task.laps ?? []).flatMap((lap) => {
    const end = lap.start + (lap.elapsedS ?? lap.timerS ?? Number.NaN);
    return Number.isFinite(end) ? [[clock.second(lap.start), clock.second(end)] as const] : [];
  });
  const intervals = task.ftpW
    ? findIntervals(power, task.ftpW, {
        ...(laps.length > 0 ? { laps } : {}),
        ...(streams.heartRate
          ? { heartRate: oneHertzSeries(streams.heartRate, line, 'timer') }
          : {}),
        ...(streams.cadence ? { cadence: oneHertzSeries(streams.cadence, line, 'timer') } : {}),
        ...(wbal ? { wbal } : {}),
      })
    : [];
  let lowest: number | null = null;
  if (wbal) for (const value of wbal) if (lowest === null || value < lowest) lowest = value;
  return {
    ...result,
    intervals: intervals.map((interval) => ({
      start_s: clock.elapsed(interval.startS),
      // Exclusive, as the interval's own end: one past its last second.
      end_s: clock.elapsed(interval.endS - 1) + 1,
      duration_s: interval.durationS,
      avg_power_w: interval.avgPowerW,
      np_w: finite(interval.npW),
      avg_hr: finite(interval.avgHr),
      avg_cadence: finite(interval.avgCadence),
      w_bal_end_j: finite(interval.wbalEndJ),
    })),
    matches:
      wbal && task.wPrimeJ
        ? matchesBurnt(power, wbal, task.cpW!).map((match) => ({
            start_s: clock.elapsed(match.start),
            end_s: clock.elapsed(match.end) + 1,
            joules: match.spentJ,
            min_j: match.minJ,
          }))
        : [],
    w_bal_min_j: lowest,
  };
}

/**
 * W' balance after each sample (J), for the streams reply: the 1 Hz timer balance read at
 * the last second each sample stands for (full W' before the first second).
 */
export function wbalFigures(
  task: StreamsTask & { readonly cpW: number; readonly wPrimeJ: number },
): Float64Array | undefined {
  const streams = rideStreamsOf(task.streams);
  if (!streams?.power) return undefined;
  const line = lineOf(streams, task.timer);
  const wbal = wPrimeBalance(oneHertzSeries(streams.power, line, 'timer'), task.cpW, task.wPrimeJ);
  const clock = timerClock(line, streams.time);
  const out = new Float64Array(streams.time.length);
  for (let i = 0; i < out.length; i++) {
    const second = Math.min(clock.endSecond(i), wbal.length - 1);
    out[i] = second >= 0 ? wbal[second]! : task.wPrimeJ;
  }
  return out;
}

/**
 * Heart-rate and pace curves on the ride's clock (as the power and speed curves are), up to a
 * day's durations like them; pace in s/km, `Infinity` where the best mean speed is 0.
 */
export function extraCurveFigures(
  task: StreamsTask & { readonly kinds: readonly ('heart_rate' | 'pace')[] },
): { heart_rate?: Float64Array; pace?: Float64Array } {
  const streams = rideStreamsOf(task.streams);
  if (!streams) return {};
  const line = lineOf(streams, task.timer);
  // On the ride's clock, as the import's power and speed curves (a stop counts as 0).
  const curve = (values: Float64Array) => clockCurve(values, line, streams.time);
  const out: { heart_rate?: Float64Array; pace?: Float64Array } = {};
  // Missing readings are 0 in the 1 Hz series, as `heartRateCurve` and `paceCurve` count them.
  if (task.kinds.includes('heart_rate') && streams.heartRate)
    out.heart_rate = curve(streams.heartRate);
  if (task.kinds.includes('pace') && streams.speed)
    out.pace = curve(streams.speed).map((speed) => (speed > 0 ? 1000 / speed : Infinity));
  return out;
}
