import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimal } from '../xml/reader.ts';
import { decimalAt, timeAt } from './fastValues.ts';
import { parseGpxForTesting } from './parse.ts';
import type { GpxLimits } from './types.ts';

// The fast path for plain points must read exactly what the general reader reads: the same
// route, or the same error (code, message, line and column), for any input and any limits.
function both(input: string | Uint8Array, limits?: GpxLimits) {
  const fast = parseGpxForTesting(input, { fast: true, ...(limits ? { limits } : {}) });
  const general = parseGpxForTesting(input, { fast: false, ...(limits ? { limits } : {}) });
  expect(general.fastPoints).toBe(0);
  expect(fast.result).toStrictEqual(general.result);
  return fast;
}

const document = (
  points: string,
  wrapper = (inner: string) => `<trk><trkseg>${inner}</trkseg></trk>`,
) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">${wrapper(points)}</gpx>`;

const plain = (i: number) =>
  `<trkpt lat="${(22.5 + i / 1000).toFixed(7)}" lon="${(114 + i / 1000).toFixed(7)}"><ele>${(10 + i / 10).toFixed(1)}</ele><time>${new Date((1_760_000_000 + i) * 1000).toISOString()}</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>${100 + (i % 50)}</gpxtpx:hr><gpxtpx:cad>${80 + (i % 20)}</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>`;
const plainPoints = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => plain(from + i)).join('\n');

describe('the fast path for plain points', () => {
  it('reads the corpus GPX files of other apps exactly as the general reader does', () => {
    const folder = new URL('../../test/corpus/gpx/', import.meta.url);
    const files = readdirSync(folder).filter((file) => file.endsWith('.gpx'));
    expect(files.length).toBeGreaterThanOrEqual(20);
    let fastPoints = 0;
    for (const file of files)
      fastPoints += both(new Uint8Array(readFileSync(new URL(file, folder)))).fastPoints;
    // It does take the points of real files, not only the bench's.
    expect(fastPoints).toBeGreaterThan(1000);
  });

  it('takes every point of a plain export, with the values the general reader reads', () => {
    const { result, fastPoints } = both(document(plainPoints(3000)));
    expect(fastPoints).toBe(3000);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.points.heartRate[7]).toBe(107);
    expect(result.value.points.time[1]).toBe(1_760_000_001);
  });

  // Each variant sits between plain points, so that it meets a learnt template too.
  const variants: Record<string, string> = {
    'attributes in the other order': '<trkpt lon="114.1" lat="22.6"><ele>5</ele></trkpt>',
    'single quotes': "<trkpt lat='22.6' lon='114.1'><ele>5</ele></trkpt>",
    'spaces around = and new lines in the tag':
      '<trkpt\n  lat = "22.6"\tlon=\n"114.1" ><ele>5</ele></trkpt>',
    'no space between attributes': '<trkpt lat="22.6"lon="114.1"></trkpt>',
    'other attributes': '<trkpt id="7" lat="22.6" xml:lang="en" lon="114.1"></trkpt>',
    'a repeated attribute': '<trkpt lat="95" lat="22.6" lon="114.1"></trkpt>',
    'a repeated bad attribute': '<trkpt lat="22.6" lat="95" lon="114.1"></trkpt>',
    'a prefixed point': '<gpx:trkpt lat="22.6" lon="114.1"><gpx:ele>5</gpx:ele></gpx:trkpt>',
    'prefixed children':
      '<trkpt lat="22.6" lon="114.1"><g:ele>5</g:ele><ns3:TrackPointExtension><ns3:hr>90</ns3:hr></ns3:TrackPointExtension></trkpt>',
    'a name with two colons': '<trkpt lat="22.6" lon="114.1"><a:b:hr>90</a:b:hr></trkpt>',
    CDATA: '<trkpt lat="22.6" lon="114.1"><ele><![CDATA[12.5]]></ele></trkpt>',
    'a comment': '<trkpt lat="22.6" lon="114.1"><!-- fix --><ele>5</ele></trkpt>',
    'CDATA and comments between children':
      '<trkpt lat="22.6" lon="114.1"><cmt><![CDATA[Sun <b>Jun</b>]]></cmt>\n<!-- x --><ele>5</ele><![CDATA[ ]]></trkpt>',
    'an unclosed comment': '<trkpt lat="22.6" lon="114.1"><!-- fix <ele>5</ele></trkpt>',
    'an unclosed CDATA': '<trkpt lat="22.6" lon="114.1"><![CDATA[ <ele>5</ele></trkpt>',
    'a comment inside a value': '<trkpt lat="22.6" lon="114.1"><ele>5<!-- m --></ele></trkpt>',
    'a processing instruction': '<trkpt lat="22.6" lon="114.1"><?app x?><ele>5</ele></trkpt>',
    'an entity in an attribute': '<trkpt lat="22&#46;6" lon="114.1"></trkpt>',
    'an entity in a value': '<trkpt lat="22.6" lon="114.1"><ele>&#49;2</ele></trkpt>',
    'an entity in ignored text':
      '<trkpt lat="22.6" lon="114.1"><extensions><x>a &amp; b</x></extensions></trkpt>',
    'an unknown entity':
      '<trkpt lat="22.6" lon="114.1"><extensions><x>&nope;</x></extensions></trkpt>',
    'an entity in a name': '<trkpt lat="22.6" lon="114.1"><name>Caf&#233; &amp; bar</name></trkpt>',
    'an element named with an entity':
      '<trkpt lat="22.6" lon="114.1"><e&amp;le>5</e&amp;le></trkpt>',
    'a long name': `<trkpt lat="22.6" lon="114.1"><name>${'n'.repeat(30)}</name></trkpt>`,
    'a name with a child': '<trkpt lat="22.6" lon="114.1"><name>a<b>c</b></name></trkpt>',
    'a name and description':
      '<trkpt lat="22.6" lon="114.1"><name>turn</name><desc>left</desc></trkpt>',
    'white space around values':
      '<trkpt lat=" 22.6 " lon="114.1"><ele>\n  5.5\t</ele><time> 2026-11-01T06:00:00Z </time></trkpt>',
    'non-ASCII white space': '<trkpt lat="22.6" lon="114.1"><ele>\u00a05\u00a0</ele></trkpt>',
    'white space in end tags': '<trkpt lat="22.6" lon="114.1"><ele>5</ele ></trkpt >',
    'a self-closing point': '<trkpt lat="22.6" lon="114.1"/>',
    'a self-closing child': '<trkpt lat="22.6" lon="114.1"><ele/><time/></trkpt>',
    'empty values':
      '<trkpt lat="22.6" lon="114.1"><ele></ele><time></time><extensions><gpxtpx:hr></gpxtpx:hr></extensions></trkpt>',
    'an attribute on a child': '<trkpt lat="22.6" lon="114.1"><ele unit="m">5</ele></trkpt>',
    'numbers as XML writes them':
      '<trkpt lat="+22.6" lon="114."><ele>.5</ele><extensions><hr>0090</hr><cad>-0</cad><power>1e2</power><atemp>2.5E-1</atemp><temp>-0.0</temp></extensions></trkpt>',
    'long numbers':
      '<trkpt lat="22.600000000000000001" lon="114.12345678901234567"><ele>1234567890123456.5</ele></trkpt>',
    'numbers that are not': '<trkpt lat="22.6" lon="114.1"><ele>1.2.3</ele></trkpt>',
    Infinity: '<trkpt lat="22.6" lon="114.1"><ele>Infinity</ele></trkpt>',
    'NaN coordinates': '<trkpt lat="NaN" lon="114.1"></trkpt>',
    'a coordinate out of range': '<trkpt lat="22.6" lon="180.0000001"></trkpt>',
    'an empty coordinate': '<trkpt lat="" lon="114.1"></trkpt>',
    'a missing coordinate': '<trkpt lat="22.6"></trkpt>',
    '">" in an attribute': '<trkpt lat="22.6" lon="114.1" note="a>b"></trkpt>',
    'times of every precision':
      '<trkpt lat="22.6" lon="114.1"><time>2026-11-01T06:00:00.5Z</time></trkpt><trkpt lat="22.6" lon="114.1"><time>2026-11-01T06:00:00.25Z</time></trkpt><trkpt lat="22.6" lon="114.1"><time>2026-11-01T06:00:00.123456Z</time></trkpt>',
    'times with offsets':
      '<trkpt lat="22.6" lon="114.1"><time>2026-11-01T08:00:00+02:00</time></trkpt><trkpt lat="22.6" lon="114.1"><time>2026-11-01T06:00:00</time></trkpt><trkpt lat="22.6" lon="114.1"><time>2026-11-01T06:00:00.5z</time></trkpt>',
    'odd dates V8 still reads':
      '<trkpt lat="22.6" lon="114.1"><time>2026-02-30T06:00:00Z</time></trkpt><trkpt lat="22.6" lon="114.1"><time>2024-02-29T24:00:00Z</time></trkpt><trkpt lat="22.6" lon="114.1"><time>0000-01-01T00:00:00Z</time></trkpt>',
    'a time that is not': '<trkpt lat="22.6" lon="114.1"><time>2026-11-01T06:00:60Z</time></trkpt>',
    'a mismatched end tag': '<trkpt lat="22.6" lon="114.1"><ele>5</time></trkpt>',
    'a mismatched nested end tag':
      '<trkpt lat="22.6" lon="114.1"><extensions><a>1</b></extensions></trkpt>',
    'an unclosed child': '<trkpt lat="22.6" lon="114.1"><extensions></trkpt>',
    'a point inside a point':
      '<trkpt lat="22.6" lon="114.1"><trkpt lat="1" lon="1"></trkpt></trkpt>',
    'a segment inside a point': '<trkpt lat="22.6" lon="114.1"><trkseg></trkseg></trkpt>',
    'a child inside a value': '<trkpt lat="22.6" lon="114.1"><ele><b>5</b></ele></trkpt>',
    'text beside children': '<trkpt lat="22.6" lon="114.1">note<ele>5</ele> more</trkpt>',
    'deep extensions':
      '<trkpt lat="22.6" lon="114.1"><extensions><a><b><c><d><hr>77</hr></d></c></b></a></extensions></trkpt>',
    'a DOCTYPE inside': '<trkpt lat="22.6" lon="114.1"><!DOCTYPE x></trkpt>',
    'a bad name': '<trkpt lat="22.6" lon="114.1"><1ele>5</1ele></trkpt>',
    'a route point in a track': '<rtept lat="22.6" lon="114.1"><ele>5</ele></rtept>',
  };

  // Points shaped like the plain ones but for one value: they meet the template learnt from
  // the plain points before them.
  const template = plain(9);
  const valued = (from: string, to: string) => {
    if (!template.includes(from)) throw new Error(`${from} is not in the plain point`);
    return template.replace(from, to);
  };
  Object.assign(variants, {
    'a ">" in a coordinate': valued('22.5090000', '22>509'),
    'a "<" in a coordinate': valued('22.5090000', '22<509'),
    'a quote in a coordinate': valued('"22.5090000"', '"22\'5"'),
    'an exponent in a coordinate': valued('22.5090000', '2.25e1'),
    'a coordinate out of range in the template': valued('22.5090000', '-90.5'),
    'minus zero': valued('114.0090000', '-0.0'),
    'a long value': valued('10.9', '10.90000000000000000001'),
    'an empty value': valued('10.9', ''),
    'a value with spaces': valued('10.9', ' 10.9 '),
    'a bad value': valued('>109<', '>x<'),
    'a value with an entity': valued('10.9', '1&#48;'),
    'a time with an offset': valued('.000Z', '+01:00'),
    'a bad time': valued('2025-10', '2025-1x'),
    'a nested element in a value': valued('10.9', '<b>10.9</b>'),
    'a longer name': template.replaceAll('gpxtpx:hr', 'gpxtpx:hrx'),
    'an end tag of another name': valued('</gpxtpx:hr>', '</gpxtpx:hx>'),
  });

  it.each(Object.entries(variants))('agrees with the general reader on %s', (_, variant) => {
    both(document(`${plainPoints(3)}\n${variant}\n${plainPoints(3, 3)}`));
    both(document(`${variant}${plainPoints(2)}`));
  });

  it('agrees on routes, points straight under <trk>, waypoints and a point at the root', () => {
    const route = (i: number) => plain(i).replaceAll('trkpt', 'rtept');
    both(document(`<name>R</name>${route(1)}${route(2)}`, (inner) => `<rte>${inner}</rte>`));
    both(document(plainPoints(3), (inner) => `<trk>${inner}</trk>`));
    const selfClosing = `<trkpt lat="1" lon="2"/>\n<trkpt lon='2.5' lat='1.5' />`;
    expect(both(document(selfClosing + selfClosing)).fastPoints).toBe(4);
    both(document(`${selfClosing}<trkpt lat="1" lon="2"/ >${selfClosing}`));
    both(document(`<wpt lat="1" lon="2">${plain(1)}</wpt>${plainPoints(2)}`));
    both(plain(1));
    both(`<gpx>${plainPoints(2)}</gpx>${plainPoints(1)}`);
    both(document(`${plainPoints(2)}<trkpt lat="1" lon="1"><ele>5</ele>`));
  });

  it('keeps every limit where the general reader does', () => {
    // A root without attributes, so that the attribute limits meet the points first.
    const bare = (points: string) => `<gpx><trk><trkseg>${points}</trkseg></trk></gpx>`;
    const text = bare(
      `<trkpt lat="1" lon="1"></trkpt><trkpt lat="22.6" lon="114.1"><name>turn</name><extensions><a><b><hr>1</hr></b></a></extensions></trkpt>${plainPoints(3)}<trkpt lat="1" lon="1"></trkpt>${plainPoints(2, 5)}`,
    );
    for (const maxDepth of [1, 2, 3, 4, 5, 6, 7, 8]) both(text, { maxDepth });
    for (const maxTextLength of [0, 1, 3, 4, 23, 24]) both(text, { maxTextLength });
    for (const maxAttributeLength of [1, 9, 10, 11]) both(text, { maxAttributeLength });
    for (const maxAttributes of [0, 1, 2, 3]) both(text, { maxAttributes });
    for (const maxPoints of [1, 3, 4, 5, 6]) both(text, { maxPoints });
    // Values that grow from point to point, past a limit, after a template was learnt.
    const growing = bare(
      ['1', '22', '333', '4444', '55555']
        .map(
          (value) =>
            `<trkpt lat="${value}" lon="1.${value}"><ele>${value}</ele><name>${value}x</name></trkpt>`,
        )
        .join(''),
    );
    for (const limit of [0, 1, 2, 3, 4, 5, 6]) {
      both(growing, { maxTextLength: limit });
      both(growing, { maxAttributeLength: limit });
    }
  });

  it('agrees with the general reader on random mixes of point shapes', () => {
    const shapes = [...Object.values(variants), plain(0), plain(1), plain(2)];
    const separators = ['', '\n', '\n    ', ' x ', '<!-- c -->'];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...shapes), fc.constantFrom(...separators)), {
          maxLength: 12,
        }),
        fc.constantFrom<GpxLimits>({}, { maxDepth: 5 }, { maxTextLength: 4 }, { maxPoints: 4 }),
        (points, limits) => {
          both(document(points.map(([shape, separator]) => shape + separator).join('')), limits);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the fast readers of numbers and times', () => {
  const number = fc.oneof(
    fc.double({ noNaN: true }).map(String),
    fc.integer().map(String),
    fc.stringMatching(/^[ \t\n]?[-+]?\d{0,17}(\.\d{0,17})?([eE][-+]?\d{1,3})?[ \t\n]?$/),
    fc.string({ maxLength: 8 }),
  );

  it('reads the same number as decimal() on the trimmed text', () => {
    fc.assert(
      fc.property(number, (text) => {
        const value = text.trim();
        const expected = value === '' ? undefined : (decimal(value) ?? Number.NaN);
        // toStrictEqual tells -0 from 0 and takes NaN as NaN.
        expect(decimalAt(`<${text}<`, 1, text.length + 1)).toStrictEqual(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('reads the same time as Date.parse after the ISO check', () => {
    const iso = fc
      .tuple(
        fc.date({
          min: new Date('0000-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.stringMatching(/^(\.\d{1,4})?$/),
      )
      .map(([date, fraction]) => `${date.toISOString().slice(0, 19)}${fraction}Z`);
    const tweaked = fc
      .tuple(iso, fc.nat(23), fc.constantFrom('0', '3', '9', ':', 'z', ' '))
      .map(([text, at, character]) => text.slice(0, at) + character + text.slice(at + 1));
    fc.assert(
      fc.property(fc.oneof(iso, tweaked), (text) => {
        const value = text.trim();
        const expected =
          value === ''
            ? undefined
            : /^\d{4}-\d{2}-\d{2}T/.test(value)
              ? Date.parse(value)
              : Number.NaN;
        expect(timeAt(text, 0, text.length)).toStrictEqual(expected);
      }),
      { numRuns: 5000 },
    );
  });
});
