import { readFileSync } from 'node:fs';
import { simulateRide } from '@xoss/workout-stats';
import { describe, expect, it } from 'vitest';
import { decodeFit } from './decode.ts';
import { encodeFit } from './encode.ts';
import { activityFromStreams } from './fromStreams.ts';
import { fitParts, fitRecordings } from './recordings.ts';
import { parseTcx, tcxRecordings } from '../tcx/parse.ts';

const corpus = (path: string) =>
  new Uint8Array(readFileSync(new URL(`../../test/corpus/${path}`, import.meta.url)));

const ride = (seconds: number, seed: number, startTime: number) =>
  encodeFit(activityFromStreams(simulateRide({ seconds, seed }), { startTime, sport: 2 }));

const chain = (...files: Uint8Array[]) => {
  const bytes = new Uint8Array(files.reduce((sum, file) => sum + file.length, 0));
  let offset = 0;
  for (const file of files) {
    bytes.set(file, offset);
    offset += file.length;
  }
  return bytes;
};

describe('fitRecordings', () => {
  it('gives an ordinary file back whole', () => {
    const one = ride(600, 1, 1_790_000_000);
    expect(fitRecordings(one)).toEqual([one]);
  });

  it('splits a chain of two activities into two files, each read on its own', () => {
    const first = ride(600, 1, 1_790_000_000);
    const second = ride(900, 2, 1_790_010_000);
    const parts = fitRecordings(chain(first, second));
    expect(parts.map((part) => part.length)).toEqual([first.length, second.length]);
    const decoded = parts.map((part) => decodeFit(part));
    expect(decoded.map((result) => result.ok && result.value.records.length)).toEqual([600, 900]);
  });

  it('keeps a recording written in parts (one device, one creation time) as one', () => {
    // A Forerunner 920XT triathlon: four FIT files chained, each with the same file_id.
    const triathlon = corpus('fit/fitparse-sample_mulitple_header.fit');
    expect(fitParts(triathlon).length).toBe(4);
    expect(fitRecordings(triathlon)).toEqual([triathlon]);
  });

  it('keeps bytes after the last part (damage) with the last recording', () => {
    const first = ride(600, 1, 1_790_000_000);
    const second = ride(300, 2, 1_790_010_000);
    const damaged = chain(first, second, new Uint8Array([1, 2, 3]));
    const parts = fitRecordings(damaged);
    expect(parts.map((part) => part.length)).toEqual([first.length, second.length + 3]);
  });
});

describe('tcxRecordings', () => {
  const activityOf = (text: string) => /<Activity [\s\S]*<\/Activity>/.exec(text)![0];
  const run = new TextDecoder().decode(corpus('tcx/dblock-tcx-running_activity_1.tcx'));
  const swim = new TextDecoder().decode(corpus('tcx/dblock-tcx-pool_swim-activity_1.tcx'));

  it('gives each <Activity> as a file of its own, in order', () => {
    const both = run.replace(activityOf(run), `${activityOf(run)}\n${activityOf(swim)}`);
    const whole = parseTcx(both);
    expect(whole.ok && whole.value.activityCount).toBe(2);
    const parts = tcxRecordings(new TextEncoder().encode(both)).map((part) => parseTcx(part));
    const alone = [parseTcx(run), parseTcx(swim)];
    expect(parts.map((part) => part.ok && part.value.activityCount)).toEqual([1, 1]);
    expect(parts.map((part) => part.ok && [part.value.sport, part.value.points.length])).toEqual(
      alone.map((part) => part.ok && [part.value.sport, part.value.points.length]),
    );
  });

  it('gives a file with one activity back whole', () => {
    const bytes = new TextEncoder().encode(run);
    expect(tcxRecordings(bytes)).toEqual([bytes]);
  });
});
