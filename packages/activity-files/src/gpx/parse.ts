import { elevationGainLoss, haversineMetres } from '@xoss/workout-stats';
import { DecodeFailure, type DecodeResult } from '../errors.ts';
import { simplifyLine } from './simplify.ts';

/** Limits of `parseGpx`; each is checked while reading, so no input can exhaust them. */
export interface GpxLimits {
  /** Largest input in bytes (UTF-8), checked before parsing. Default 64 MiB. */
  readonly maxBytes?: number;
  /** Deepest element nesting. Default 32. */
  readonly maxDepth?: number;
  readonly maxAttributes?: number;
  readonly maxAttributeLength?: number;
  /** Longest text of one element (name, description), in characters. Default 10,000. */
  readonly maxTextLength?: number;
  readonly maxPoints?: number;
  /** Time budget in milliseconds. Default 2000. */
  readonly timeBudgetMs?: number;
  /** Tolerance of the preview line, in metres. Default 10. */
  readonly simplifyToleranceM?: number;
}

/** Track or route points as columns (NaN = absent): degrees, metres, Unix seconds, bpm, rpm, W, °C. */
export interface GpxPoints {
  readonly length: number;
  readonly latitude: Float64Array;
  readonly longitude: Float64Array;
  readonly elevation: Float64Array;
  readonly time: Float64Array;
  readonly heartRate: Float64Array;
  readonly cadence: Float64Array;
  readonly power: Float64Array;
  readonly temperature: Float64Array;
}

/** A track segment or a route: a named range of `points`. */
export interface GpxPart {
  readonly kind: 'track' | 'route';
  readonly name?: string;
  readonly start: number;
  readonly end: number;
}

export interface GpxWaypoint {
  readonly latitude: number;
  readonly longitude: number;
  readonly elevation?: number;
  readonly name?: string;
}

/** A parsed GPX file with what a route preview and an upload need. */
export interface GpxRoute {
  /** The file's (or first track's or route's) name and description, as plain text. */
  readonly name?: string;
  readonly description?: string;
  readonly points: GpxPoints;
  readonly parts: readonly GpxPart[];
  readonly waypoints: readonly GpxWaypoint[];
  /** Metres along the points, within each part. */
  readonly distanceM: number;
  readonly elevationGainM: number;
  readonly elevationLossM: number;
  readonly bounds: {
    readonly minLatitude: number;
    readonly minLongitude: number;
    readonly maxLatitude: number;
    readonly maxLongitude: number;
  };
  /** Whether points carry times (recorded tracks do; planned routes do not). */
  readonly hasTime: boolean;
  /** Indices into `points` of a simplified line for previews. */
  readonly preview: Uint32Array;
}

const DEFAULTS = {
  maxBytes: 64 * 1024 * 1024,
  maxDepth: 32,
  maxAttributes: 32,
  maxAttributeLength: 1024,
  maxTextLength: 10_000,
  maxPoints: 2_000_000,
  timeBudgetMs: 2000,
  simplifyToleranceM: 10,
};

const PREDEFINED: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
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

class Columns {
  length = 0;
  private capacity = 1024;
  latitude = new Float64Array(this.capacity);
  longitude = new Float64Array(this.capacity);
  elevation = new Float64Array(this.capacity);
  time = new Float64Array(this.capacity);
  heartRate = new Float64Array(this.capacity);
  cadence = new Float64Array(this.capacity);
  power = new Float64Array(this.capacity);
  temperature = new Float64Array(this.capacity);

  push(values: readonly [number, number, number, number, number, number, number, number]): void {
    if (this.length === this.capacity) {
      this.capacity *= 2;
      for (const key of [
        'latitude',
        'longitude',
        'elevation',
        'time',
        'heartRate',
        'cadence',
        'power',
        'temperature',
      ] as const) {
        const grown = new Float64Array(this.capacity);
        grown.set(this[key]);
        this[key] = grown;
      }
    }
    const i = this.length++;
    [
      this.latitude[i],
      this.longitude[i],
      this.elevation[i],
      this.time[i],
      this.heartRate[i],
      this.cadence[i],
      this.power[i],
      this.temperature[i],
    ] = values;
  }

  finish(): GpxPoints {
    const n = this.length;
    return {
      length: n,
      latitude: this.latitude.slice(0, n),
      longitude: this.longitude.slice(0, n),
      elevation: this.elevation.slice(0, n),
      time: this.time.slice(0, n),
      heartRate: this.heartRate.slice(0, n),
      cadence: this.cadence.slice(0, n),
      power: this.power.slice(0, n),
      temperature: this.temperature.slice(0, n),
    };
  }
}

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

class GpxReader {
  private readonly limits: typeof DEFAULTS;
  private readonly text: string;
  private readonly started = performance.now();
  private readonly stack: string[] = [];
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
  private capture: string | undefined;
  private rootClosed = false;
  private sawRoot = false;

  constructor(text: string, limits: typeof DEFAULTS) {
    this.text = text;
    this.limits = limits;
  }

  private fail(code: string, message: string, offset: number): never {
    let line = 1;
    let lineStart = 0;
    for (
      let i = this.text.indexOf('\n');
      i !== -1 && i < offset;
      i = this.text.indexOf('\n', i + 1)
    ) {
      line++;
      lineStart = i + 1;
    }
    throw new DecodeFailure({
      code,
      messageId: `activityFiles.gpx.${code}`,
      message: `${message} (line ${line}, column ${offset - lineStart + 1})`,
      line,
      column: offset - lineStart + 1,
    });
  }

  read(): GpxRoute {
    const { text } = this;
    let position = 0;
    let tags = 0;
    while (position < text.length) {
      const open = text.indexOf('<', position);
      const end = open === -1 ? text.length : open;
      if (end > position) this.characters(position, end);
      if (open === -1) break;
      if ((++tags & 0xfff) === 0 && performance.now() - this.started > this.limits.timeBudgetMs)
        this.fail('timeout', 'The file took too long to read', open);
      position = this.markup(open);
    }
    if (!this.sawRoot) this.fail('noRoot', 'The file has no <gpx> element', text.length);
    if (this.stack.length > 0)
      this.fail(
        'unclosedTag',
        `<${this.stack[this.stack.length - 1]}> is never closed`,
        text.length,
      );
    return this.result();
  }

  private characters(from: number, to: number): void {
    const raw = this.text.slice(from, to);
    if (this.capture !== undefined) {
      this.capture += this.decodeEntities(raw, from);
      if (this.capture.length > this.limits.maxTextLength)
        this.fail('textTooLong', `Text longer than ${this.limits.maxTextLength} characters`, from);
      return;
    }
    if (raw.includes('&')) this.decodeEntities(raw, from);
    if ((this.rootClosed || !this.sawRoot) && raw.trim() !== '')
      this.fail('textOutsideRoot', 'Text outside the <gpx> element', from);
  }

  private decodeEntities(raw: string, offset: number): string {
    if (!raw.includes('&')) return raw;
    return raw.replace(/&([^;&\s]{0,12});?/g, (match, name: string, at: number) => {
      if (!match.endsWith(';')) this.fail('badEntity', 'A "&" that starts no entity', offset + at);
      if (name.startsWith('#')) {
        const code =
          name[1] === 'x' || name[1] === 'X'
            ? Number.parseInt(name.slice(2), 16)
            : Number.parseInt(name.slice(1), 10);
        if (
          !Number.isInteger(code) ||
          code <= 0 ||
          code > 0x10ffff ||
          (code >= 0xd800 && code <= 0xdfff)
        )
          this.fail('badEntity', `Invalid character reference &${name};`, offset + at);
        return String.fromCodePoint(code);
      }
      const value = PREDEFINED[name];
      if (value === undefined)
        this.fail(
          'entity',
          `Entity &${name}; is not allowed: GPX files may use only the five XML entities`,
          offset + at,
        );
      return value;
    });
  }

  // Reads markup at `open` ("<"); returns the position after it.
  private markup(open: number): number {
    const { text } = this;
    const next = text.charCodeAt(open + 1);
    if (next === 0x3f /* ? */) {
      const close = text.indexOf('?>', open + 2);
      if (close === -1) this.fail('malformed', 'Unclosed processing instruction', open);
      return close + 2;
    }
    if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', open)) {
        const close = text.indexOf('-->', open + 4);
        if (close === -1) this.fail('malformed', 'Unclosed comment', open);
        return close + 3;
      }
      if (text.startsWith('<![CDATA[', open)) {
        const close = text.indexOf(']]>', open + 9);
        if (close === -1) this.fail('malformed', 'Unclosed CDATA section', open);
        if (this.capture !== undefined) this.capture += text.slice(open + 9, close);
        else if (this.rootClosed || !this.sawRoot)
          this.fail('textOutsideRoot', 'Text outside the <gpx> element', open);
        return close + 3;
      }
      this.fail('dtd', 'GPX files may not contain a DTD or declarations (<!DOCTYPE ...>)', open);
    }
    const close = text.indexOf('>', open + 1);
    if (close === -1) this.fail('malformed', 'Unclosed tag', open);
    if (next === 0x2f /* / */) {
      const name = text.slice(open + 2, close).trim();
      const expected = this.stack.pop();
      if (expected !== name)
        this.fail(
          'mismatchedTag',
          expected === undefined ? `Unexpected </${name}>` : `</${name}> closes <${expected}>`,
          open,
        );
      this.endElement(localName(name), open);
      return close + 1;
    }
    const selfClosing = text.charCodeAt(close - 1) === 0x2f;
    const body = text.slice(open + 1, selfClosing ? close - 1 : close);
    const nameEnd = body.search(/[\s]/);
    const name = nameEnd === -1 ? body : body.slice(0, nameEnd);
    if (!/^[A-Za-z_][\w.:-]*$/.test(name))
      this.fail('malformed', `Invalid element name "${name.slice(0, 20)}"`, open);
    const attributes =
      nameEnd === -1 ? new Map<string, string>() : this.attributes(body.slice(nameEnd), open);
    if (this.stack.length === 0) {
      if (this.rootClosed) this.fail('multipleRoots', 'A second root element after </gpx>', open);
      if (localName(name) !== 'gpx')
        this.fail('wrongRoot', `The root element is <${name}>, not <gpx>`, open);
      this.sawRoot = true;
    }
    if (this.stack.length >= this.limits.maxDepth)
      this.fail('tooDeep', `Elements nested deeper than ${this.limits.maxDepth}`, open);
    this.stack.push(name);
    this.startElement(localName(name), attributes, open);
    if (selfClosing) {
      this.stack.pop();
      this.endElement(localName(name), open);
    }
    return close + 1;
  }

  private attributes(source: string, offset: number): Map<string, string> {
    const attributes = new Map<string, string>();
    const pattern = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')|(\S)/g;
    for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
      if (match[4] !== undefined) this.fail('malformed', 'Malformed attributes', offset);
      const value = match[2] ?? match[3] ?? '';
      if (value.length > this.limits.maxAttributeLength)
        this.fail(
          'attributeTooLong',
          `An attribute longer than ${this.limits.maxAttributeLength} characters`,
          offset,
        );
      attributes.set(match[1]!, this.decodeEntities(value, offset));
      if (attributes.size > this.limits.maxAttributes)
        this.fail('tooManyAttributes', `More than ${this.limits.maxAttributes} attributes`, offset);
    }
    return attributes;
  }

  private startElement(name: string, attributes: Map<string, string>, offset: number): void {
    if (name === 'trkpt' || name === 'rtept' || name === 'wpt') {
      if (this.point) this.fail('malformed', `<${name}> inside another point`, offset);
      const latitude = coordinate(attributes.get('lat'));
      const longitude = coordinate(attributes.get('lon'));
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
    } else if (TEXT_ELEMENTS.has(name)) {
      this.capture = '';
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

  private endElement(name: string, offset: number): void {
    if (this.stack.length === 0) this.rootClosed = true;
    if (TEXT_ELEMENTS.has(name) && this.capture !== undefined) {
      const value = this.capture.trim();
      this.capture = undefined;
      this.textOf(name, value, offset);
      return;
    }
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
      if (this.columns.length >= this.limits.maxPoints)
        this.fail('tooManyPoints', `More than ${this.limits.maxPoints} points`, offset);
      this.columns.push([
        p.latitude,
        p.longitude,
        p.elevation,
        p.time,
        p.heartRate,
        p.cadence,
        p.power,
        p.temperature,
      ]);
    } else if (name === 'trkseg' || name === 'rte') {
      this.closePart();
    } else if (name === 'trk') {
      this.closePart();
    }
  }

  private textOf(name: string, value: string, offset: number): void {
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
    if (!point) return;
    const number = (label: string) => {
      const parsed = coordinate(value);
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
      this.fail('noPoints', 'The file has no track or route points', this.text.length);
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
      preview: simplifyLine(points.latitude, points.longitude, this.limits.simplifyToleranceM),
    };
  }
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

function coordinate(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value))
    return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
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
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > settings.maxBytes) {
    return {
      ok: false,
      error: {
        code: 'tooLarge',
        messageId: 'activityFiles.gpx.tooLarge',
        message: `The file is larger than ${settings.maxBytes} bytes`,
        line: 1,
        column: 1,
      },
    };
  }
  let text: string;
  try {
    text =
      typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    return {
      ok: false,
      error: {
        code: 'encoding',
        messageId: 'activityFiles.gpx.encoding',
        message: 'The file is not UTF-8 text',
        line: 1,
        column: 1,
      },
    };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { ok: true, value: new GpxReader(text, settings).read() };
  } catch (error) {
    if (error instanceof DecodeFailure) return { ok: false, error: error.detail };
    throw error;
  }
}
