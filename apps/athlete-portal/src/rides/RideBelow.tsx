import type { Climb, WorkoutAnalysis, WorkoutDetail } from '@xoss/api-contract';
import { RideBests } from './RideBests.tsx';
import { RideLaps } from './RideLaps.tsx';
import { RideClimbs, RideIntervals } from './RideAnalysis.tsx';

/**
 * The owner's panels below a ride's charts: the intervals and climbs of its analysis, the
 * device's laps and the ride's best efforts. A chunk of its own, loaded (with the analysis
 * and the bests it shows) when the page is scrolled down to it: a phone on mobile data
 * draws the ride's first screen without them.
 */
export function RideBelow({
  workout,
  analysis,
  climbs,
  activeClimb,
  onPickInterval,
  onPickClimb,
}: {
  workout: WorkoutDetail;
  analysis: WorkoutAnalysis | undefined;
  climbs: readonly Climb[];
  activeClimb: number | null;
  onPickInterval: (start: number, end: number) => void;
  onPickClimb: (index: number) => void;
}) {
  return (
    <>
      {analysis ? <RideIntervals analysis={analysis} onPick={onPickInterval} /> : null}
      {analysis ? <RideClimbs climbs={climbs} active={activeClimb} onPick={onPickClimb} /> : null}
      <RideLaps workout={workout} />
      <RideBests id={workout.id} />
    </>
  );
}
