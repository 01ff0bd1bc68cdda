// What a share link shows, and the rider's privacy zones. Hidden parts are removed here, on
// the server: no reply of a share link carries a position inside a zone or within the
// trimmed start and end, nor heart rate or power a rider does not show.
import { createHash } from 'node:crypto';
import type { SharedWorkout } from '@xoss/api-contract';
import { sportTypes } from '@xoss/activity-files';
import { formatDuration, formatFieldValue } from '@xoss/data-fields';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@xoss/api-contract';
import { ApiError, notFound, SerializedData } from '../http/envelope.ts';
import { route } from '../http/route.ts';
import type { Services } from '../services.ts';
import {
  sharedStreams,
  sharedSummary,
  visibilityOf,
  type Privacy,
  type Visibility,
} from '../share/privacy.ts';
import { cachedPreview, keepPreview } from '../share/previewCache.ts';
import {
  sharedViewRow,
  deletePrivacyZone,
  insertPrivacyZone,
  MAX_PRIVACY_ZONES,
  privacyZones,
  sharedWorkoutId,
  type ZoneRow,
} from '../share/store.ts';
import { readStreams } from '../rides/streams.ts';
import { rangeReply, choicesOf, streamsFrom, summaryReply, zonesOf } from '../rides/replies.ts';

const zoneReply = (row: ZoneRow) => ({
  id: row.id,
  name: row.name,
  latitude: row.latitude,
  longitude: row.longitude,
  radius_m: row.radius_m,
});

/** A rider's privacy settings (the trim, 300 m unless set, and the zones). */
function privacyFrom(
  trimM: number | null | undefined,
  zones: readonly { latitude: number; longitude: number; radius_m: number }[],
): Privacy {
  return {
    trimM: trimM ?? 300,
    zones: zones.map((zone) => ({
      latitude: zone.latitude,
      longitude: zone.longitude,
      radiusM: zone.radius_m,
    })),
  };
}

/**
 * Everything a share link's replies are made from, privacy applied once; the ride and what
 * they need of its rider come in one query (`sharedViewRow`).
 */
async function sharedView(services: Services, shareId: string) {
  const found = await sharedViewRow(services.db, shareId);
  if (!found) throw notFound('Shared workout');
  const {
    owner_trim_m: trimM,
    owner_share_heart_rate: riderHeartRate,
    owner_share_power: riderPower,
    owner_username: riderName,
    owner_zones: zoneRows,
    streams_stamp: stamp,
    ...row
  } = found;
  // JSON arrives parsed from both databases' drivers; a string is parsed here all the same.
  const zones = (typeof zoneRows === 'string' ? JSON.parse(zoneRows) : zoneRows) as {
    latitude: number;
    longitude: number;
    radius_m: number;
  }[];
  const privacy = privacyFrom(trimM, zones);
  const shows = choicesOf(row, {
    share_heart_rate: riderHeartRate,
    share_power: riderPower,
  });
  const streams = (await readStreams(services, row.id, stamp)) ?? {};
  const visibility = await visibilityOf(streams, privacy);
  return {
    row,
    privacy,
    shows,
    streams,
    visibility,
    riderName: riderName ?? '',
  };
}

async function sharedReply(
  services: Services,
  view: Awaited<ReturnType<typeof sharedView>>,
): Promise<SharedWorkout> {
  const { row, privacy, shows, streams, visibility } = view;
  const { riderName } = view;
  const zones = await zonesOf(services, row);
  const hasTrack = streams.latitude !== undefined;
  return {
    name: row.name,
    sport_type: row.sport_type,
    start_time: new Date(row.start_time).toISOString(),
    indoor: row.indoor,
    rider: { display_name: riderName },
    summary: sharedSummary(summaryReply(row.summary, row.device_summary, row.ftp_source), shows),
    hr_zones: shows.heartRate ? zones.hr_zones : [],
    power_zones: shows.power ? zones.power_zones : [],
    ftp: shows.power ? zones.ftp : null,
    max_hr: shows.heartRate ? zones.max_hr : null,
    bounds: visibility.bounds,
    shows: { heart_rate: shows.heartRate, power: shows.power },
    privacy: {
      hidden_start_m: hasTrack ? privacy.trimM : 0,
      hidden_end_m: hasTrack ? privacy.trimM : 0,
      zones_applied: hasTrack && privacy.zones.length > 0,
    },
  };
}

function fingerprintOf(view: Awaited<ReturnType<typeof sharedView>>, reply: SharedWorkout) {
  return createHash('sha256')
    .update(JSON.stringify([view.row.id, reply, view.privacy]))
    .digest('base64url');
}

const CARD_UNITS = { distanceUnit: 0, temperatureUnit: 'c' } as const;
/** A figure of the card as a bike computer's field shows it (km: crawlers know no rider). */
const figureOf = (field: 'Distance' | 'Elevation', value: number) => {
  const { text, unit } = formatFieldValue(field, value, CARD_UNITS, 'en-GB');
  return `${text} ${unit}`;
};

/** The words of a preview card (title, description) in English: crawlers send no language. */
function cardText(reply: SharedWorkout) {
  const date = new Date(reply.start_time).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const sport = sportTypes[reply.sport_type] ?? 'Ride';
  const figures = [
    ...(reply.summary.distance_m !== null
      ? [{ label: 'Distance', value: figureOf('Distance', reply.summary.distance_m) }]
      : []),
    { label: 'Time', value: formatDuration(reply.summary.timer_time_s) },
    ...(reply.summary.elevation_gain_m !== null
      ? [{ label: 'Climbing', value: figureOf('Elevation', reply.summary.elevation_gain_m) }]
      : []),
  ];
  return {
    title: reply.name,
    subtitle: [reply.rider.display_name, date, sport].filter(Boolean).join(' · '),
    figures,
    description: `${[reply.rider.display_name, date, sport].filter(Boolean).join(' · ')}: ${figures.map((figure) => `${figure.label} ${figure.value}`).join(', ')}`,
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

/** A share page: `ride` (the link riders copy) or, in older links, the ride's id. */
const SHARE_PAGE = /^\/dashboard\/workouts\/share\/(\d+|ride)\/?$/;
const SHARE_ID = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The Open Graph and Twitter card tags of a share page (`/dashboard/workouts/share/{id}
 * ?share=…`), for the chat apps that fetch a pasted link; `undefined` for any other page or
 * a link whose sharing is off.
 */
export async function shareCardTags(
  services: Services,
  url: string,
  origin: string,
): Promise<string | undefined> {
  const parsed = new URL(url, 'http://x');
  const shareId = parsed.searchParams.get('share');
  if (!SHARE_PAGE.test(parsed.pathname) || !shareId || !SHARE_ID.test(shareId)) return undefined;
  if ((await sharedWorkoutId(services.db, shareId)) === undefined) return undefined;
  const reply = await sharedReply(services, await sharedView(services, shareId));
  const text = cardText(reply);
  const image = `${origin}/api/v2/share/workouts/${shareId}/preview.png`;
  // The canonical address names the share only, never the ride's internal id.
  const page = `${origin}/dashboard/workouts/share/ride?share=${shareId}`;
  const tags: [string, string, string][] = [
    ['property', 'og:type', 'article'],
    ['property', 'og:site_name', 'XOSS'],
    ['property', 'og:title', text.title],
    ['property', 'og:description', text.description],
    ['property', 'og:url', page],
    ['property', 'og:image', image],
    ['property', 'og:image:width', '1200'],
    ['property', 'og:image:height', '630'],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', text.title],
    ['name', 'twitter:description', text.description],
    ['name', 'twitter:image', image],
  ];
  return tags
    .map(([kind, key, value]) => `<meta ${kind}="${key}" content="${escapeHtml(value)}">`)
    .join('');
}

/** Share links' streams replies, by the visibility they were made under and the question. */
const streamReplies = new WeakMap<Visibility, Map<string, SerializedData>>();

export function shareRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  route(app, services, 'sharedWorkout', async ({ params }) =>
    sharedReply(services, await sharedView(services, params.share_id)),
  );

  route(app, services, 'sharedWorkoutStreams', async ({ params, query }) => {
    const view = await sharedView(services, params.share_id);
    if (!view.streams.time) return { length: 0, streams: {} };
    // A link is opened by many visitors asking the same: each reply is kept, written as
    // JSON, with the ride's visibility (so a change of privacy or of the ride makes new ones).
    let replies = streamReplies.get(view.visibility);
    if (!replies) streamReplies.set(view.visibility, (replies = new Map<string, SerializedData>()));
    const key = JSON.stringify([view.shows, query]);
    let reply = replies.get(key);
    if (!reply) {
      // Times stay counted from the ride's start, as the range endpoint counts them.
      const { streams, withheld } = sharedStreams(view.streams, view.visibility, view.shows);
      reply = new SerializedData(
        streamsFrom(streams, query, { origin: view.streams.time[0]!, withheld }),
      );
      replies.set(key, reply);
      while (replies.size > 8) replies.delete(replies.keys().next().value!);
    }
    return reply;
  });

  route(app, services, 'sharedWorkoutRange', async ({ params, query }) => {
    const view = await sharedView(services, params.share_id);
    const { time } = view.streams;
    // Only within what the link shows: the trimmed start and end are no range's part.
    const { first, last } = view.visibility;
    const shown =
      time && first <= last ? [time[first]! - time[0]!, time[last]! - time[0]!] : [0, 0];
    const from = Math.max(query.from, shown[0]!);
    const to = Math.max(from, Math.min(query.to, shown[1]!));
    const range = await rangeReply(services, view.row, from, to);
    return {
      ...range,
      from_s: query.from,
      to_s: query.to,
      summary: sharedSummary(range.summary, view.shows),
    };
  });

  route(app, services, 'sharedWorkoutPreview', async ({ params, request, reply }) => {
    const view = await sharedView(services, params.share_id);
    const shared = await sharedReply(services, view);
    const fingerprint = fingerprintOf(view, shared);
    // Revalidated on every use (never kept by a shared cache): a stopped share's picture is
    // gone at once, while a browser that has it gets a 304.
    reply.header('cache-control', 'private, no-cache').header('etag', `"${fingerprint}"`);
    if (request.headers['if-none-match'] === `"${fingerprint}"`) return reply.status(304).send();
    let png = cachedPreview(params.share_id, fingerprint);
    if (!png) {
      // The renderer (and its font) loads on the first picture, not at start-up.
      const { renderPreview } = await import('../share/preview.ts');
      const text = cardText(shared);
      png = await renderPreview({
        title: text.title,
        subtitle: text.subtitle,
        figures: text.figures,
        segments: view.visibility.segments,
      });
      keepPreview(params.share_id, fingerprint, png);
    }
    return reply.header('content-type', 'image/png').send(Buffer.from(png));
  });

  route(app, services, 'listPrivacyZones', async ({ userId }) =>
    (await privacyZones(db, userId)).map(zoneReply),
  );

  route(app, services, 'createPrivacyZone', async ({ userId, body, reply }) => {
    const row = await insertPrivacyZone(db, userId, body);
    if (!row)
      throw new ApiError(
        ErrorCode.ValidationFailed,
        `A rider may keep at most ${MAX_PRIVACY_ZONES} privacy zones; delete one to add another`,
      );
    reply.status(201);
    return zoneReply(row);
  });

  route(app, services, 'deletePrivacyZone', async ({ userId, params }) => {
    if (!(await deletePrivacyZone(db, userId, params.id))) throw notFound('Privacy zone');
    return {};
  });
}
