// The figures worker (run by Piscina): a long ride's range and zone figures, off the API's
// event loop. The streams arrive as views of shared memory, not copies.
import { rangeFigures, zoneFigures, type RangeTask, type ZonesTask } from './figures.ts';
import { lowerThreadPriority } from '../imports/niceness.ts';
import { startThreadClock, type ClockCell } from '../imports/threadClock.ts';
import {
  analysisFigures,
  extraCurveFigures,
  factsFigures,
  wbalFigures,
  type AnalysisTask,
  type StreamsTask,
} from './rideAnalysis.ts';

// Lower still than the import threads: its work is a long ride's range, which any visitor
// of a shared ride may ask for, over and over; an import is a rider's upload waiting.
lowerThreadPriority(19);

/** Each task, its thread's CPU time counted from its start (`imports/threadClock.ts`). */
const timed =
  <T, R>(work: (task: T) => R) =>
  (task: T & { clock?: ClockCell }): R => {
    startThreadClock(task.clock);
    return work(task);
  };

export const range = timed((task: RangeTask) => rangeFigures(task));
export const zones = timed((task: ZonesTask) => zoneFigures(task));
// A long ride's analysis (`rideAnalysis.ts`): intervals, climbs, W' balance, curves.
export const analysis = timed((task: AnalysisTask) => analysisFigures(task));
export const facts = timed((task: Parameters<typeof factsFigures>[0]) => factsFigures(task));
export const wbal = timed((task: StreamsTask & { cpW: number; wPrimeJ: number }) =>
  wbalFigures(task),
);
export const curves = timed((task: Parameters<typeof extraCurveFigures>[0]) =>
  extraCurveFigures(task),
);
