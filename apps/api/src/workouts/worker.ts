// The import worker (run by Piscina): decoding (FIT, TCX, GPX) and statistics run here, off
// the API's event loop.
import { Piscina } from 'piscina';
import { analyseActivity } from './analyse.ts';
import type { AnalysisOptions } from './pool.ts';
import { packStreams } from './streams.ts';

export function analyse(job: { bytes: Uint8Array; options: AnalysisOptions }): unknown {
  const result = analyseActivity(job.bytes, job.options);
  if (!result.ok) return result;
  // The columns, their stored form and the curves move to the API's thread instead of being
  // copied; packing tens of MB here keeps it off the API's event loop.
  const { streams, powerCurve, speedCurve } = result.value;
  const packed = packStreams(streams);
  const transfer = new Set<ArrayBuffer>([packed.buffer as ArrayBuffer]);
  for (const column of Object.values(streams)) transfer.add(column.buffer as ArrayBuffer);
  if (powerCurve) transfer.add(powerCurve.buffer as ArrayBuffer);
  if (speedCurve) transfer.add(speedCurve.buffer as ArrayBuffer);
  return Piscina.move({
    [Piscina.transferableSymbol]: [...transfer],
    [Piscina.valueSymbol]: { ...result, value: { ...result.value, packed } },
  } as never);
}
