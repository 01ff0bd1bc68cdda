// The import worker: FIT decoding and statistics run here, off the API's event loop.
import { parentPort } from 'node:worker_threads';
import { analyseFit } from './analyse.ts';

parentPort!.on('message', (job: { id: number; bytes: Uint8Array; settings: object }) => {
  try {
    const result = analyseFit(job.bytes, job.settings);
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
