// The figures worker (run by Piscina): a long ride's range and zone figures, off the API's
// event loop. The streams arrive as views of shared memory, not copies.
import { rangeFigures, zoneFigures, type RangeTask, type ZonesTask } from './figures.ts';
import { lowerThreadPriority } from '../imports/niceness.ts';
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

export const range = (task: RangeTask) => rangeFigures(task);
export const zones = (task: ZonesTask) => zoneFigures(task);
// A long ride's analysis (`rideAnalysis.ts`): intervals, climbs, W' balance, curves.
export const analysis = (task: AnalysisTask) => analysisFigures(task);
export const facts = (task: Parameters<typeof factsFigures>[0]) => factsFigures(task);
export const wbal = (task: StreamsTask & { cpW: number; wPrimeJ: number }) => wbalFigures(task);
export const curves = (task: Parameters<typeof extraCurveFigures>[0]) => extraCurveFigures(task);
