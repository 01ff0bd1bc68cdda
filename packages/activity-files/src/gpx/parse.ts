import { elevationGainLoss, haversineMetres } from '@xoss/workout-stats';
import type { DecodeResult } from '../errors.ts';
import { XmlReader, decimal, localName, readXmlDocument } from '../xml/reader.ts';
import {
  CADENCE,
  ELEVATION,
  HEART_RATE,
  LATITUDE,
  LONGITUDE,
  POWER,
  SCRATCH_LENGTH,
  TAGS,
  TEMPERATURE,
  TIME,
  learnTemplate,
  matchTemplate,
  pointAt,
  scanPoint,
  type PointTemplate,
} from './fastPoint.ts';
import { simplifyLine } from './simplify.ts';
import { Columns } from './columns.ts';
import type { GpxLimits, GpxPart, GpxRoute, GpxWaypoint } from './types.ts';

// Limits are about resources (bytes, time, points, depth), not the shape of harmless
// content: Strava writes a long xsi:schemaLocation, apps write long descriptions.
const DEFAULTS = {
  maxBytes: 64 * 1024 * 1024,
  maxDepth: 32,
  maxAttributes: 256,
  maxAttributeLength: 1024 * 1024,
  maxTextLength: 1024 * 1024,
  maxPoints: 2_000_000,
  timeBudgetMs: 2000,
  simplifyToleranceM: 10,
};

// Elements whose text we keep, by local name.
const TEXT_ELEMENTS = new Set([
  'ele',
  'time',
  'name',
  'desc',
  'hr',
  'cad',
  'power',
  'PowerInWatts',
  'atemp',
  'temp',
]);

interface OpenPoint {
  kind: 'trkpt' | 'rtept' | 'wpt';
  latitude: number;
  longitude: number;
  elevation: number;
  time: number;
  heartRate: number;
  cadence: number;
  power: number;
  temperature: number;
  name?: string;
}

class GpxReader extends XmlReader<'gpx'> {
  private readonly maxPoints: number;
  private readonly simplifyToleranceM: number;
  private readonly columns = new Columns();
  private readonly parts: GpxPart[] = [];
  private readonly waypoints: GpxWaypoint[] = [];
  private point: OpenPoint | undefined;
  private partStart = -1;
  private partKind: 'track' | 'route' = 'track';
  private partName: string | undefined;
  private fileName: string | undefined;
  private fileDescription: string | undefined;
  private firstPartName: string | undefined;
  private firstPartDescription: string | undefined;
  // The fast path's values of one point, and where the next "&" is (-1: not looked for yet,
  // the text's length: none), so that a point with an entity goes to the general reader.
  private readonly scratch = new Float64Array(SCRATCH_LENGTH);
  private nextAmpersand = -1;
  private template: PointTemplate | undefined;

  /** Points read by the fast path (for the tests that hold it to the general reader). */
  fastPoints = 0;
  private readonly fast: boolean;

  constructor(text: string, limits: typeof DEFAULTS, fast = true) {
    super(text, limits, 'gpx', 'gpx', TEXT_ELEMENTS);
    this.maxPoints = limits.maxPoints;
    this.simplifyToleranceM = limits.simplifyToleranceM;
    this.fast = fast;
  }

  read(): GpxRoute {
    this.readXml();
    return this.result();
  }

  // Plain track and route points, which are nearly all of a file, go through the specialised
  // scanner (fastPoint.ts); one after another without returning to the general loop. Any
  // point it does not take is read by the general reader from the same place.
  protected override fastElement(open: number): number {
    if (!this.fast || this.point !== undefined) return -1;
    const { text, scratch } = this;
    let read = -1;
    let at = open;
    for (;;) {
      const kind = pointAt(text, at);
      if (kind === undefined) break;
      const depth = this.stack.length;
      const { template } = this;
      let end =
        template !== undefined && template.depth === depth
          ? matchTemplate(template, text, at, this.limits, scratch)
          : -1;
      if (end < 0) {
        end = scanPoint(text, at, depth, this.limits, scratch);
        if (end < 0) break;
        this.template = learnTemplate(text, at, end, depth, scratch[TAGS]!);
      }
      if (this.columns.length >= this.maxPoints) break;
      if (this.nextAmpersand < at) {
        const ampersand = text.indexOf('&', at);
        this.nextAmpersand = ampersand === -1 ? text.length : ampersand;
      }
      if (this.nextAmpersand < end) break;
      if (this.partStart < 0) this.startPart(kind);
      this.columns.push(
        scratch[LATITUDE]!,
        scratch[LONGITUDE]!,
        scratch[ELEVATION]!,
        scratch[TIME]!,
        scratch[HEART_RATE]!,
        scratch[CADENCE]!,
        scratch[POWER]!,
        scratch[TEMPERATURE]!,
      );
      this.countTags(scratch[TAGS]!, at);
      this.fastPoints++;
      read = end;
      at = end;
      for (let c = text.charCodeAt(at); c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;)
        c = text.charCodeAt(++at);
      if (text.charCodeAt(at) !== 0x3c /* < */) break;
    }
    return read;
  }

  protected startElement(name: string, attributes: Map<string, string>, offset: number): void {
    if (name === 'trkpt' || name === 'rtept' || name === 'wpt') {
      if (this.point) this.fail('malformed', `<${name}> inside another point`, offset);
      const latitude = decimal(attributes.get('lat'));
      const longitude = decimal(attributes.get('lon'));
      if (latitude === undefined || latitude < -90 || latitude > 90)
        this.fail(
          'badCoordinate',
          `Latitude "${(attributes.get('lat') ?? '').slice(0, 20)}" is not a number from -90 to 90`,
          offset,
        );
      if (longitude === undefined || longitude < -180 || longitude > 180)
        this.fail(
          'badCoordinate',
          `Longitude "${(attributes.get('lon') ?? '').slice(0, 20)}" is not a number from -180 to 180`,
          offset,
        );
      this.point = {
        kind: name,
        latitude,
        longitude,
        elevation: Number.NaN,
        time: Number.NaN,
        heartRate: Number.NaN,
        cadence: Number.NaN,
        power: Number.NaN,
        temperature: Number.NaN,
      };
      if (name !== 'wpt' && this.partStart < 0)
        this.startPart(name === 'trkpt' ? 'track' : 'route');
    } else if (name === 'trk' || name === 'rte') {
      this.partName = undefined;
      this.partKind = name === 'trk' ? 'track' : 'route';
    } else if (name === 'trkseg') {
      this.startPart('track');
    }
  }

  private startPart(kind: 'track' | 'route'): void {
    this.closePart();
    this.partKind = kind;
    this.partStart = this.columns.length;
  }

  private closePart(): void {
    if (this.partStart >= 0 && this.columns.length > this.partStart) {
      this.parts.push({
        kind: this.partKind,
        ...(this.partName !== undefined ? { name: this.partName } : {}),
        start: this.partStart,
        end: this.columns.length,
      });
    }
    this.partStart = -1;
  }

  protected endElement(name: string, offset: number): void {
    if ((name === 'trkpt' || name === 'rtept' || name === 'wpt') && this.point) {
      const p = this.point;
      this.point = undefined;
      if (p.kind === 'wpt') {
        this.waypoints.push({
          latitude: p.latitude,
          longitude: p.longitude,
          ...(Number.isNaN(p.elevation) ? {} : { elevation: p.elevation }),
          ...(p.name !== undefined ? { name: p.name } : {}),
        });
        return;
      }
      if (this.columns.length >= this.maxPoints)
        this.fail('tooManyPoints', `More than ${this.maxPoints} points`, offset);
      this.columns.push(
        p.latitude,
        p.longitude,
        p.elevation,
        p.time,
        p.heartRate,
        p.cadence,
        p.power,
        p.temperature,
      );
    } else if (name === 'trkseg' || name === 'rte') {
      this.closePart();
    } else if (name === 'trk') {
      this.closePart();
    }
  }

  protected textOf(name: string, value: string, offset: number): void {
    const point = this.point;
    const inside = this.stack[this.stack.length - 1];
    const parent = inside === undefined ? '' : localName(inside);
    if (name === 'name' || name === 'desc') {
      if (point) {
        if (name === 'name') point.name = value;
      } else if (parent === 'metadata' || parent === 'gpx') {
        if (name === 'name') this.fileName ??= value;
        else this.fileDescription ??= value;
      } else if (parent === 'trk' || parent === 'rte') {
        if (name === 'name') {
          this.partName = value;
          this.firstPartName ??= value;
        } else this.firstPartDescription ??= value;
      }
      return;
    }
    // An empty element (<ele></ele>, as some apps write) carries no value.
    if (!point || value === '') return;
    const number = (label: string) => {
      const parsed = decimal(value);
      if (parsed === undefined)
        this.fail('badNumber', `<${label}> "${value.slice(0, 20)}" is not a number`, offset);
      return parsed;
    };
    switch (name) {
      case 'ele':
        point.elevation = number('ele');
        break;
      case 'time': {
        const ms = Date.parse(value);
        if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(ms))
          this.fail(
            'badTime',
            `<time> "${value.slice(0, 30)}" is not an ISO 8601 date and time`,
            offset,
          );
        point.time = ms / 1000;
        break;
      }
      case 'hr':
        point.heartRate = number('hr');
        break;
      case 'cad':
        point.cadence = number('cad');
        break;
      case 'power':
      case 'PowerInWatts':
        point.power = number('power');
        break;
      default:
        point.temperature = number(name);
    }
  }

  private result(): GpxRoute {
    this.closePart();
    const points = this.columns.finish();
    if (points.length === 0)
      this.fail(
        this.waypoints.length > 0 ? 'onlyWaypoints' : 'noPoints',
        this.waypoints.length > 0
          ? `The file has only waypoints (${this.waypoints.length}), no track or route to follow`
          : 'The file has no track or route points',
        this.text.length,
      );
    let distanceM = 0;
    for (const part of this.parts) {
      for (let i = part.start + 1; i < part.end; i++)
        distanceM += haversineMetres(
          points.latitude[i - 1]!,
          points.longitude[i - 1]!,
          points.latitude[i]!,
          points.longitude[i]!,
        );
    }
    const { gain, loss } = elevationGainLoss(points.elevation);
    let minLatitude = 90;
    let maxLatitude = -90;
    let minLongitude = 180;
    let maxLongitude = -180;
    let hasTime = false;
    for (let i = 0; i < points.length; i++) {
      const lat = points.latitude[i]!;
      const lon = points.longitude[i]!;
      if (lat < minLatitude) minLatitude = lat;
      if (lat > maxLatitude) maxLatitude = lat;
      if (lon < minLongitude) minLongitude = lon;
      if (lon > maxLongitude) maxLongitude = lon;
      if (!hasTime && !Number.isNaN(points.time[i]!)) hasTime = true;
    }
    const name = this.fileName ?? this.firstPartName;
    const description = this.fileDescription ?? this.firstPartDescription;
    return {
      ...(name !== undefined && name !== '' ? { name } : {}),
      ...(description !== undefined && description !== '' ? { description } : {}),
      points,
      parts: this.parts,
      waypoints: this.waypoints,
      distanceM,
      elevationGainM: gain,
      elevationLossM: loss,
      bounds: { minLatitude, minLongitude, maxLatitude, maxLongitude },
      hasTime,
      preview: simplifyLine(points.latitude, points.longitude, this.simplifyToleranceM),
    };
  }
}

/**
 * Parses a GPX file: tracks, routes and waypoints, with elevation, time and the Garmin
 * TrackPointExtension (hr, cad, atemp, power). Planned routes without times are valid.
 *
 * @remarks
 * Hardened for uploads: the size cap is checked first; a DTD or any entity beyond the five
 * of XML is refused (no expansion ever happens); nesting depth, attribute count and length,
 * text length and point count are limited; a time budget stops the read. Malformed XML, a
 * wrong or second root, coordinates out of range and non-numbers are errors with a line
 * and column. Never throws.
 */
export function parseGpx(
  input: string | Uint8Array,
  limits: GpxLimits = {},
): DecodeResult<GpxRoute> {
  const settings = { ...DEFAULTS, ...limits };
  return readXmlDocument(input, 'gpx', settings.maxBytes, (text) =>
    new GpxReader(text, settings).read(),
  );
}

/**
 * `parseGpx` with the fast path for plain points on or off, and how many points it read:
 * for the tests that hold the fast path to the general reader. Not exported from the package.
 */
export function parseGpxForTesting(
  input: string | Uint8Array,
  options: { readonly fast: boolean; readonly limits?: GpxLimits },
): { readonly result: DecodeResult<GpxRoute>; readonly fastPoints: number } {
  const settings = { ...DEFAULTS, ...options.limits };
  let fastPoints = 0;
  const result = readXmlDocument(input, 'gpx', settings.maxBytes, (text) => {
    const reader = new GpxReader(text, settings, options.fast);
    try {
      return reader.read();
    } finally {
      fastPoints = reader.fastPoints;
    }
  });
  return { result, fastPoints };
}
