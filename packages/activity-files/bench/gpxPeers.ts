// The GPX readers the bench sets beside `parseGpx`, each pulling what a GPX import needs
// from the same text: latitude and longitude of every track or route point, elevation and
// time, and the Garmin extension's heart rate, cadence, power and temperature (the regular
// expression floor: the first four only). They check less than `parseGpx` (no limits, no
// ranges, Number() without a pattern), which only makes them faster.
import { SaxesParser } from 'saxes';
import { parse as parseTxml, type TNode } from 'txml';

/** Points as plain arrays, filled in document order. */
export class PointSink {
  readonly latitude: number[] = [];
  readonly longitude: number[] = [];
  readonly elevation: number[] = [];
  readonly time: number[] = [];
  readonly heartRate: number[] = [];
  readonly cadence: number[] = [];
  readonly power: number[] = [];
  readonly temperature: number[] = [];
  get length(): number {
    return this.latitude.length;
  }
}

const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
};

// The value columns of a point's child elements, by local name.
const FIELDS: Readonly<Record<string, Exclude<keyof PointSink, 'length'>>> = {
  ele: 'elevation',
  time: 'time',
  hr: 'heartRate',
  cad: 'cadence',
  power: 'power',
  PowerInWatts: 'power',
  atemp: 'temperature',
  temp: 'temperature',
};
const COLUMNS = [
  'elevation',
  'time',
  'heartRate',
  'cadence',
  'power',
  'temperature',
] as const satisfies readonly Exclude<keyof PointSink, 'length'>[];

const valueOf = (field: string, text: string) =>
  field === 'time' ? Date.parse(text) / 1000 : Number(text);

/** txml: the whole document as its tree, then a walk to the points. */
export function txmlPoints(text: string): PointSink {
  const sink = new PointSink();
  const values: Record<string, number> = {};
  const readChildren = (node: TNode) => {
    for (const child of node.children) {
      if (typeof child === 'string') continue;
      const field = FIELDS[localName(child.tagName)];
      const only = child.children.length === 1 ? child.children[0] : undefined;
      if (field !== undefined && typeof only === 'string')
        values[field] = valueOf(field, only.trim());
      else readChildren(child);
    }
  };
  const walk = (nodes: (TNode | string)[]) => {
    for (const node of nodes) {
      if (typeof node === 'string') continue;
      const name = localName(node.tagName);
      if (name !== 'trkpt' && name !== 'rtept') {
        walk(node.children);
        continue;
      }
      for (const column of COLUMNS) values[column] = Number.NaN;
      readChildren(node);
      sink.latitude.push(Number(node.attributes.lat));
      sink.longitude.push(Number(node.attributes.lon));
      for (const column of COLUMNS) sink[column].push(values[column]!);
    }
  };
  // No HTML void elements: <gpxtpx:hr> is not <hr>.
  walk(parseTxml(text, { selfClosingTags: [] }));
  return sink;
}

/** saxes: a streaming, well-formedness-checking reader; events collect the fields. */
export function saxesPoints(text: string): PointSink {
  const sink = new PointSink();
  const values: Record<string, number> = {};
  let inPoint = false;
  let field: string | undefined;
  let buffer = '';
  // Without position tracking (the default tracks lines and columns): the faster setting,
  // as ours keeps no positions either until it reports an error.
  const parser = new SaxesParser({ position: false });
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (name === 'trkpt' || name === 'rtept') {
      inPoint = true;
      for (const column of COLUMNS) values[column] = Number.NaN;
      sink.latitude.push(Number(tag.attributes.lat));
      sink.longitude.push(Number(tag.attributes.lon));
    } else if (inPoint) {
      field = FIELDS[name];
      buffer = '';
    }
  });
  parser.on('text', (chunk) => {
    if (field !== undefined) buffer += chunk;
  });
  parser.on('closetag', (tag) => {
    if (field !== undefined) {
      values[field] = valueOf(field, buffer.trim());
      field = undefined;
      return;
    }
    const name = localName(tag.name);
    if (name === 'trkpt' || name === 'rtept') {
      inPoint = false;
      for (const column of COLUMNS) sink[column].push(values[column]!);
    }
  });
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(text).close();
  return sink;
}

/**
 * The floor: one regular expression pulling latitude, longitude, elevation and time from
 * points written exactly as the bench writes them, checking nothing else.
 */
export function regexPoints(text: string): PointSink {
  const sink = new PointSink();
  const pattern =
    /<trkpt lat="([^"]*)" lon="([^"]*)">\s*<ele>([^<]*)<\/ele>\s*<time>([^<]*)<\/time>/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    sink.latitude.push(Number(match[1]));
    sink.longitude.push(Number(match[2]));
    sink.elevation.push(Number(match[3]));
    sink.time.push(Date.parse(match[4]!) / 1000);
  }
  return sink;
}
