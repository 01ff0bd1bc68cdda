import type { BlobStore } from '../platform/blobStore.ts';
import type { Queryable } from '../platform/db/db.ts';
import type { StoredStreams } from '../analysis/series.ts';

// Streams are stored as one block of bytes (a file of the file store, `streams/<uuid>.bin`;
// rides stored before that, a bytea of their row): a 4-byte little-endian header length, a
// JSON header `{ length, names }`, padding to 8 bytes, then each column's Float64 values.

export function packStreams(streams: StoredStreams): Uint8Array {
  const names = Object.keys(streams);
  const length = streams.time?.length ?? 0;
  const header = new TextEncoder().encode(JSON.stringify({ length, names }));
  const dataStart = Math.ceil((4 + header.length) / 8) * 8;
  const bytes = new Uint8Array(dataStart + names.length * length * 8);
  new DataView(bytes.buffer).setUint32(0, header.length, true);
  bytes.set(header, 4);
  names.forEach((name, index) => {
    const column = streams[name]!;
    bytes.set(
      new Uint8Array(column.buffer, column.byteOffset, length * 8),
      dataStart + index * length * 8,
    );
  });
  return bytes;
}

/** Streams above this size live in shared memory: the figures worker reads them in place. */
const SHARED_BYTES = 1024 * 1024;

export function unpackStreams(stored: Uint8Array): StoredStreams {
  // Aligned and owned; shared with workers when large (`AnalysisPool.figures`).
  const copy =
    stored.byteLength > SHARED_BYTES
      ? new Uint8Array(new SharedArrayBuffer(stored.byteLength))
      : new Uint8Array(stored.byteLength);
  copy.set(stored);
  const headerLength = new DataView(copy.buffer).getUint32(0, true);
  const { length, names } = JSON.parse(
    new TextDecoder().decode(copy.subarray(4, 4 + headerLength)),
  ) as {
    length: number;
    names: string[];
  };
  const dataStart = Math.ceil((4 + headerLength) / 8) * 8;
  const streams: StoredStreams = {};
  names.forEach((name, index) => {
    streams[name] = new Float64Array(copy.buffer, dataStart + index * length * 8, length);
  });
  return streams;
}

export const packCurve = (curve: Float64Array | null) =>
  curve ? new Uint8Array(curve.buffer, curve.byteOffset, curve.byteLength) : null;

export const unpackCurve = (stored: Uint8Array | null): Float64Array | null =>
  stored ? new Float64Array(new Uint8Array(stored).buffer) : null;

/**
 * A workout's streams never change after import, and the ride page reads them on every
 * visit (a shared ride, many times): each database keeps its most recently read streams in
 * memory, up to a byte budget, so a visit costs no database read of a few megabytes. Each
 * entry keeps the version of the row it was read from (`xmin`, the transaction that wrote
 * it), and every read checks it with one small query: a ride deleted or its streams
 * rewritten by any process is never served from another process's memory.
 */
export class StreamsCache {
  readonly #budget: number;
  #bytes = 0;
  readonly #entries = new Map<
    number,
    { streams: StoredStreams; bytes: number; stamp: string | undefined }
  >();

  constructor(budgetBytes: number) {
    this.#budget = budgetBytes;
  }

  get(workoutId: number): StoredStreams | undefined {
    const entry = this.#entries.get(workoutId);
    if (!entry) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.#entries.delete(workoutId);
    this.#entries.set(workoutId, entry);
    return entry.streams;
  }

  /** The version of the row an entry was read from. */
  stampOf(workoutId: number): string | undefined {
    return this.#entries.get(workoutId)?.stamp;
  }

  set(workoutId: number, streams: StoredStreams, stamp?: string): void {
    const bytes = Object.values(streams).reduce((sum, column) => sum + column.byteLength, 0);
    if (bytes > this.#budget) return;
    this.delete(workoutId);
    this.#entries.set(workoutId, { streams, bytes, stamp });
    this.#bytes += bytes;
    for (const [id, entry] of this.#entries) {
      if (this.#bytes <= this.#budget) break;
      this.#entries.delete(id);
      this.#bytes -= entry.bytes;
    }
  }

  delete(workoutId: number): void {
    const entry = this.#entries.get(workoutId);
    if (!entry) return;
    this.#entries.delete(workoutId);
    this.#bytes -= entry.bytes;
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** Per database: a test's databases reuse ids, so one cache for all would mix them up. */
const caches = new WeakMap<object, StreamsCache>();
/** About twenty ten-hour rides. */
const STREAMS_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * A workout's streams (read-only: the arrays are shared between requests); `undefined`
 * when it has none.
 */
export async function readStreams(
  source: { readonly db: Queryable; readonly blobs: BlobStore },
  workoutId: number,
  /** The row's version (`xmin`) if the caller read it already; `null`: no streams row. */
  knownStamp?: string | null,
): Promise<StoredStreams | undefined> {
  const { db, blobs } = source;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new StreamsCache(STREAMS_CACHE_BYTES)));
  const cached = cache.get(workoutId);
  if (cached) {
    const [current] =
      knownStamp === undefined
        ? await db.query<{ stamp: string }>(
            'SELECT xmin::text AS stamp FROM workout_streams WHERE workout_id = $1',
            [workoutId],
          )
        : knownStamp === null
          ? []
          : [{ stamp: knownStamp }];
    if (current && current.stamp === cache.stampOf(workoutId)) return cached;
    cache.delete(workoutId);
    if (!current) return undefined;
  }
  // A ride not in memory that many requests ask for at once (a share link posted in a
  // club's chat) is read and unpacked once: each of them on its own would copy the whole
  // ride, and each copy would get its share visibility computed anew.
  let loading = inFlight.get(db);
  if (!loading) inFlight.set(db, (loading = new Map<number, Promise<StoredStreams | undefined>>()));
  const pending = loading.get(workoutId);
  if (pending) return pending;
  const load = loadStreams(db, blobs, cache, workoutId).finally(() => loading.delete(workoutId));
  loading.set(workoutId, load);
  return load;
}

/** Per database: the reads of streams under way, by workout. */
const inFlight = new WeakMap<object, Map<number, Promise<StoredStreams | undefined>>>();

async function loadStreams(
  db: Queryable,
  blobs: BlobStore,
  cache: StreamsCache,
  workoutId: number,
): Promise<StoredStreams | undefined> {
  const [stored] = await db.query<{
    data: Uint8Array | null;
    blob_key: string | null;
    stamp: string;
  }>('SELECT data, blob_key, xmin::text AS stamp FROM workout_streams WHERE workout_id = $1', [
    workoutId,
  ]);
  if (!stored) return undefined;
  // In the file store (rides stored since streams moved there), else in the row.
  const bytes = stored.blob_key ? await blobs.get(stored.blob_key) : stored.data;
  if (!bytes) return undefined;
  const streams = unpackStreams(bytes);
  cache.set(workoutId, streams, stored.stamp);
  return streams;
}

/** Drops a deleted workout's streams from its database's cache at once. */
export function forgetStreams(db: Queryable, workoutId: number): void {
  caches.get(db)?.delete(workoutId);
}

/** A ride's kept curves (one value a second of duration, read-only: shared between requests). */
export interface KeptCurves {
  readonly power: Float64Array | null;
  readonly speed: Float64Array | null;
  readonly heart_rate: Float64Array | null;
  readonly pace: Float64Array | null;
  /** Whether the heart-rate and pace curves were computed (`extra_at`), even if empty. */
  readonly extra: boolean;
}

const curveCaches = new WeakMap<object, StreamsCache>();
/** About forty curves of the largest legal ride (400,000 s, 3.2 MB each). */
const CURVES_CACHE_BYTES = 128 * 1024 * 1024;
/** Marks, in a cached entry, curves whose heart-rate and pace curves were computed. */
const EXTRA_MARK = 'extra';

/**
 * A workout's kept curves, `undefined` when it has none. A curve holds a value per second of
 * duration: the largest legal ride's four are 13 MB, which a read from the database took
 * 30-45 ms of every power-curve call. They change only when the ride is analysed again, so
 * each database keeps its recent ones in memory (as `readStreams` does), checked against
 * the row's version (`xmin`) by one small query on every read.
 */
export async function readCurves(
  db: Queryable,
  workoutId: number,
): Promise<KeptCurves | undefined> {
  let cache = curveCaches.get(db);
  if (!cache) curveCaches.set(db, (cache = new StreamsCache(CURVES_CACHE_BYTES)));
  const [current] = await db.query<{ stamp: string }>(
    'SELECT xmin::text AS stamp FROM workout_curves WHERE workout_id = $1',
    [workoutId],
  );
  if (!current) {
    cache.delete(workoutId);
    return undefined;
  }
  let kept = cache.stampOf(workoutId) === current.stamp ? cache.get(workoutId) : undefined;
  if (!kept) {
    const [row] = await db.query<{
      stamp: string;
      power: Uint8Array | null;
      speed: Uint8Array | null;
      heart_rate: Uint8Array | null;
      pace: Uint8Array | null;
      extra: boolean;
    }>(
      `SELECT xmin::text AS stamp, power, speed, heart_rate, pace, extra_at IS NOT NULL AS extra
         FROM workout_curves WHERE workout_id = $1`,
      [workoutId],
    );
    if (!row) return undefined;
    const entry: StoredStreams = {};
    for (const name of ['power', 'speed', 'heart_rate', 'pace'] as const) {
      const curve = unpackCurve(row[name]);
      if (curve) entry[name] = curve;
    }
    if (row.extra) entry[EXTRA_MARK] = new Float64Array(0);
    cache.set(workoutId, entry, row.stamp);
    kept = entry;
  }
  return {
    power: kept.power ?? null,
    speed: kept.speed ?? null,
    heart_rate: kept.heart_rate ?? null,
    pace: kept.pace ?? null,
    extra: kept[EXTRA_MARK] !== undefined,
  };
}
