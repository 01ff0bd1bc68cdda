// Real rides of `@xoss/activity-files`' corpus (its test/corpus/NOTICE.md says where each
// file comes from), decoded by that package's sources. Test-only: workout-stats does not
// depend on activity-files (activity-files depends on it), so the decoder is imported by
// path and never reaches the published package.
import { readFileSync } from 'node:fs';
import {
  activityOverview,
  decodeFit,
  type ActivityOverview,
} from '../../activity-files/src/index.ts';
import { timeline, type Timeline } from '../src/timeline.ts';

const corpus = new URL('../../activity-files/test/corpus/', import.meta.url);

/** A FIT file of the corpus, decoded, with its timeline (the file's timer events). */
export function corpusRide(file: string): { overview: ActivityOverview; line: Timeline } {
  const decoded = decodeFit(new Uint8Array(readFileSync(new URL(`fit/${file}`, corpus))));
  if (!decoded.ok) throw new Error(decoded.error.message);
  const overview = activityOverview(decoded.value);
  const line = timeline(overview.streams, overview.timer ? { timer: overview.timer } : {});
  return { overview, line };
}

/** The corpus' FIT rides with a power channel. */
export const POWER_RIDES = [
  'fitparse-2019-02-17-062644-ELEMNT-297E-195-0.fit',
  'fitparse-Edge810-Vector-2013-08-16-15-35-10.fit',
  'fitparse-developer-types-sample.fit',
  'fitparse-null_compressed_speed_dist.fit',
  'fitparse-sample-activity-indoor-trainer.fit',
  'tormoder-bpg-garmin.fit',
  'tormoder-0134902991.fit',
  'fitparse-rs-hrv-activity.fit',
  'phpffa-power-analysis.fit',
  'jimmykane-example.fit',
  'jimmykane-file-with-zones.fit',
  'jimmykane-road-with-power.fit',
  'jimmykane-garmin-stamina.fit',
] as const;

/**
 * An independent least-squares fit of Morton's 3-parameter model,
 * P(t) = CP + W' / (t + W' / (Pmax − CP)), to points (t, P): Nelder-Mead simplex over
 * (CP, W', Pmax) minimising the sum of squared relative errors, started from the
 * 2-parameter line through the first and last point.
 */
export function referenceMortonFit(
  t: readonly number[],
  p: readonly number[],
): { cpW: number; wPrimeJ: number; pmaxW: number } {
  const cost = ([cp, w, pmax]: number[]) => {
    if (!(cp! > 0 && w! > 0 && pmax! > cp!)) return Infinity;
    let sum = 0;
    for (let i = 0; i < t.length; i++) {
      const model = cp! + w! / (t[i]! + w! / (pmax! - cp!));
      sum += ((model - p[i]!) / p[i]!) ** 2;
    }
    return sum;
  };
  const last = t.length - 1;
  const cp0 = (p[last]! * t[last]! - p[0]! * t[0]!) / (t[last]! - t[0]!);
  const start = [Math.max(1, Math.min(cp0, p[last]! * 0.95)), 15000, p[0]! * 1.05];
  let simplex = [start, ...start.map((_, j) => start.map((v, i) => (i === j ? v * 1.2 : v)))];
  for (let restart = 0; restart < 4; restart++) {
    for (let iteration = 0; iteration < 4000; iteration++) {
      simplex.sort((a, b) => cost(a) - cost(b));
      const worst = simplex[3]!;
      const centroid = [0, 1, 2].map(
        (i) => (simplex[0]![i]! + simplex[1]![i]! + simplex[2]![i]!) / 3,
      );
      const along = (f: number) => centroid.map((c, i) => c + f * (worst[i]! - c));
      const reflected = along(-1);
      if (cost(reflected) < cost(simplex[0]!)) {
        const expanded = along(-2);
        simplex[3] = cost(expanded) < cost(reflected) ? expanded : reflected;
      } else if (cost(reflected) < cost(simplex[2]!)) simplex[3] = reflected;
      else {
        const contracted = along(0.5);
        if (cost(contracted) < cost(worst)) simplex[3] = contracted;
        else
          simplex = simplex.map((v) =>
            v.map((x, i) => simplex[0]![i]! + 0.5 * (x - simplex[0]![i]!)),
          );
      }
    }
    const best = simplex.sort((a, b) => cost(a) - cost(b))[0]!;
    simplex = [best, ...best.map((_, j) => best.map((v, i) => (i === j ? v * 1.1 : v)))];
  }
  const [cpW, wPrimeJ, pmaxW] = simplex[0]!;
  return { cpW: cpW!, wPrimeJ: wPrimeJ!, pmaxW: pmaxW! };
}

/** The envelope of a curve (best over at least d s) at d = 2 s growing by 10 % to 20 min. */
export function modelPoints(curve: ArrayLike<number>): { t: number[]; p: number[] } {
  const t: number[] = [];
  const p: number[] = [];
  const last = Math.min(1200, curve.length);
  const durations: number[] = [];
  for (let d = 2; d <= last; d = Math.max(d + 1, Math.round(d * 1.1))) durations.push(d);
  if (durations[durations.length - 1] !== last) durations.push(last);
  for (const d of durations) {
    let best = -Infinity;
    for (let i = d - 1; i < curve.length; i++) best = Math.max(best, curve[i]!);
    t.push(d);
    p.push(best);
  }
  return { t, p };
}

/** A section of a reference climb detection: distances (m) and elevation gain (m). */
export interface ReferenceClimb {
  readonly fromM: number;
  readonly toM: number;
  readonly gainM: number;
  /** Index, in the same list, of the climb this one lies in. */
  readonly parent?: number;
}

/**
 * An independent climb detection from the altitude stream, by brute force over a 20 m
 * distance grid: the elevation at each grid point is the mean of the samples within 50 m
 * of it; a candidate is any section whose average grade reaches the level and that never
 * falls more than `dipM` below its highest point so far; the longest candidate is taken,
 * then the longest of what is left on either side, and so on. Top level at
 * `minGradePct`; inside each climb, its steep parts at 2 points more, at most half its
 * length. A climb is at least 300 m long and gains at least `minScore` / 100 m.
 */
export function referenceClimbs(
  distance: ArrayLike<number>,
  altitude: ArrayLike<number>,
  { minGradePct = 3, minScore = 8000, dipM = 10, stepPct = 2 } = {},
): ReferenceClimb[] {
  const points: [number, number][] = [];
  for (let i = 0; i < Math.min(distance.length, altitude.length); i++)
    if (Number.isFinite(distance[i]) && Number.isFinite(altitude[i]))
      points.push([distance[i]!, altitude[i]!]);
  if (points.length < 2) return [];
  const grid: number[] = [];
  const height: number[] = [];
  let lo = 0;
  for (let x = points[0]![0]; x <= points[points.length - 1]![0]; x += 20) {
    while (points[lo]![0] < x - 50) lo++;
    let sum = 0;
    let count = 0;
    for (let i = lo; i < points.length && points[i]![0] <= x + 50; i++) {
      sum += points[i]![1];
      count++;
    }
    grid.push(x);
    height.push(sum / count);
  }
  const isClimb = (from: number, to: number) => {
    const length = grid[to]! - grid[from]!;
    const gain = height[to]! - height[from]!;
    return (
      length >= 300 && gain > 0 && (gain / length) * 100 >= minGradePct && gain * 100 >= minScore
    );
  };
  /** The longest section of [from, to] at `grade` or more without a dip over `dipM`. */
  const longest = (from: number, to: number, grade: number) => {
    let best: [number, number] | undefined;
    for (let i = from; i < to; i++) {
      let top = height[i]!;
      for (let j = i + 1; j <= to; j++) {
        top = Math.max(top, height[j]!);
        if (top - height[j]! > dipM) break;
        const rise = height[j]! - height[i]!;
        if (rise >= (grade / 100) * (grid[j]! - grid[i]!) && (!best || j - i > best[1] - best[0]))
          best = [i, j];
      }
    }
    return best;
  };
  /** A section trimmed to start at its lowest point and end at its highest, within 1 m. */
  const trim = ([from, to]: [number, number]): [number, number] => {
    const slice = height.slice(from, to + 1);
    const low = from + slice.indexOf(Math.min(...slice));
    const top = low + slice.slice(low - from).indexOf(Math.max(...slice.slice(low - from)));
    let start = low;
    while (start < top && height.slice(start + 1, top + 1).some((h) => h <= height[low]! + 1))
      start++;
    let end = top;
    while (end > start && height.slice(start, end).some((h) => h >= height[top]! - 1)) end--;
    return [start, end];
  };
  const search = (from: number, to: number, grade: number, found: [number, number][]) => {
    if (to <= from) return found;
    const section = longest(from, to, grade);
    if (!section) return found;
    search(from, section[0], grade, found);
    found.push(trim(section));
    search(section[1], to, grade, found);
    return found;
  };
  const climbs: ReferenceClimb[] = [];
  const describe = ([from, to]: [number, number], parent?: number): ReferenceClimb => ({
    fromM: grid[from]!,
    toM: grid[to]!,
    gainM: height[to]! - height[from]!,
    ...(parent === undefined ? {} : { parent }),
  });
  for (const outer of search(0, grid.length - 1, minGradePct, [])) {
    if (!isClimb(...outer)) continue;
    const parent = climbs.length;
    const climb = describe(outer);
    climbs.push(climb);
    const grade = (climb.gainM / (climb.toM - climb.fromM)) * 100;
    for (const inner of search(outer[0], outer[1], grade + stepPct, []))
      if (isClimb(...inner) && grid[inner[1]]! - grid[inner[0]]! <= (climb.toM - climb.fromM) / 2)
        climbs.push(describe(inner, parent));
  }
  return climbs;
}
