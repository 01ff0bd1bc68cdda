/// <reference types="node" />
// One measurement in a fresh process: `node bench/measure.ts <parser> <file>` prints the best
// time of several runs and the peak memory the parse added (maxRSS after minus before).
import { readFileSync } from 'node:fs';
import { DOMParser } from '@xmldom/xmldom';
import { gpx as togeojsonGpx } from '@tmcw/togeojson';
import FitParser from 'fit-file-parser';
import { decodeFit } from '../src/fit/decode.ts';
import { parseGpx } from '../src/gpx/parse.ts';

const [parser, file] = process.argv.slice(2) as [string, string];
const bytes = new Uint8Array(readFileSync(file));

const parsers: Record<string, () => Promise<number> | number> = {
  'ours-fit': () => {
    const result = decodeFit(bytes);
    if (!result.ok) throw new Error(result.error.message);
    return result.value.records.length;
  },
  'fit-file-parser': async () => {
    const parsed = await new FitParser({
      force: true,
      speedUnit: 'm/s',
      lengthUnit: 'm',
      mode: 'list',
    }).parseAsync(bytes.slice().buffer);
    return parsed.records?.length ?? 0;
  },
  'ours-gpx': () => {
    const result = parseGpx(new TextDecoder().decode(bytes));
    if (!result.ok) throw new Error(result.error.message);
    return result.value.points.length;
  },
  'togeojson-gpx': () => {
    const document = new DOMParser().parseFromString(new TextDecoder().decode(bytes), 'text/xml');
    // togeojson is typed against the browser's Document; xmldom's implements what it reads.
    const toGeoJson = togeojsonGpx as unknown as (doc: unknown) => {
      features: { geometry: { coordinates?: unknown[] } | null }[];
    };
    const geojson = toGeoJson(document);
    return geojson.features.reduce(
      (sum, feature) => sum + (feature.geometry?.coordinates?.length ?? 0),
      0,
    );
  },
};
const before = process.resourceUsage().maxRSS;
let best = Infinity;
let items = 0;
const runs = Number(process.env.RUNS ?? 40);
for (let run = 0; run < runs; run++) {
  const start = performance.now();
  items = await parsers[parser]!();
  best = Math.min(best, performance.now() - start);
}
const peakMb = (process.resourceUsage().maxRSS - before) / 1024;
console.log(JSON.stringify({ parser, ms: best, peakMb, items }));
