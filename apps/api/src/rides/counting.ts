// What a ride counts for beyond its own page: its day's totals and training load, the
// rider's best efforts and best curves. One place decides, for an import and for a rider's
// correction (`revise.ts`) alike. No HTTP here.
import type { RideBests } from '../analysis/analyse.ts';
import {
  addRideToBestCurves,
  countsForRideBests,
  isRun,
  markBestCurvesStale,
} from '../analysis/bestCurves.ts';
import type { Queryable } from '../platform/db/db.ts';
import { addToDay, dayOf, rideDelta, storeBests } from '../training/days.ts';

/** Why a ride's date is doubtful: it counts nowhere until the rider fixes it. */
export type DateWarning = 'future' | 'before_1990';

/** The first date a ride is believed to have: GPS bike computers came later. */
const EARLIEST_RIDE_MS = Date.UTC(1990, 0, 1);
/** A device clock set to local time may run up to 14 hours ahead of UTC; beyond a day, no. */
const FUTURE_SLACK_MS = 86_400_000;

/** Whether a ride's start is one a rider could have ridden, seen at `now`. */
export function dateWarningOf(start: Date, now: number): DateWarning | null {
  if (start.getTime() < EARLIEST_RIDE_MS) return 'before_1990';
  if (start.getTime() > now + FUTURE_SLACK_MS) return 'future';
  return null;
}

/** The columns of `Counted`, for a `RETURNING` or a `SELECT`. */
export const COUNTED_COLUMNS =
  'id, user_id, start_time, sport_type, exclude_from_bests, date_warning, tss, moving_time_s, distance_m, elevation_gain_m';

/** The parts of a stored ride that decide what it counts for, and how much. */
export interface Counted {
  readonly id: number;
  readonly user_id: number;
  readonly start_time: Date;
  readonly sport_type: number;
  readonly exclude_from_bests: boolean;
  readonly date_warning: string | null;
  readonly tss: number | null;
  readonly moving_time_s: number;
  readonly distance_m: number;
  readonly elevation_gain_m: number | null;
}

/**
 * Whether a ride counts in its day's totals, training load, bests and best curves: not when
 * the rider left it out (`exclude_from_bests`), nor while its date is doubtful.
 */
export const counts = (row: Pick<Counted, 'exclude_from_bests' | 'date_warning'>) =>
  !row.exclude_from_bests && row.date_warning === null;

/** Whether a ride makes cycling bests and best curves (a run or a swim does not). */
const makesRideBests = (row: Counted) => counts(row) && countsForRideBests(row.sport_type);

/**
 * Adds a ride just stored (in its transaction) to what it counts for. `batch`: one of many
 * imported together, whose best curves are rebuilt once when next read.
 */
export async function countRide(
  tx: Queryable,
  row: Counted,
  figures: {
    readonly bests: RideBests;
    readonly runBests: RideBests;
    readonly powerCurve: Float64Array | null;
    readonly speedCurve: Float64Array | null;
  },
  options: { readonly batch?: boolean | undefined } = {},
): Promise<void> {
  if (!counts(row)) return;
  const start = new Date(row.start_time);
  await addToDay(tx, row.user_id, dayOf(start), rideDelta(row));
  // A run's power and pace are its own bests, beside (never among) a rider's cycling ones.
  if (isRun(row.sport_type))
    await storeBests(tx, row.id, row.user_id, start, figures.runBests, 'run');
  if (!makesRideBests(row)) return;
  await storeBests(tx, row.id, row.user_id, start, figures.bests);
  if (options.batch) await markBestCurvesStale(tx, row.user_id, start);
  else await addRideToBestCurves(tx, row.user_id, start, figures.powerCurve, figures.speedCurve);
}

/**
 * Takes a ride about to change out of what it counts for, before its row is rewritten (in
 * the same transaction, the rider locked): its day's totals and its best efforts.
 */
export async function uncountRide(tx: Queryable, row: Counted): Promise<void> {
  if (counts(row))
    await addToDay(tx, row.user_id, dayOf(new Date(row.start_time)), rideDelta(row, -1));
  await tx.query('DELETE FROM workout_bests WHERE workout_id = $1', [row.id]);
}

/**
 * After a ride was rewritten (`revise.ts`) and counted again (`countRide` with `batch`: the
 * periods it is now in are rebuilt when next read): the periods it was in are marked to be
 * rebuilt from their rides when next read too (itself included only if it still counts
 * there), not now: a year of rides' curves read while the rider is locked, at each
 * correction, held the embedded database for every rider.
 */
export async function rebuildCurvesLeft(tx: Queryable, before: Counted): Promise<void> {
  if (makesRideBests(before))
    await markBestCurvesStale(tx, before.user_id, new Date(before.start_time));
}
