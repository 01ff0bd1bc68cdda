import type { DecodeResult } from '../errors.ts';
import { XmlReader, decimal, readXmlDocument, type XmlLimits } from '../xml/reader.ts';

/** Limits of `parseTcx`; each is checked while reading, so no input can exhaust them. */
export interface TcxLimits extends Partial<XmlLimits> {
  /** Largest input in bytes (UTF-8), checked before parsing. Default 64 MiB. */
  readonly maxBytes?: number;
  /** Most trackpoints. Default 2,000,000. */
  readonly maxPoints?: number;
}

/** Trackpoints as columns (NaN = absent): Unix seconds, degrees, metres, bpm, rpm, m/s, W. */
export interface TcxPoints {
  readonly length: number;
  readonly time: Float64Array;
  readonly latitude: Float64Array;
  readonly longitude: Float64Array;
  readonly altitude: Float64Array;
  readonly distance: Float64Array;
  readonly heartRate: Float64Array;
  readonly cadence: Float64Array;
  readonly speed: Float64Array;
  readonly power: Float64Array;
}

/** A lap as the device summed it up. */
export interface TcxLap {
  /** Unix seconds. */
  readonly startTime: number;
  readonly totalTimeS?: number;
  readonly distanceM?: number;
  readonly calories?: number;
  readonly maxSpeedMs?: number;
  readonly avgHeartRate?: number;
  readonly maxHeartRate?: number;
}

/** A Training Center activity (the first in the file) or course. */
export interface TcxActivity {
  /** `Biking`, `Running` or `Other` for activities; `Course` for a course. */
  readonly sport: string;
  readonly points: TcxPoints;
  readonly laps: readonly TcxLap[];
  /**
   * Index of the first trackpoint of each `<Track>`: Garmin devices start a new track when
   * the timer is paused, so a track is a stretch of running timer.
   */
  readonly tracks: readonly number[];
  /** The device that recorded it, when named (`Creator/Name`). */
  readonly creator?: string;
  /**
   * How many activities (or courses) the file holds: only the first is read here;
   * `tcxRecordings` gives each as a file of its own.
   */
  readonly activityCount: number;
}

const DEFAULTS = {
  maxBytes: 64 * 1024 * 1024,
  maxDepth: 32,
  maxAttributes: 256,
  maxAttributeLength: 1024 * 1024,
  maxTextLength: 1024 * 1024,
  maxPoints: 2_000_000,
  timeBudgetMs: 2000,
};

const COLUMNS = [
  'time',
  'latitude',
  'longitude',
  'altitude',
  'distance',
  'heartRate',
  'cadence',
  'speed',
  'power',
] as const;
type Column = (typeof COLUMNS)[number];

const TEXT_ELEMENTS = new Set([
  'Time',
  'LatitudeDegrees',
  'LongitudeDegrees',
  'AltitudeMeters',
  'DistanceMeters',
  'Value',
  'Cadence',
  'RunCadence',
  'Speed',
  'Watts',
  'TotalTimeSeconds',
  'Calories',
  'MaximumSpeed',
  'Name',
]);

class TcxReader extends XmlReader<'tcx'> {
  private readonly maxPoints: number;
  private length = 0;
  private capacity = 1024;
  private readonly columns = Object.fromEntries(
    COLUMNS.map((name) => [name, new Float64Array(1024).fill(Number.NaN)]),
  ) as Record<Column, Float64Array>;
  private readonly laps: TcxLap[] = [];
  private readonly tracks: number[] = [];
  private lap: { -readonly [K in keyof TcxLap]: TcxLap[K] } | undefined;
  private sport: string | undefined;
  private activities = 0;
  // Where each activity's element starts ("<") and ends (after ">"), in the text.
  readonly spans: { start: number; end: number }[] = [];
  private inPoint = false;
  private creator: string | undefined;

  constructor(text: string, limits: typeof DEFAULTS) {
    super(text, limits, 'tcx', 'TrainingCenterDatabase', TEXT_ELEMENTS);
    this.maxPoints = limits.maxPoints;
  }

  read(): TcxActivity {
    this.readXml();
    if (this.sport === undefined)
      this.fail('noActivity', 'The file holds no activity or course', this.text.length);
    const points = {} as Record<Column, Float64Array>;
    for (const name of COLUMNS) points[name] = this.columns[name].slice(0, this.length);
    if (this.length === 0)
      this.fail('noPoints', 'The activity has no trackpoints', this.text.length);
    return {
      sport: this.sport,
      points: { length: this.length, ...points },
      laps: this.laps,
      tracks: this.tracks.filter((start) => start < this.length),
      ...(this.creator !== undefined ? { creator: this.creator } : {}),
      activityCount: this.activities,
    };
  }

  // Only the first activity (or course) of a file is read; later ones are ignored.
  private get reading(): boolean {
    return this.activities === 1;
  }

  // The element enclosing the one whose text is read (it has left the stack), `level` up.
  private parent(level = 0): string {
    const name = this.stack[this.stack.length - 1 - level];
    if (name === undefined) return '';
    const colon = name.indexOf(':');
    return colon === -1 ? name : name.slice(colon + 1);
  }

  protected startElement(name: string, attributes: Map<string, string>, offset: number): void {
    if (name === 'Activity' || name === 'Course') {
      this.activities++;
      this.spans.push({ start: offset, end: this.text.length });
      if (this.reading)
        this.sport = name === 'Course' ? 'Course' : (attributes.get('Sport') ?? 'Other');
    } else if (!this.reading) {
      return;
    } else if (name === 'Track') {
      if (this.tracks[this.tracks.length - 1] !== this.length) this.tracks.push(this.length);
    } else if (name === 'Lap') {
      const start = Date.parse(attributes.get('StartTime') ?? '');
      this.lap = { startTime: Number.isNaN(start) ? Number.NaN : start / 1000 };
    } else if (name === 'Trackpoint') {
      if (this.inPoint) this.fail('malformed', '<Trackpoint> inside another', offset);
      if (this.length >= this.maxPoints)
        this.fail('tooManyPoints', `More than ${this.maxPoints} trackpoints`, offset);
      if (this.length === this.capacity) this.grow();
      this.inPoint = true;
      this.length++;
    }
  }

  private grow(): void {
    this.capacity *= 2;
    for (const name of COLUMNS) {
      const grown = new Float64Array(this.capacity).fill(Number.NaN);
      grown.set(this.columns[name]);
      this.columns[name] = grown;
    }
  }

  protected endElement(name: string, offset: number): void {
    if (name === 'Activity' || name === 'Course') {
      const span = this.spans[this.spans.length - 1];
      if (span) span.end = this.text.indexOf('>', offset) + 1;
    }
    if (!this.reading) return;
    if (name === 'Trackpoint') this.inPoint = false;
    else if (name === 'Lap' && this.lap) {
      this.laps.push(this.lap);
      this.lap = undefined;
    }
  }

  protected textOf(name: string, value: string, offset: number): void {
    if (value === '') return;
    if (name === 'Name') {
      if (this.parent() === 'Creator') this.creator ??= value;
      return;
    }
    if (!this.reading) return;
    const number = () => {
      const parsed = decimal(value);
      if (parsed === undefined)
        this.fail('badNumber', `<${name}> "${value.slice(0, 20)}" is not a number`, offset);
      return parsed;
    };
    if (this.inPoint) {
      const row = this.length - 1;
      const set = (column: Column, parsed: number) => {
        this.columns[column][row] = parsed;
      };
      switch (name) {
        case 'Time': {
          const ms = Date.parse(value);
          if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(ms))
            this.fail(
              'badTime',
              `<Time> "${value.slice(0, 30)}" is not an ISO 8601 date and time`,
              offset,
            );
          set('time', ms / 1000);
          return;
        }
        case 'LatitudeDegrees': {
          const lat = number();
          if (lat < -90 || lat > 90)
            this.fail('badCoordinate', `Latitude ${lat} is not from -90 to 90`, offset);
          set('latitude', lat);
          return;
        }
        case 'LongitudeDegrees': {
          const lon = number();
          if (lon < -180 || lon > 180)
            this.fail('badCoordinate', `Longitude ${lon} is not from -180 to 180`, offset);
          set('longitude', lon);
          return;
        }
        case 'AltitudeMeters':
          set('altitude', number());
          return;
        case 'DistanceMeters':
          set('distance', number());
          return;
        case 'Value':
          if (this.parent() === 'HeartRateBpm') set('heartRate', number());
          return;
        case 'Cadence':
        case 'RunCadence':
          set('cadence', number());
          return;
        case 'Speed':
          set('speed', number());
          return;
        case 'Watts':
          set('power', number());
          return;
        default:
          return;
      }
    }
    const lap = this.lap;
    if (!lap || this.parent() !== 'Lap') {
      if (lap && name === 'Value' && this.parent(1) === 'Lap') {
        if (this.parent() === 'AverageHeartRateBpm') lap.avgHeartRate = number();
        else if (this.parent() === 'MaximumHeartRateBpm') lap.maxHeartRate = number();
      }
      return;
    }
    switch (name) {
      case 'TotalTimeSeconds':
        lap.totalTimeS = number();
        return;
      case 'DistanceMeters':
        lap.distanceM = number();
        return;
      case 'Calories':
        lap.calories = number();
        return;
      case 'MaximumSpeed':
        lap.maxSpeedMs = number();
        return;
      default:
        return;
    }
  }
}

/**
 * Parses a Garmin Training Center (TCX) file: the first activity (or course) with its
 * trackpoints (time, position, altitude, distance, heart rate, cadence, and the
 * ActivityExtension's speed and watts) and the laps the device summed up.
 *
 * @remarks
 * As hardened as `parseGpx` (same XML reader): size cap first, no DTD or entities beyond
 * XML's five, limited depth, attributes and text, a point cap and a time budget. Errors
 * carry a line and column. Never throws.
 */
export function parseTcx(
  input: string | Uint8Array,
  limits: TcxLimits = {},
): DecodeResult<TcxActivity> {
  const settings = { ...DEFAULTS, ...limits };
  return readXmlDocument(input, 'tcx', settings.maxBytes, (text) =>
    new TcxReader(text, settings).read(),
  );
}

/**
 * Each activity of a Training Center file as a file of its own (the text before the first
 * activity and after the last one around each), in the file's order; the bytes themselves
 * when it holds one, or cannot be read (`parseTcx` says why).
 *
 * @example
 * const [first, ...others] = tcxRecordings(bytes); // others: [] for one activity
 */
export function tcxRecordings(input: Uint8Array, limits: TcxLimits = {}): Uint8Array[] {
  const settings = { ...DEFAULTS, ...limits };
  let texts: string[] = [];
  readXmlDocument(input, 'tcx', settings.maxBytes, (text) => {
    const reader = new TcxReader(text, settings);
    reader.read();
    const { spans } = reader;
    if (spans.length > 1) {
      const before = text.slice(0, spans[0]!.start);
      const after = text.slice(spans[spans.length - 1]!.end);
      texts = spans.map((span) => before + text.slice(span.start, span.end) + after);
    }
    return reader;
  });
  if (texts.length < 2) return [input];
  const encoder = new TextEncoder();
  return texts.map((text) => encoder.encode(text));
}
