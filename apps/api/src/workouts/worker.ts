// The import worker: decoding (FIT, TCX, GPX) and statistics run here, off the API's event loop.
import { parentPort } from 'node:worker_threads';
import { analyseActivity } from './analyse.ts';
import type { AnalysisOptions } from './pool.ts';

parentPort!.on('message', (job: { id: number; bytes: Uint8Array; options: AnalysisOptions }) => {
  try {
    const result = analyseActivity(job.bytes, job.options);
    const transfer: ArrayBuffer[] = [];
    if (result.ok) {
      const { streams, powerCurve, speedCurve } = result.analysis;
      for (const column of Object.values(streams)) transfer.push(column.buffer as ArrayBuffer);
      if (powerCurve) transfer.push(powerCurve.buffer as ArrayBuffer);
      if (speedCurve) transfer.push(speedCurve.buffer as ArrayBuffer);
    }
    parentPort!.postMessage({ id: job.id, result }, [...new Set(transfer)]);
  } catch (error) {
    parentPort!.postMessage({
      id: job.id,
      crash: error instanceof Error ? error.message : String(error),
    });
  }
});
