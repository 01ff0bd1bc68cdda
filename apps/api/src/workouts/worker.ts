// The import worker (run by Piscina): decoding (FIT, TCX, GPX) and statistics run here, off
// the API's event loop.
import { Piscina } from 'piscina';
import { analyseActivity } from './analyse.ts';
import type { AnalysisOptions } from './pool.ts';

export function analyse(job: { bytes: Uint8Array; options: AnalysisOptions }): unknown {
  const result = analyseActivity(job.bytes, job.options);
  if (!result.ok) return result;
  // The columns and curves move to the API's thread instead of being copied.
  const { streams, powerCurve, speedCurve } = result.value;
  const transfer = new Set<ArrayBuffer>();
  for (const column of Object.values(streams)) transfer.add(column.buffer as ArrayBuffer);
  if (powerCurve) transfer.add(powerCurve.buffer as ArrayBuffer);
  if (speedCurve) transfer.add(speedCurve.buffer as ArrayBuffer);
  return Piscina.move({
    [Piscina.transferableSymbol]: [...transfer],
    [Piscina.valueSymbol]: result,
  } as never);
}
