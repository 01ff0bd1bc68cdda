import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { parseGpx } from './parse.ts';
import type { GpxRoute } from './types.ts';
import { simplifyLine } from './simplify.ts';

const track = `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
  <metadata><name>Morning &amp; hills</name><desc><![CDATA[Loop <b>south</b>]]></desc></metadata>
  <wpt lat="22.5" lon="114.0"><ele>12</ele><name>Café</name></wpt>
  <trk><name>Loop</name><trkseg>
    <trkpt lat="22.5430" lon="114.0580"><ele>10.5</ele><time>2026-11-01T06:00:00Z</time>
      <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr><gpxtpx:cad>85</gpxtpx:cad><gpxtpx:atemp>21</gpxtpx:atemp></gpxtpx:TrackPointExtension><power>210</power></extensions>
    </trkpt>
    <trkpt lat="22.5440" lon="114.0580"><ele>20.5</ele><time>2026-11-01T06:00:10Z</time></trkpt>
  </trkseg><trkseg>
    <trkpt lat="22.5450" lon="114.0580"><ele>15</ele><time>2026-11-01T06:00:20Z</time></trkpt>
  </trkseg></trk>
</gpx>`;

function value(result: ReturnType<typeof parseGpx>): GpxRoute {
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
}
const code = (input: string | Uint8Array) => {
  const result = parseGpx(input);
  return result.ok ? 'ok' : result.error.code;
};

describe('parseGpx', () => {
  it('reads tracks, segments, waypoints and the Garmin extension', () => {
    const route = value(parseGpx(track));
    expect(route.name).toBe('Morning & hills');
    expect(route.description).toBe('Loop <b>south</b>');
    expect(route.points.length).toBe(3);
    expect(route.parts).toEqual([
      { kind: 'track', name: 'Loop', start: 0, end: 2 },
      { kind: 'track', name: 'Loop', start: 2, end: 3 },
    ]);
    expect(route.waypoints).toEqual([
      { latitude: 22.5, longitude: 114, elevation: 12, name: 'Café' },
    ]);
    expect(route.points.heartRate[0]).toBe(120);
    expect(route.points.cadence[0]).toBe(85);
    expect(route.points.temperature[0]).toBe(21);
    expect(route.points.power[0]).toBe(210);
    expect(Number.isNaN(route.points.heartRate[1]!)).toBe(true);
    expect(route.points.time[1]).toBe(Date.parse('2026-11-01T06:00:10Z') / 1000);
    expect(route.hasTime).toBe(true);
    // Distance within segments only: 0.001° of latitude is about 111 m.
    expect(route.distanceM).toBeGreaterThan(110);
    expect(route.distanceM).toBeLessThan(112);
    expect(route.elevationGainM).toBe(10);
    expect(route.bounds).toEqual({
      minLatitude: 22.543,
      minLongitude: 114.058,
      maxLatitude: 22.545,
      maxLongitude: 114.058,
    });
  });

  it('accepts a planned route without times or elevation, and bytes with a BOM', () => {
    const planned =
      '<gpx><rte><name>Plan</name><rtept lat="1" lon="2"/><rtept lat="1.01" lon="2"/></rte></gpx>';
    const route = value(parseGpx(new TextEncoder().encode(`\uFEFF${planned}`)));
    expect(route.hasTime).toBe(false);
    expect(route.parts).toEqual([{ kind: 'route', name: 'Plan', start: 0, end: 2 }]);
    expect(route.name).toBe('Plan');
  });

  it('rejects what is not a route, with a line and column', () => {
    expect(
      parseGpx('<gpx>\n  <trk><trkseg>\n<trkpt lat="91" lon="0"/></trkseg></trk></gpx>'),
    ).toMatchObject({ ok: false, error: { code: 'badCoordinate', line: 3, column: 1 } });
    expect(code('<gpx><trk><trkseg><trkpt lat="NaN" lon="0"/></trkseg></trk></gpx>')).toBe(
      'badCoordinate',
    );
    expect(code('<gpx><trk><trkseg><trkpt lat="1" lon="181"/></trkseg></trk></gpx>')).toBe(
      'badCoordinate',
    );
    expect(
      code('<gpx><trk><trkseg><trkpt lat="1" lon="1"><ele>high</ele></trkpt></trkseg></trk></gpx>'),
    ).toBe('badNumber');
    expect(
      code(
        '<gpx><trk><trkseg><trkpt lat="1" lon="1"><time>yesterday</time></trkpt></trkseg></trk></gpx>',
      ),
    ).toBe('badTime');
    const waypoints = parseGpx('<gpx><wpt lat="1" lon="1"/></gpx>');
    expect(waypoints).toMatchObject({ ok: false, error: { code: 'onlyWaypoints' } });
    if (!waypoints.ok) expect(waypoints.error.message).toContain('only waypoints (1)');
    expect(code('<kml><trk/></kml>')).toBe('wrongRoot');
    expect(code('<gpx><trk></gpx>')).toBe('mismatchedTag');
    expect(code('<gpx><trk>')).toBe('unclosedTag');
    expect(code('not xml at all')).toBe('textOutsideRoot');
    expect(code('')).toBe('noRoot');
    expect(code(new Uint8Array([0x3c, 0x67, 0xff, 0xfe]))).toBe('encoding');
    expect(parseGpx(track, { maxBytes: 100 })).toMatchObject({
      ok: false,
      error: { code: 'tooLarge' },
    });
  });
});

describe('XML attacks', () => {
  const point = '<trk><trkseg><trkpt lat="1" lon="1"/></trkseg></trk>';
  it('refuses billion laughs, external entities and DTDs without expanding anything', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><gpx><metadata><name>&lol2;</name></metadata>${point}</gpx>`;
    expect(code(laughs)).toBe('dtd');
    expect(code(`<!DOCTYPE gpx SYSTEM "file:///etc/passwd"><gpx>${point}</gpx>`)).toBe('dtd');
    expect(
      code(`<!DOCTYPE gpx PUBLIC "-//x" "http://evil.example/x.dtd"><gpx>${point}</gpx>`),
    ).toBe('dtd');
    const undeclared = parseGpx(`<gpx><metadata><name>&xxe;</name></metadata>${point}</gpx>`);
    expect(undeclared).toMatchObject({ ok: false, error: { code: 'entity' } });
    if (!undeclared.ok) expect(undeclared.error.message).not.toContain('passwd');
  });

  it('refuses 10k-deep nesting, two roots, 100k character references in a name, and many attributes', () => {
    expect(code(`<gpx>${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}${point}</gpx>`)).toBe(
      'tooDeep',
    );
    expect(code(`<gpx>${point}</gpx><gpx>${point}</gpx>`)).toBe('multipleRoots');
    expect(
      code(`<gpx><metadata><name>${'&#65;'.repeat(1_100_000)}</name></metadata>${point}</gpx>`),
    ).toBe('textTooLong');
    const attributes = Array.from({ length: 300 }, (_, i) => `a${i}="1"`).join(' ');
    expect(code(`<gpx ${attributes}>${point}</gpx>`)).toBe('tooManyAttributes');
  });

  it('accepts what real exports hold: a long schemaLocation, empty elements, GPX 1.0 fields', () => {
    // Strava writes every schema it uses into one xsi:schemaLocation of about 1.5 kB.
    const schema = Array.from(
      { length: 12 },
      (_, i) =>
        `http://www.example.com/xmlschemas/Ext${i}/v1 http://www.example.com/xmlschemas/Ext${i}v1.xsd`,
    ).join(' ');
    expect(schema.length).toBeGreaterThan(1024);
    expect(code(`<gpx xsi:schemaLocation="${schema}">${point}</gpx>`)).toBe('ok');
    // OsmAnd writes <ele></ele> and <time></time> when it has no value.
    const empty = parseGpx(
      '<gpx version="1.0"><trk><trkseg><trkpt lat="1" lon="1"><ele></ele><time/><speed>3.2</speed><course>90</course></trkpt><trkpt lat="1.001" lon="1"><ele> </ele></trkpt></trkseg></trk></gpx>',
    );
    expect(empty).toMatchObject({ ok: true, value: { hasTime: false } });
    if (empty.ok) expect(Number.isNaN(empty.value.points.elevation[0]!)).toBe(true);
  });

  it('keeps Object.prototype untouched by __proto__ elements', () => {
    expect(code('<gpx><__proto__><polluted>1</polluted></__proto__></gpx>')).toBe('noPoints');
    expect(code(`<gpx><__proto__><polluted>1</polluted></__proto__>${point}</gpx>`)).toBe('ok');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads a large file whole, and stops one past its time budget', () => {
    const points = Array.from(
      { length: 100_000 },
      (_, i) =>
        `<trkpt lat="${(22 + i * 1e-5).toFixed(6)}" lon="114"><ele>${i % 100}</ele></trkpt>`,
    ).join('');
    // A budget no load on the machine reaches: what is read is the point here, not how fast.
    const route = value(
      parseGpx(`<gpx><trk><trkseg>${points}</trkseg></trk></gpx>`, { timeBudgetMs: 600_000 }),
    );
    expect(route.points.length).toBe(100_000);
    expect(route.preview.length).toBeLessThan(1000);
    expect(
      parseGpx(`<gpx><trk><trkseg>${points}</trkseg></trk></gpx>`, { timeBudgetMs: 0 }),
    ).toMatchObject({ ok: false, error: { code: 'timeout' } });
  });

  it("counts the reading's own CPU time against the budget, not the machine's load", () => {
    const points = Array.from(
      { length: 20_000 },
      (_, i) => `<trkpt lat="${(22 + i * 1e-5).toFixed(6)}" lon="114"><ele>1</ele></trkpt>`,
    ).join('');
    // As on a loaded machine: a second of the wall clock passes between any two looks at it.
    let wall = performance.now();
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (wall += 1000));
    try {
      const route = value(parseGpx(`<gpx><trk><trkseg>${points}</trkseg></trk></gpx>`));
      expect(route.points.length).toBe(20_000);
    } finally {
      clock.mockRestore();
    }
  });

  it('never throws on mutated files', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: track.length }),
        fc.integer({ min: 0, max: track.length }),
        fc.string({ maxLength: 5 }),
        (at, cut, insert) => {
          const mutated =
            track.slice(0, at) + insert + track.slice(Math.min(track.length, at + (cut % 7)));
          const result = parseGpx(mutated);
          if (!result.ok) {
            expect(result.error.messageId).toMatch(/^activityFiles\.gpx\./);
            expect(result.error.line).toBeGreaterThanOrEqual(1);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('simplifyLine', () => {
  it('keeps the ends and the corners of a line', () => {
    const lat = Float64Array.from([0, 0, 0, 0.001, 0.002]);
    const lon = Float64Array.from([0, 0.001, 0.002, 0.002, 0.002]);
    expect(Array.from(simplifyLine(lat, lon, 5))).toEqual([0, 2, 4]);
  });
});
