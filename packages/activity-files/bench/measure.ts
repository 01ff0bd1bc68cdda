/// <reference types="node" />
// One measurement in a fresh process: `node bench/measure.ts <parser> <file>` runs the parser
// WARMUP times (default 3) untimed, then RUNS times (default 40), and prints the best and the
// median time and the peak memory the parse added (maxRSS after minus before). GPX readers
// get the same string, decoded once before timing; for them it also prints a checksum of
// the latitudes, longitudes, elevations and times they read, so the bench can tell that
// each pulled the same values.
import { readFileSync } from 'node:fs';
import { DOMParser } from '@xmldom/xmldom';
import { gpx as togeojsonGpx } from '@tmcw/togeojson';
import FitParser from 'fit-file-parser';
import { decodeFit } from '../src/fit/decode.ts';
import { parseGpx } from '../src/gpx/parse.ts';
import { regexPoints, saxesPoints, txmlPoints } from './gpxPeers.ts';

const [parser, file] = process.argv.slice(2) as [string, string];
const bytes = new Uint8Array(readFileSync(file));
const text = parser.endsWith('-gpx') ? new TextDecoder().decode(bytes) : '';

interface Columns {
  readonly length: number;
  readonly latitude: ArrayLike<number>;
  readonly longitude: ArrayLike<number>;
  readonly elevation: ArrayLike<number>;
  readonly time: ArrayLike<number>;
}
let last: Columns | undefined;
const points = (columns: Columns) => {
  last = columns;
  return columns.length;
};

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
    const result = parseGpx(text);
    if (!result.ok) throw new Error(result.error.message);
    return points(result.value.points);
  },
  'txml-gpx': () => points(txmlPoints(text)),
  'saxes-gpx': () => points(saxesPoints(text)),
  'regex-gpx': () => points(regexPoints(text)),
  'togeojson-gpx': () => {
    const document = new DOMParser().parseFromString(text, 'text/xml');
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
let items = 0;
const warmup = Number(process.env.WARMUP ?? 3);
const runs = Number(process.env.RUNS ?? 40);
for (let run = 0; run < warmup; run++) items = await parsers[parser]!();
const times: number[] = [];
for (let run = 0; run < runs; run++) {
  const start = performance.now();
  items = await parsers[parser]!();
  times.push(performance.now() - start);
}
const peakMb = (process.resourceUsage().maxRSS - before) / 1024;
times.sort((a, b) => a - b);
const median =
  times.length % 2 === 1
    ? times[(times.length - 1) / 2]!
    : (times[times.length / 2 - 1]! + times[times.length / 2]!) / 2;
let checksum: number | undefined;
if (last) {
  checksum = 0;
  for (let i = 0; i < last.length; i++)
    checksum += last.latitude[i]! + last.longitude[i]! + last.elevation[i]! + last.time[i]! / 1e6;
}
console.log(JSON.stringify({ parser, ms: times[0], medianMs: median, peakMb, items, checksum }));
