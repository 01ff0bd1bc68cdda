// Everything a rider gave us, as one zip streamed to them: their files as uploaded, laid out
// as Strava's bulk export is (so the archive imports back here or elsewhere), and JSON of
// the rest.
import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Services } from '../services.ts';
import { listItem, type WorkoutRow } from '../rides/rows.ts';
import { summaryReply } from '../rides/replies.ts';
import { thresholdHistory } from '../analysis/thresholds.ts';
import { privacyZones } from '../share/store.ts';
import { STRAVA_COLUMNS, csvRow, stravaDate, stravaTypeOf } from './stravaCsv.ts';

/** What the archive's README says, so a rider opening it knows what each part is. */
const README = `Your data from XOSS

activities/         every ride's file, as you uploaded it (FIT, TCX or GPX, maybe .gz)
activities.csv      one row per ride, in the columns of Strava's bulk export
routebooks/         your routes, as the GPX files you uploaded
rides.json          every ride with the figures we computed (summary, laps, sessions)
profile.json        your profile and settings, with your FTP and max heart rate history
devices.json        your devices and the data pages you designed for them
privacy-zones.json  the places hidden on your shared rides
comments.json       your comments on articles, and the articles you liked

The archive can be imported again, into XOSS or another account: Workouts >
Import a Strava or Garmin export (/dashboard/workouts/archive), and choose this .zip.
`;

/** The file name of a ride inside `activities/`, as Strava names them. */
const activityFileName = (row: Pick<WorkoutRow, 'id' | 'file_format'>) =>
  `activities/${row.id}.${row.file_format ?? 'fit'}`;

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/**
 * The rider's archive as a zip stream. Files are read from the store one at a time as the
 * zip is written (never all in memory); the rows are read first, in one go.
 */
export async function exportArchive(services: Services, userId: number): Promise<Readable> {
  const { db, blobs } = services;
  const [profile] = await db.query<Record<string, unknown>>(
    `SELECT uuid, email, username, avatar_url, ftp, max_hr, weight_kg, ftp_rule, distance_unit, temperature_unit,
            privacy_trim_m, share_heart_rate, share_power, created_at
       FROM users WHERE id = $1`,
    [userId],
  );
  const rides = await db.query<WorkoutRow & { notes: string }>(
    'SELECT * FROM workouts WHERE user_id = $1 ORDER BY start_time, id',
    [userId],
  );
  const routebooks = await db.query<{ id: number; file_key: string; file_name: string }>(
    `SELECT id, title, description, distance_m, elevation_gain_m, file_key, file_name, created_at
       FROM routebooks WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
  const devices = await db.query(
    `SELECT serial, model, firmware_version, manufacture, layout, created_at
       FROM devices WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
  const comments = await db.query(
    `SELECT c.post_id, p.title AS article, c.body, c.created_at
       FROM post_comments c JOIN posts p ON p.id = c.post_id WHERE c.user_id = $1 ORDER BY c.id`,
    [userId],
  );
  const likes = await db.query(
    `SELECT l.post_id, p.title AS article FROM post_likes l JOIN posts p ON p.id = l.post_id
      WHERE l.user_id = $1 ORDER BY l.post_id`,
    [userId],
  );
  const zones = await privacyZones(db, userId);
  const thresholds = await thresholdHistory(db, userId);
  // A file the store lost would break the zip half way: such files are left out and named.
  const missing = await missingFiles(services, [
    ...rides.map((row) => ({ key: row.file_key, name: activityFileName(row) })),
    ...routebooks.map((book) => ({ key: book.file_key, name: `routebooks/${book.id}.gpx` })),
  ]);

  const zip = new ZipFile();
  const readme =
    missing.size === 0
      ? README
      : `${README}\nThese files could not be read from our store and are missing here:\n` +
        `${[...missing].join('\n')}\n`;
  zip.addBuffer(Buffer.from(readme), 'README.txt');
  zip.addBuffer(Buffer.from(activitiesCsv(rides)), 'activities.csv');
  const addFile = (key: string, name: string) => {
    if (!missing.has(name)) zip.addReadStreamLazy(name, (done) => done(null, blobs.stream(key)));
  };
  for (const row of rides) addFile(row.file_key, activityFileName(row));
  for (const book of routebooks) addFile(book.file_key, `routebooks/${book.id}.gpx`);
  zip.addBuffer(
    json(
      rides.map((row) => ({
        ...listItem(row),
        notes: row.notes,
        gear: row.gear ?? null,
        file: activityFileName(row),
        summary: summaryReply(row.summary, row.device_summary, row.ftp_source),
        laps: row.laps ?? [],
        sessions: row.sessions,
      })),
    ),
    'rides.json',
  );
  zip.addBuffer(json({ ...profile, thresholds }), 'profile.json');
  zip.addBuffer(json(devices), 'devices.json');
  zip.addBuffer(
    json(
      routebooks.map(({ file_key: _key, ...book }) => ({
        ...book,
        file: `routebooks/${book.id}.gpx`,
      })),
    ),
    'routebooks.json',
  );
  zip.addBuffer(
    json(
      zones.map(({ name, latitude, longitude, radius_m }) => ({
        name,
        latitude,
        longitude,
        radius_m,
      })),
    ),
    'privacy-zones.json',
  );
  zip.addBuffer(json({ comments, likes }), 'comments.json');
  zip.end();
  return zip.outputStream as Readable;
}

/** `activities.csv` in Strava's columns (names, descriptions and figures in its units). */
function activitiesCsv(rides: readonly (WorkoutRow & { notes: string })[]): string {
  let text = csvRow(STRAVA_COLUMNS);
  for (const row of rides) {
    const summary = row.summary;
    text += csvRow([
      row.id,
      stravaDate(new Date(row.start_time)),
      row.name,
      stravaTypeOf(row.sport_type, row.indoor),
      row.notes,
      Math.round(row.total_time_s),
      (row.distance_m / 1000).toFixed(2),
      summary.maxHeartRate ?? null,
      'false',
      row.gear ?? '',
      activityFileName(row),
      Math.round(row.total_time_s),
      Math.round(row.moving_time_s),
      row.distance_m.toFixed(1),
      summary.maxSpeedMs?.toFixed(3) ?? null,
      row.speed_avg_ms?.toFixed(3) ?? null,
      row.elevation_gain_m?.toFixed(0) ?? null,
      row.hr_avg?.toFixed(0) ?? null,
      row.power_avg?.toFixed(0) ?? null,
      summary.calories?.toFixed(0) ?? null,
    ]);
  }
  return text;
}

/** The names of the files the store does not have (asked 32 at a time). */
async function missingFiles(
  services: Services,
  files: readonly { key: string; name: string }[],
): Promise<Set<string>> {
  const missing = new Set<string>();
  for (let at = 0; at < files.length; at += 32) {
    const batch = files.slice(at, at + 32);
    const sizes = await Promise.all(
      batch.map(({ key }) => services.blobs.size(key).catch(() => undefined)),
    );
    sizes.forEach((size, index) => {
      if (size === undefined) missing.add(batch[index]!.name);
    });
  }
  return missing;
}
