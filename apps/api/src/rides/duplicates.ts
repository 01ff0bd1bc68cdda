// Whether an import is a ride the rider has already: the same file (its content's SHA-256),
// the same recording in another wrapping or format (its samples paired by time alike), or a ride that starts like
// one of theirs (one may be the other cut short). No HTTP.
import { ErrorCode } from '@xoss/api-contract';
import { ApiError } from '../http/envelope.ts';
import type { Services } from '../services.ts';
import { readStreams, unpackStreams } from './streams.ts';

/**
 * The same file imported again (byte for byte once unpacked): 409 naming the ride that
 * holds it, so the rider is taken there instead of getting a second copy.
 */
export async function refuseDuplicate(services: Services, userId: number, fileSha256: string) {
  const [existing] = await services.db.query<{ id: number; name: string }>(
    'SELECT id, name FROM workouts WHERE user_id = $1 AND file_sha256 = $2',
    [userId, fileSha256],
  );
  if (existing)
    throw new ApiError(
      ErrorCode.Conflict,
      `You have imported this file already: "${existing.name}"`,
      { errors: [{ path: 'file', message: 'workouts.duplicate' }], existingId: existing.id },
    );
}

/** Seconds apart two rides' starts may be and still be the same ride's. */
const SAME_START_S = 2;

/** Samples compared to tell that one ride is the start of another. */
const PREFIX_SAMPLES = 120;

/**
 * A ride that is the start of one of the rider's rides, or has one as its start: the same
 * start (within `SAME_START_S`) and the same first samples (time and every stream both
 * have), as a file copied while the device still wrote it, or cut short, is. Not the same
 * file (that is a duplicate), so it is not refused for good: 409 naming that ride, and the
 * rider chooses (`overlap=keep` imports it beside it; or they open that ride, delete it and
 * import this one). Checked before the import's transaction: it reads the other ride's
 * streams, and a race of two such uploads at once only keeps both.
 */
export async function refuseOverlap(
  services: Services,
  userId: number,
  start: Date,
  packed: Uint8Array,
): Promise<void> {
  const candidates = await services.db.query<{
    id: number;
    name: string;
    start_s: number;
    apart_s: number;
  }>(
    `SELECT id, name, extract(epoch FROM start_time)::float8 AS start_s,
            abs(extract(epoch FROM start_time - $2::timestamptz))::float8 AS apart_s
       FROM workouts
      WHERE user_id = $1 AND start_time BETWEEN $2::timestamptz - make_interval(secs => $3)
                                            AND $2::timestamptz + make_interval(secs => $3)
      ORDER BY apart_s, id LIMIT 20`,
    [userId, start, SAME_RECORDING_WINDOW_S],
  );
  if (candidates.length === 0) return;
  const ours = unpackStreams(packed);
  for (const candidate of candidates) {
    const theirs = await readStreams(services, candidate.id);
    if (!theirs) continue;
    // The same recording in another wrapping (a .fit.gz and its .fit, a service's TCX or
    // GPX of the same ride): already imported, not an overlap.
    if (sameRecording(ours, theirs, start.getTime() / 1000, candidate.start_s))
      throw new ApiError(
        ErrorCode.Conflict,
        `You have imported this ride already: "${candidate.name}"`,
        { errors: [{ path: 'file', message: 'workouts.duplicate' }], existingId: candidate.id },
      );
    if (candidate.apart_s > SAME_START_S || !samePrefix(ours, theirs)) continue;
    throw new ApiError(
      ErrorCode.Conflict,
      `This ride and "${candidate.name}" start alike: one may be the other cut short. Open it, or import this one beside it`,
      { errors: [{ path: 'file', message: 'workouts.overlap' }], existingId: candidate.id },
    );
  }
}

/**
 * How far two copies of one recording may differ per stream: what a conversion to TCX or
 * GPX rounds (positions to 1e-5 degrees or so, altitude and distance to the metre, speed to
 * centimetres a second), never what two rides differ by.
 */
const RECORDING_TOLERANCE: Readonly<Record<string, number>> = {
  time: 1,
  latitude: 1e-4,
  longitude: 1e-4,
  altitude: 1.5,
  distance: 5,
  speed: 0.1,
  heart_rate: 1,
  cadence: 1,
  power: 1,
  temperature: 1,
};

/**
 * A converted copy may start later than the recording (a GPX holds only the samples with a
 * position, so the seconds before the GPS fixed are not in it) or end earlier: two rides
 * starting up to this many seconds apart are compared sample by sample.
 */
const SAME_RECORDING_WINDOW_S = 900;

/**
 * Two samples are one when their times are this close (a conversion rounds to the second);
 * a whole second apart they are neighbours, not one sample.
 */
const PAIR_TOLERANCE_S = 0.5;

/**
 * Whether two rides are one recording, whatever a conversion dropped or rounded: samples are
 * paired by their time stamps (within half a second); at least 99 % of the shorter ride's samples have
 * a pair, the shorter holds at least 90 % of the longer's (a copy cut in half is no copy),
 * and over the pairs every stream both have (time and at least two more we know how to
 * compare) agrees within `RECORDING_TOLERANCE` at 99 % of them. A GPX of a FIT ride (its
 * heart rate and track, without its power or the samples before the GPS fixed) is the ride.
 * Stored times count from each ride's first sample: `startA` and `startB` (seconds since
 * the epoch) put them on one clock.
 */
export function sameRecording(
  a: Record<string, Float64Array>,
  b: Record<string, Float64Array>,
  startA = 0,
  startB = 0,
): boolean {
  const ta = a.time;
  const tb = b.time;
  const na = ta?.length ?? 0;
  const nb = tb?.length ?? 0;
  if (!ta || !tb || na < 2 || nb < 2) return false;
  if (Math.min(na, nb) < 0.9 * Math.max(na, nb)) return false;
  const shared = Object.keys(RECORDING_TOLERANCE).filter(
    (name) => name !== 'time' && a[name] && b[name],
  );
  if (shared.length < 2) return false;
  // Pairs by time stamp on one clock: a shifted clock pairs nothing.
  const left: number[] = [];
  const right: number[] = [];
  const shift = startA - startB;
  for (let i = 0, j = 0; i < na && j < nb;) {
    const gap = ta[i]! + shift - tb[j]!;
    if (Math.abs(gap) <= PAIR_TOLERANCE_S) {
      left.push(i++);
      right.push(j++);
    } else if (gap < 0) i++;
    else j++;
  }
  const pairs = left.length;
  if (pairs < 0.99 * Math.min(na, nb)) return false;
  for (const name of shared) {
    const x = a[name]!;
    const y = b[name]!;
    const tolerance = RECORDING_TOLERANCE[name]!;
    let differing = 0;
    for (let k = 0; k < pairs; k++) {
      const u = x[left[k]!]!;
      const v = y[right[k]!]!;
      const same = Number.isNaN(u) || Number.isNaN(v) ? true : Math.abs(u - v) <= tolerance;
      if (!same && ++differing > 0.01 * pairs) return false;
    }
  }
  return true;
}

/** Whether the shorter ride's first samples are the longer one's (time and shared streams). */
function samePrefix(a: Record<string, Float64Array>, b: Record<string, Float64Array>): boolean {
  const n = Math.min(a.time?.length ?? 0, b.time?.length ?? 0, PREFIX_SAMPLES);
  if (n < 2) return false;
  const shared = Object.keys(a).filter((name) => b[name] !== undefined);
  for (const name of shared) {
    const x = a[name]!;
    const y = b[name]!;
    for (let i = 0; i < n; i++) {
      const same = Number.isNaN(x[i]!) ? Number.isNaN(y[i]!) : Math.abs(x[i]! - y[i]!) < 1e-6;
      if (!same) return false;
    }
  }
  return shared.length > 1;
}
