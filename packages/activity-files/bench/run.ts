/// <reference types="node" />
// `pnpm bench`: time and peak memory to decode a 10-hour 1 Hz FIT file (36,000 records), the
// largest real files of the test corpus (other makers' devices) and a 100,000-point GPX, ours
// beside the next-best npm parsers, with the ratios; then the exact mean-max power curve of the
// largest real ride with power beside the plain scan.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  meanMaxCurve,
  meanMaxCurveReference,
  oneHertzSeries,
  simulateRide,
  timeline,
} from '@xoss/workout-stats';
import { decodeFit } from '../src/fit/decode.ts';
import { activityOverview } from '../src/fit/streams.ts';
import { encodeFit } from '../src/fit/encode.ts';
import { activityFromStreams } from '../src/fit/fromStreams.ts';

const dir = mkdtempSync(join(tmpdir(), 'xoss-bench-'));
try {
  const ride = simulateRide({ seconds: 36_000, seed: 2026, stops: [[7200, 420]] });
  const fit = encodeFit(
    activityFromStreams(ride, { startTime: 1_760_000_000, sport: 2, settings: { ftpWatts: 250 } }),
  );
  const fitFile = join(dir, 'ride.fit');
  writeFileSync(fitFile, fit);
  const points: string[] = [];
  for (let i = 0; i < 100_000; i++) {
    const j = i % 36_000;
    const time = new Date((1_760_000_000 + i) * 1000).toISOString();
    points.push(
      `<trkpt lat="${ride.latitude![j]!.toFixed(7)}" lon="${ride.longitude![j]!.toFixed(7)}"><ele>${ride.altitude![j]!.toFixed(1)}</ele><time>${time}</time>` +
        `<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>${ride.heartRate![j]}</gpxtpx:hr><gpxtpx:cad>${ride.cadence![j]}</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>`,
    );
  }
  const gpxFile = join(dir, 'route.gpx');
  writeFileSync(
    gpxFile,
    `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><name>Bench</name><trkseg>${points.join('\n')}</trkseg></trk></gpx>`,
  );

  const measure = (parser: string, file: string) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        ['--conditions=@xoss/source', join(import.meta.dirname, 'measure.ts'), parser, file],
        { encoding: 'utf8' },
      ).trim(),
    ) as { ms: number; peakMb: number; items: number };
  const corpus = join(import.meta.dirname, '..', 'test', 'corpus', 'fit');
  const real = [
    ['fitparse-activity-large-fenxi2-multisport.fit', 'Garmin fenix 2 multisport'],
    ['jimmykane-downhill.fit', 'Garmin Edge, MTB downhill'],
    ['fitparse-2019-02-17-062644-ELEMNT-297E-195-0.fit', 'Wahoo ELEMNT, road with power'],
  ] as const;
  const rows = [
    [
      'FIT, 36,000 records',
      fit.length,
      measure('ours-fit', fitFile),
      measure('fit-file-parser', fitFile),
      'fit-file-parser',
    ],
    ...real.map(
      ([file, device]) =>
        [
          `FIT, real: ${device}`,
          readFileSync(join(corpus, file)).length,
          measure('ours-fit', join(corpus, file)),
          measure('fit-file-parser', join(corpus, file)),
          'fit-file-parser',
        ] as const,
    ),
    [
      'GPX, 100,000 points',
      points.join('').length,
      measure('ours-gpx', gpxFile),
      measure('togeojson-gpx', gpxFile),
      '@tmcw/togeojson + @xmldom/xmldom',
    ],
  ] as const;
  console.log(
    '\n@xoss/activity-files: decode time (best of 40 runs, as a server decoding many files sees it) and peak memory, each parser in its own process\n',
  );
  console.log(
    '| file | bytes | ours ms | ours peak MB | peer | peer ms | peer peak MB | speed ratio |',
  );
  console.log('| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |');
  for (const [name, size, ours, theirs, peer] of rows) {
    if (ours.items !== theirs.items)
      console.log(`(${name}: ours read ${ours.items} records, ${peer} ${theirs.items})`);
    console.log(
      `| ${name} | ${size.toLocaleString('en-US')} | ${ours.ms.toFixed(1)} | ${ours.peakMb.toFixed(1)} | ${peer} | ${theirs.ms.toFixed(1)} | ${theirs.peakMb.toFixed(1)} | ${(theirs.ms / ours.ms).toFixed(1)}x |`,
    );
  }
  console.log(
    '\nTargets: FIT at least 10x faster than fit-file-parser; GPX at least as fast as the fastest peer.',
  );

  // The exact power curve of a real ride: its moving time as a true 1 Hz series.
  const decoded = decodeFit(
    readFileSync(join(corpus, 'fitparse-2019-02-17-062644-ELEMNT-297E-195-0.fit')),
  );
  if (!decoded.ok) throw new Error(decoded.error.message);
  const overview = activityOverview(decoded.value);
  const line = timeline(overview.streams, overview.timer ? { timer: overview.timer } : {});
  const watts = oneHertzSeries(overview.streams.power!, line, 'moving');
  // Best of 20 runs each, as a server computing curves for many rides sees it: the exact
  // curve's loops reach V8's optimised code after 6-9 runs (the first runs take 30 ms).
  const timed = (work: () => Float64Array) => {
    let fastest = Infinity;
    let result: Float64Array = new Float64Array(0);
    for (let run = 0; run < 20; run++) {
      const start = performance.now();
      result = work();
      fastest = Math.min(fastest, performance.now() - start);
    }
    return { ms: fastest, result };
  };
  const exact = timed(() => meanMaxCurve(watts));
  const plain = timed(() => meanMaxCurveReference(watts));
  if (exact.result.some((value, i) => Math.abs(value - plain.result[i]!) > 1e-6))
    throw new Error('The exact curve differs from the plain scan');
  console.log(
    `\nExact power curve of a real ride (Wahoo ELEMNT, ${watts.length.toLocaleString('en-US')} s of moving time at 1 Hz): ours ${exact.ms.toFixed(1)} ms, plain scan ${plain.ms.toFixed(1)} ms, ${(plain.ms / exact.ms).toFixed(1)}x (target at least 15x).`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
