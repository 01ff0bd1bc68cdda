// The figures worker (run by Piscina): a long ride's range and zone figures, off the API's
// event loop. The streams arrive as views of shared memory, not copies.
import { rangeFigures, zoneFigures, type RangeTask, type ZonesTask } from './figures.ts';

export const range = (task: RangeTask) => rangeFigures(task);
export const zones = (task: ZonesTask) => zoneFigures(task);
