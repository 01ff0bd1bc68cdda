import type { WorkoutDetail } from '@xoss/api-contract';
import { haversineMetres } from '@xoss/workout-stats';
import type { StoredStreams } from '../workouts/analyse.ts';

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

/**
 * Which samples' positions a shared ride must not show: those within `trimM` of the start
 * or the end (metres along the track as the map draws it) and those inside a privacy zone.
 * A ride shorter than twice the trim shows no position at all.
 */
export function hiddenPositions(streams: StoredStreams, privacy: Privacy): Uint8Array {
  const { latitude, longitude } = streams;
  const n = streams.time?.length ?? 0;
  const hidden = new Uint8Array(n);
  if (!latitude || !longitude) return hidden;
  const along = new Float64Array(n).fill(Number.NaN);
  let metres = 0;
  let previous = -1;
  for (let i = 0; i < n; i++) {
    const lat = latitude[i]!;
    const lon = longitude[i]!;
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) continue;
    if (previous >= 0)
      metres += haversineMetres(latitude[previous]!, longitude[previous]!, lat, lon);
    along[i] = metres;
    previous = i;
  }
  const total = metres;
  for (let i = 0; i < n; i++) {
    const at = along[i]!;
    if (Number.isNaN(at)) continue;
    if (at < privacy.trimM || total - at < privacy.trimM) {
      hidden[i] = 1;
      continue;
    }
    for (const zone of privacy.zones)
      if (
        haversineMetres(zone.latitude, zone.longitude, latitude[i]!, longitude[i]!) <= zone.radiusM
      ) {
        hidden[i] = 1;
        break;
      }
  }
  return hidden;
}

/** The streams a share link sends: hidden positions removed, unshown channels left out. */
export function sharedStreams(
  streams: StoredStreams,
  hidden: Uint8Array,
  shows: { readonly heartRate: boolean; readonly power: boolean },
): StoredStreams {
  const out: StoredStreams = {};
  for (const [name, column] of Object.entries(streams)) {
    if (!shows.heartRate && name === 'heart_rate') continue;
    if (!shows.power && POWER_STREAMS.has(name)) continue;
    if (name === 'latitude' || name === 'longitude')
      out[name] = column.map((value, i) => (hidden[i] ? Number.NaN : value));
    else out[name] = column;
  }
  return out;
}

const POWER_STREAMS = new Set(['power', 'lr_balance', 'torque_effectiveness', 'pedal_smoothness']);

/** A summary without the heart rate or power figures a rider does not show. */
export function sharedSummary(
  summary: WorkoutDetail['summary'],
  shows: { readonly heartRate: boolean; readonly power: boolean },
): WorkoutDetail['summary'] {
  return {
    ...summary,
    ...(shows.heartRate ? {} : { hr_avg: null, hr_max: null }),
    ...(shows.power
      ? {}
      : {
          power_avg: null,
          power_max: null,
          np: null,
          if: null,
          tss: null,
          np_source: null,
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

/** The segments of visible positions, for a preview picture. */
export function visibleSegments(streams: StoredStreams, hidden: Uint8Array): [number, number][][] {
  const { latitude, longitude } = streams;
  if (!latitude || !longitude) return [];
  const segments: [number, number][][] = [];
  let current: [number, number][] = [];
  for (let i = 0; i < latitude.length; i++) {
    const lat = latitude[i]!;
    const lon = longitude[i]!;
    if (hidden[i] || !Number.isFinite(lat) || !Number.isFinite(lon)) {
      if (current.length > 1) segments.push(current);
      current = [];
      continue;
    }
    current.push([lat, lon]);
  }
  if (current.length > 1) segments.push(current);
  return segments;
}
