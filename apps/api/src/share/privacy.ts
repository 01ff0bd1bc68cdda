import type { WorkoutDetail } from '@xoss/api-contract';
import type { StoredStreams } from '../analysis/series.ts';

/** A place inside which no shared ride shows its track. */
interface PrivacyZone {
  readonly latitude: number;
  readonly longitude: number;
  readonly radiusM: number;
}

/** What a rider keeps private on every shared ride. */
export interface Privacy {
  /** Metres of the start and of the end never shown. */
  readonly trimM: number;
  readonly zones: readonly PrivacyZone[];
}

/** What a share link may show of a ride's samples, computed once per ride and privacy. */
export interface Visibility {
  /** 1 where a sample's position, distance, speed and altitude are withheld. */
  readonly hidden: Uint8Array;
  /**
   * The first and last sample shown: everything before and after (the trimmed start and end)
   * is left out of every reply whole, time included. `first > last` when nothing is shown.
   */
  readonly first: number;
  readonly last: number;
  readonly bounds: { min_lat: number; min_lon: number; max_lat: number; max_lon: number } | null;
  /** The visible track, thinned to at most about `PREVIEW_POINTS` points, for the picture. */
  readonly segments: [number, number][][];
}

/** Samples examined between two turns of the event loop (a few milliseconds each). */
const SLICE = 20_000;
const PREVIEW_POINTS = 4_000;
const EARTH_RADIUS_M = 6_371_008.8;
const RADIANS = Math.PI / 180;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A circle on the ground tested without trigonometry per sample: the equirectangular
 * projection around its centre (at the radii here, at most 5 km, its error is under 0.05 %;
 * the radius is widened by 0.5 % so the error can only hide more).
 */
function circle(latitude: number, longitude: number, radiusM: number) {
  const scaleY = EARTH_RADIUS_M * RADIANS;
  const scaleX = scaleY * Math.cos(latitude * RADIANS);
  const r = radiusM * 1.005;
  const r2 = r * r;
  return (lat: number, lon: number) => {
    const dy = (lat - latitude) * scaleY;
    if (dy > r || dy < -r) return false;
    let dLon = lon - longitude;
    if (dLon > 180) dLon -= 360;
    else if (dLon < -180) dLon += 360;
    const dx = dLon * scaleX;
    return dx * dx + dy * dy <= r2;
  };
}

/**
 * Which samples a share link must not place: within `trimM` of the first or the last fix in a
 * straight line (GPS noise at the door adds distance along the track while standing still, so
 * the track alone does not measure it) or along the track, whichever hides more, anywhere in
 * the ride; samples before the first fix and after the last; and samples inside a privacy
 * zone. A ride shorter than twice the trim shows no position at all. Computed in slices of
 * `SLICE` samples with a turn of the event loop between them, so the largest ride never holds
 * up other requests.
 */
export async function computeVisibility(
  streams: StoredStreams,
  privacy: Privacy,
): Promise<Visibility> {
  const { latitude, longitude } = streams;
  const n = streams.time?.length ?? 0;
  const hidden = new Uint8Array(n);
  if (!latitude || !longitude || n === 0)
    return { hidden, first: 0, last: n - 1, bounds: null, segments: [] };
  const fixed = (i: number) => Number.isFinite(latitude[i]!) && Number.isFinite(longitude[i]!);
  let firstFix = 0;
  while (firstFix < n && !fixed(firstFix)) firstFix++;
  let lastFix = n - 1;
  while (lastFix >= 0 && !fixed(lastFix)) lastFix--;
  if (firstFix > lastFix) {
    hidden.fill(1);
    return { hidden, first: 0, last: n - 1, bounds: null, segments: [] };
  }
  // Metres along the track, from the equirectangular step of each pair of fixes.
  const along = new Float64Array(n);
  let metres = 0;
  let previous = firstFix;
  for (let from = firstFix; from <= lastFix; from += SLICE) {
    for (let i = from; i < Math.min(from + SLICE, lastFix + 1); i++) {
      if (!fixed(i)) continue;
      const dy = (latitude[i]! - latitude[previous]!) * RADIANS;
      const dx =
        (longitude[i]! - longitude[previous]!) * RADIANS * Math.cos(latitude[i]! * RADIANS);
      metres += EARTH_RADIUS_M * Math.sqrt(dx * dx + dy * dy);
      along[i] = metres;
      previous = i;
    }
    await nextTurn();
  }
  const total = metres;
  const trim = privacy.trimM;
  const places = [
    ...(trim > 0
      ? [
          circle(latitude[firstFix]!, longitude[firstFix]!, trim),
          circle(latitude[lastFix]!, longitude[lastFix]!, trim),
        ]
      : []),
    ...privacy.zones.map((zone) => circle(zone.latitude, zone.longitude, zone.radiusM)),
  ];
  let first = n;
  let last = -1;
  let minLat = Infinity,
    minLon = Infinity,
    maxLat = -Infinity,
    maxLon = -Infinity;
  for (let from = 0; from < n; from += SLICE) {
    for (let i = from; i < Math.min(from + SLICE, n); i++) {
      if (i < firstFix || i > lastFix) {
        hidden[i] = 1;
        continue;
      }
      if (!fixed(i)) continue;
      const lat = latitude[i]!;
      const lon = longitude[i]!;
      const at = along[i]!;
      let hide = at < trim || total - at < trim;
      for (let p = 0; !hide && p < places.length; p++) hide = places[p]!(lat, lon);
      if (hide) {
        hidden[i] = 1;
        continue;
      }
      if (first === n) first = i;
      last = i;
      if (lat < minLat) minLat = lat;
      if (lat > maxLat) maxLat = lat;
      if (lon < minLon) minLon = lon;
      if (lon > maxLon) maxLon = lon;
    }
    await nextTurn();
  }
  if (first > last) {
    // Nothing is shown: no sample carries position, distance or speed.
    hidden.fill(1);
    return { hidden, first: 0, last: n - 1, bounds: null, segments: [] };
  }
  // Samples without a fix between visible ones (a tunnel) stay; before and after, not.
  for (let i = 0; i < first; i++) hidden[i] = 1;
  for (let i = last + 1; i < n; i++) hidden[i] = 1;
  return {
    hidden,
    first,
    last,
    bounds: { min_lat: minLat, min_lon: minLon, max_lat: maxLat, max_lon: maxLon },
    segments: visibleSegments(streams, hidden, first, last),
  };
}

/** The visible stretches of track, every `step`-th point (and each stretch's ends) kept. */
function visibleSegments(
  streams: StoredStreams,
  hidden: Uint8Array,
  first: number,
  last: number,
): [number, number][][] {
  const latitude = streams.latitude!;
  const longitude = streams.longitude!;
  const step = Math.max(1, Math.ceil((last - first + 1) / PREVIEW_POINTS));
  const segments: [number, number][][] = [];
  let current: [number, number][] = [];
  const close = () => {
    if (current.length > 1) segments.push(current);
    current = [];
  };
  for (let i = first; i <= last; i++) {
    const lat = latitude[i]!;
    const lon = longitude[i]!;
    if (hidden[i] || !Number.isFinite(lat) || !Number.isFinite(lon)) {
      close();
      continue;
    }
    const end = i === last || hidden[i + 1] === 1;
    if (current.length === 0 || end || (i - first) % step === 0) current.push([lat, lon]);
  }
  close();
  return segments;
}

/** Per streams object (the cache of `readStreams` keeps one per ride version): by privacy. */
const visibilities = new WeakMap<StoredStreams, Map<string, Promise<Visibility>>>();

/**
 * The visibility of a ride under a rider's privacy, computed once per ride and privacy (a
 * zone added or removed, or the trim changed, is another key) and kept while its streams
 * are: every later share request, anonymous or not, costs a lookup.
 */
export function visibilityOf(streams: StoredStreams, privacy: Privacy): Promise<Visibility> {
  let byPrivacy = visibilities.get(streams);
  if (!byPrivacy) visibilities.set(streams, (byPrivacy = new Map<string, Promise<Visibility>>()));
  const key = JSON.stringify(privacy);
  let visibility = byPrivacy.get(key);
  if (!visibility) {
    visibility = computeVisibility(streams, privacy);
    byPrivacy.set(key, visibility);
    // A rider edits zones a few times: older keys of the same ride are dropped.
    while (byPrivacy.size > 4) byPrivacy.delete(byPrivacy.keys().next().value!);
  }
  return visibility;
}

/** What a hidden sample in the middle of a ride withholds: where it was and how far it went. */
const PLACING_STREAMS = new Set([
  'latitude',
  'longitude',
  'distance',
  'speed',
  'altitude',
  'grade',
]);

/** Samples whose values of some streams are withheld: `mask[i]` set, streams `names`. */
export interface Withheld {
  readonly mask: Uint8Array;
  readonly names: ReadonlySet<string>;
}

/**
 * The streams a share link sends: the trimmed start and end left out whole (views, no
 * copy), unshown channels left out, and which values the reply withholds: the position,
 * distance, speed, altitude and grade of hidden samples between them. They are withheld as
 * the reply is made (`streamsFrom`), after downsampling, so no full-size copy is blanked.
 */
export function sharedStreams(
  streams: StoredStreams,
  visibility: Visibility,
  shows: { readonly heartRate: boolean; readonly power: boolean },
): { streams: StoredStreams; withheld: Withheld } {
  const { hidden, first, last } = visibility;
  const out: StoredStreams = {};
  for (const [name, column] of Object.entries(streams)) {
    if (!shows.heartRate && BODY_STREAMS.has(name)) continue;
    if (!shows.power && POWER_STREAMS.has(name)) continue;
    out[name] = column.subarray(first, last + 1);
  }
  // Distance counts from the first point shown: the hidden start's length (how far the door
  // is from it) is not told.
  const distance = out.distance;
  if (distance) {
    let from = 0;
    while (from < distance.length && (hidden[first + from] || !Number.isFinite(distance[from]!)))
      from++;
    const offset = from < distance.length ? distance[from]! : (distance[0] ?? 0);
    out.distance = distance.map((value) => Math.max(0, value - offset));
  }
  return {
    streams: out,
    withheld: { mask: hidden.subarray(first, last + 1), names: PLACING_STREAMS },
  };
}

const POWER_STREAMS = new Set(['power', 'lr_balance', 'torque_effectiveness', 'pedal_smoothness']);
/**
 * What the body measured: a rider who does not show heart rate shows none of them (muscle
 * oxygen, SmO2 and total haemoglobin, is as personal as heart rate).
 */
const BODY_STREAMS = new Set(['heart_rate', 'smo2', 'thb']);

/** A summary without the heart rate or power figures a rider does not show. */
export function sharedSummary(
  summary: WorkoutDetail['summary'],
  shows: { readonly heartRate: boolean; readonly power: boolean },
): WorkoutDetail['summary'] {
  return {
    ...summary,
    ...(shows.heartRate
      ? {}
      : {
          hr_avg: null,
          hr_max: null,
          // A load scored from heart rate tells the heart rate.
          ...(summary.tss_method === 'heart_rate' ? { tss: null, tss_method: null } : {}),
        }),
    ...(shows.power
      ? {}
      : {
          power_avg: null,
          power_max: null,
          np: null,
          if: null,
          tss: null,
          np_source: null,
          tss_method: null,
          lr_balance_left: null,
          torque_effectiveness: null,
          pedal_smoothness: null,
          // Calories from power tell the work done; from the device or heart rate they stay.
          ...(summary.calories_source === 'power'
            ? { calories_kcal: null, calories_source: null }
            : {}),
        }),
  };
}
