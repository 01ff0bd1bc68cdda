/// <reference types="node" />
// The bench's GPX file: 100,000 track points with elevation, time and the Garmin
// TrackPointExtension (hr, cad), as a bike computer's export writes them (about 24 MB).
import { writeFileSync } from 'node:fs';
import { simulateRide } from '@xoss/workout-stats';

export const GPX_POINTS = 100_000;

/** Writes the bench GPX to `file`; returns its length in characters. */
export function writeBenchGpx(file: string): number {
  const ride = simulateRide({ seconds: 36_000, seed: 2026, stops: [[7200, 420]] });
  const points: string[] = [];
  for (let i = 0; i < GPX_POINTS; i++) {
    const j = i % 36_000;
    const time = new Date((1_760_000_000 + i) * 1000).toISOString();
    points.push(
      `<trkpt lat="${ride.latitude![j]!.toFixed(7)}" lon="${ride.longitude![j]!.toFixed(7)}"><ele>${ride.altitude![j]!.toFixed(1)}</ele><time>${time}</time>` +
        `<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>${ride.heartRate![j]}</gpxtpx:hr><gpxtpx:cad>${ride.cadence![j]}</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>`,
    );
  }
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><name>Bench</name><trkseg>${points.join('\n')}</trkseg></trk></gpx>`;
  writeFileSync(file, text);
  return text.length;
}

if (process.argv[1] === import.meta.filename) console.log(writeBenchGpx(process.argv[2]!));
