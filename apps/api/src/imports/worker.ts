// The import worker (run by Piscina): decoding (FIT, TCX, GPX) and statistics run here, off
// the API's event loop.
import { Piscina } from 'piscina';
import { analyseActivity } from '../analysis/analyse.ts';
import type { AnalysisOptions } from './pool.ts';
import { lowerThreadPriority } from './niceness.ts';
import { startThreadClock, type ClockCell } from './threadClock.ts';
import { hasRecordedData } from '../rides/recorded.ts';
import { packStreams } from '../rides/streams.ts';

lowerThreadPriority();

export function analyse(job: {
  bytes: Uint8Array;
  options: AnalysisOptions;
  clock?: ClockCell;
}): unknown {
  startThreadClock(job.clock);
  const result = analyseActivity(job.bytes, job.options);
  if (!result.ok) return result;
  // The streams go to the API's thread in their stored form only, packed here, with what
  // the API asks of them (their length, whether anything was recorded): the columns too
  // were as much again of new memory there, and its collection held the event loop.
  const { streams, powerCurve, speedCurve } = result.value;
  const packed = packStreams(streams);
  const transfer = new Set<ArrayBuffer>([packed.buffer as ArrayBuffer]);
  if (powerCurve) transfer.add(powerCurve.buffer as ArrayBuffer);
  if (speedCurve) transfer.add(speedCurve.buffer as ArrayBuffer);
  for (const part of result.value.more ?? []) transfer.add(part.buffer as ArrayBuffer);
  return Piscina.move({
    [Piscina.transferableSymbol]: [...transfer],
    [Piscina.valueSymbol]: {
      ...result,
      value: {
        ...result.value,
        streams: {},
        packed,
        samples: streams.time?.length ?? 0,
        recorded: hasRecordedData(result.value),
      },
    },
  } as never);
}
