import { activityFromStreams, encodeFit } from '@xoss/activity-files';
import { seededRandom, simulateRide } from '@xoss/workout-stats';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../platform/blobStore.ts';
import { createUser } from './createUser.ts';
import type { Database } from '../platform/db/db.ts';
import { multipartBody } from '../testing/multipart.ts';

/** The demo athlete of a local run (also in the README). */
export const DEMO_USER = {
  email: 'demo@xoss.co',
  username: 'Demo Rider',
  password: 'ride-xoss-2026',
} as const;

const DAY = 86_400;

/**
 * The demo rider's e-mail until the seed is complete: the last step gives the rider
 * `DEMO_USER.email`. A seed cut short (Ctrl-C, or `node --watch` restarting the API of
 * `pnpm dev` when a file changes) leaves this rider, and the next start removes it and seeds
 * again, instead of keeping a demo with a part of its rides forever.
 */
const SEEDING_EMAIL = 'demo+seeding@xoss.co';

/** The demo's map regions: model, name, bounding box. */
const DEMO_REGIONS = [
  ['NAV+', 'China South', [108, 18, 118, 26]],
  ['NAV+', 'China East', [116, 24, 123, 35]],
  ['NAV+', 'Japan', [129, 30, 146, 46]],
  ['NAV+', 'Central Europe', [5, 45, 17, 55]],
  ['SPRINT', 'Asia', [60, -10, 150, 55]],
  ['SPRINT', 'Europe', [-25, 34, 45, 72]],
  ['SPRINT', 'North America', [-170, 15, -50, 72]],
] as const;

/** The blob key of the demo's map package of one region. */
const mapKey = (model: 'NAV+' | 'SPRINT', index: number) =>
  `maps/${model === 'NAV+' ? 'navplus' : 'sprint'}-${index}.map`;

/** Removes what a seed cut short left: its rider (rows cascade), articles and map regions. */
async function forgetUnfinishedSeed(db: Database): Promise<void> {
  const [unfinished] = await db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [
    SEEDING_EMAIL,
  ]);
  if (!unfinished) return;
  await db.query('DELETE FROM posts WHERE author_id = $1', [unfinished.id]);
  const keys = DEMO_REGIONS.map(([model], index) => mapKey(model, index));
  await db.query(
    `DELETE FROM map_regions WHERE file_key IN (${keys.map((_, i) => `$${i + 1}`).join(', ')})`,
    keys,
  );
  // Its files are swept as orphans at a later start (platform/sweep.ts).
  await db.query('DELETE FROM users WHERE id = $1', [unfinished.id]);
}

/** A GPX track of a simulated ride, as a planner or device would export it. */
export function demoGpx(seed: number, seconds: number, withTime: boolean): string {
  const ride = simulateRide({
    seconds,
    seed,
    start: { latitude: 22.54 + seed * 0.01, longitude: 113.93 + seed * 0.01 },
  });
  const points: string[] = [];
  for (let i = 0; i < seconds; i += 5) {
    const time = withTime
      ? `<time>${new Date((1_760_000_000 + i) * 1000).toISOString()}</time>`
      : '';
    points.push(
      `<trkpt lat="${ride.latitude![i]!.toFixed(6)}" lon="${ride.longitude![i]!.toFixed(6)}"><ele>${ride.altitude![i]!.toFixed(1)}</ele>${time}</trkpt>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="XOSS demo" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Demo route ${seed}</name><trkseg>${points.join('')}</trkseg></trk></gpx>`;
}

/** The advisory lock of the seed on PostgreSQL (the migrations hold 4242). */
const SEED_LOCK = 4243;

type SeedOptions = { workouts?: number; now?: number };

/**
 * Seeds an empty database through the real API: the demo athlete, devices of several
 * models, ~30 simulated rides written as real FIT files and imported by POST, routebooks,
 * map regions with small packages and articles in several languages. Does nothing when the
 * demo athlete exists; a seed cut short is removed and done again (`SEEDING_EMAIL`).
 *
 * Several processes may start at once on one PostgreSQL: one seeds, holding an advisory
 * lock for as long (a transaction of its own), and the others start without the demo
 * instead of waiting, or of taking the unfinished seed for one cut short and removing it
 * under the first one's feet. (The embedded database has one process.)
 */
export async function seedDemo(
  server: FastifyInstance,
  db: Database,
  blobs: BlobStore,
  options: SeedOptions = {},
): Promise<void> {
  if (await demoExists(db)) return;
  if (db.kind !== 'postgres') return seedOnce(server, db, blobs, options);
  await db.transaction(async (tx) => {
    const [lock] = await tx.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      [SEED_LOCK],
    );
    if (lock?.locked) await seedOnce(server, db, blobs, options);
    else server.log.info('another process is seeding the demo data');
  });
}

const demoExists = async (db: Database) =>
  (await db.query('SELECT id FROM users WHERE email = $1', [DEMO_USER.email])).length > 0;

async function seedOnce(
  server: FastifyInstance,
  db: Database,
  blobs: BlobStore,
  options: SeedOptions,
): Promise<void> {
  // Checked again under the lock: another process may have finished meanwhile.
  if (await demoExists(db)) return;
  await forgetUnfinishedSeed(db);
  const userId = await createUser(db, SEEDING_EMAIL, DEMO_USER.username, DEMO_USER.password);
  await db.query('UPDATE users SET ftp = 250, max_hr = 188 WHERE id = $1', [userId]);
  // The rider's settings since always (what a first change through the API records too).
  await db.query(
    `INSERT INTO athlete_thresholds (user_id, effective_from, ftp, max_hr) VALUES ($1, DATE '1970-01-01', 250, 188)`,
    [userId],
  );
  const logIn = async () => {
    const login = await server.inject({
      method: 'POST',
      url: '/api/v1/jwt-token/',
      payload: { email: SEEDING_EMAIL, password: DEMO_USER.password },
    });
    return `Bearer ${login.json<{ data: { access: string } }>().data.access}`;
  };
  let authorization = await logIn();
  // Seeding outlives a short access token (tests run with a few seconds): log in again.
  const send = async (request: {
    url: string;
    payload: string | Buffer | object;
    contentType?: string;
  }) => {
    const inject = () =>
      server.inject({
        method: 'POST',
        url: request.url,
        headers: {
          authorization,
          ...(request.contentType ? { 'content-type': request.contentType } : {}),
        },
        payload: request.payload,
      });
    let reply = await inject();
    if (reply.statusCode === 401) {
      authorization = await logIn();
      reply = await inject();
    }
    return reply;
  };

  for (const [serial, model] of [
    ['NAVP2024001', 'NAV+'],
    ['SPRT2023042', 'SPRINT'],
    ['G2PL2025007', 'G2+'],
  ] as const)
    await send({ url: '/api/v2/devices/', payload: { serial, model } });

  // The rides' imports run in this process while it seeds, even with IMPORT_JOBS=off: the
  // first process on an empty database may start before any worker does (or none is run),
  // and an upload would wait for one until its deadline. Run here, the demo is the same
  // whichever process starts first; a worker running meanwhile may take some of them.
  const stopWorking = await server.importJobs.workHere();
  const random = seededRandom(2017);
  try {
    const now = Math.floor((options.now ?? Date.now()) / 1000);
    const count = options.workouts ?? 30;
    for (let i = 0; i < count; i++) {
      const indoor = i % 5 === 3;
      // The latest ride is a ten-hour audax: the long ride every chart and map must handle.
      const audax = i === 0;
      const drawn = 1800 + Math.floor(random() * 5400);
      const seconds = audax ? 10 * 3600 : drawn;
      // What an amateur with FTP 250 W rides: an audax near 60 % of FTP on gentle terrain,
      // training rides and commutes near 65-72 % with 5-15 m of climbing per km, indoor
      // intervals a little harder.
      const intensity = audax ? 0.59 : indoor ? 0.72 + random() * 0.08 : 0.64 + random() * 0.1;
      const hilliness = audax ? 0.15 : 0.14 + random() * 0.12;
      const ride = simulateRide({
        seconds,
        seed: 100 + i,
        indoor,
        intensity,
        hilliness,
        ftpWatts: 250,
        maxHeartRate: 188,
        start: { latitude: 22.5 + random() * 0.2, longitude: 113.9 + random() * 0.2 },
        stops: indoor
          ? []
          : audax
            ? [
                [3 * 3600, 900],
                [6 * 3600, 1800],
              ]
            : [[Math.floor(seconds / 2), 60 + Math.floor(random() * 240)]],
      });
      // Indoor sessions are structured: hard efforts of 20 s to 8 min the power model needs.
      if (indoor && ride.power) structureSession(ride.power, 250);
      // Spread over the last year, with more in the last weeks (for the comparison periods).
      const daysAgo = i < 10 ? i * 3 + 1 : 30 + (i - 10) * 16;
      const startTime = now - daysAgo * DAY - 7 * 3600;
      const fit = encodeFit(
        activityFromStreams(ride, {
          startTime,
          sport: 2,
          settings: { ftpWatts: 250, maxHeartRate: 188 },
        }),
      );
      const name = audax
        ? `Ten-hour audax #${i + 1}`
        : indoor
          ? `Indoor intervals #${i + 1}`
          : `Morning ride #${i + 1}`;
      const { body, contentType } = multipartBody(
        { name },
        { name: 'file', filename: `ride-${i + 1}.fit`, bytes: fit },
      );
      const reply = await send({ url: '/api/v2/workouts/', contentType, payload: body });
      if (reply.statusCode !== 201) throw new Error(`Demo import ${i + 1} failed: ${reply.body}`);
    }
  } finally {
    await stopWorking();
  }

  for (const [seed, title, withTime] of [
    [1, 'Shenzhen Bay loop', false],
    [2, 'Wutong Mountain climb', true],
    [3, 'Dameisha coast', false],
  ] as const) {
    const { body, contentType } = multipartBody(
      { title, description: `A demo route: ${title}.` },
      {
        name: 'file',
        filename: `${title}.gpx`,
        bytes: new TextEncoder().encode(demoGpx(seed, 3600, withTime)),
        type: 'application/gpx+xml',
      },
    );
    await send({ url: '/api/v2/routebooks/', contentType, payload: body });
  }

  for (const [index, [model, name, bbox]] of DEMO_REGIONS.entries()) {
    // Small stand-in packages: real map data is served from object storage in production.
    const bytes = new Uint8Array(64 * 1024 + index * 4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
    const key = mapKey(model, index);
    await blobs.put(key, bytes);
    await db.query(
      'INSERT INTO map_regions (model, name, bbox, file_key, size_bytes) VALUES ($1, $2, $3, $4, $5)',
      [model, name, JSON.stringify(bbox), key, bytes.length],
    );
  }

  const articles = [
    [
      'en',
      'Setting up data pages on the NAV+',
      'Open Device, choose Manage and pick a layout. Each page holds up to ten fields; charts need a large slot.',
    ],
    [
      'en',
      'How to import a GPX route',
      'Upload the GPX file on the web, give it a title, then open the app to sync the routebook to your device.',
    ],
    [
      'en',
      'Winter riding: battery tips',
      'Cold weather shortens battery life. Keep the NAV in a pocket until the start and lower the backlight.',
    ],
    [
      'zh-CN',
      '如何设置码表数据页',
      '在设备页面选择管理，选择布局后点击数据项即可更换。图表需要大格子。',
    ],
    ['zh-TW', '如何匯入 GPX 路線', '在網頁上傳 GPX 檔案並填寫標題，再打開 App 同步路書到碼錶。'],
    [
      'ja',
      'パワーカーブの見方',
      'パワーカーブは1秒からライド全体までの最大平均パワーです。過去6週間と比べてみましょう。',
    ],
    [
      'de',
      'Kartenupdate für den SPRINT',
      'Lade die Region herunter, verbinde das Gerät per USB und kopiere die Datei in den Ordner maps.',
    ],
  ] as const;
  for (const [language, title, body] of articles)
    await db.query(
      'INSERT INTO posts (author_id, author_name, language, title, body) VALUES ($1, $2, $3, $4, $5)',
      [userId, 'XOSS Team', language, title, body],
    );
  // All is in: the rider gets the demo's e-mail, which says the seed is complete.
  await db.query('UPDATE users SET email = $1 WHERE id = $2', [DEMO_USER.email, userId]);
}

/**
 * Writes a structured indoor session over a simulated ride's power (in place), after a
 * 10-minute warm-up: 2 x 3 min at 125 % of FTP, 8 min at 106 %, a 20 s sprint, each followed
 * by 4 minutes easy at 55 %, as much of it as the ride's length holds. Each second keeps a
 * little of the simulator's variation, so the efforts read as ridden, not drawn.
 */
function structureSession(power: Float64Array, ftpW: number): void {
  const blocks: [seconds: number, share: number][] = [
    [180, 1.25],
    [240, 0.55],
    [180, 1.25],
    [240, 0.55],
    [480, 1.06],
    [240, 0.55],
    [20, 2.4],
    [240, 0.55],
  ];
  let at = 600;
  for (const [seconds, share] of blocks) {
    if (at + seconds > power.length - 300) return;
    for (let t = at; t < at + seconds; t++)
      power[t] = Math.round(share * ftpW + ((power[t]! % 9) - 4));
    at += seconds;
  }
}
