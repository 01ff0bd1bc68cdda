import fc from 'fast-check';
import { simulateRide } from '@xoss/workout-stats';
import { describe, expect, it } from 'vitest';
import { fitCrc16 } from '../fitCrc.ts';
import { fixCrc, wrapFit } from '../testing/fitBytes.ts';
import { decodeFit } from './decode.ts';
import { encodeFit, type FitActivityInput } from './encode.ts';
import { activityFromStreams } from './fromStreams.ts';
import { activityOverview } from './streams.ts';
import { recordColumnNames, type FitActivity } from './types.ts';

const START = 1_750_000_000;
const ride = simulateRide({ seconds: 900, seed: 4, stops: [[300, 40]] });
const activity = activityFromStreams(ride, {
  startTime: START,
  sport: 2,
  serialNumber: 12345,
  productName: 'XOSS NAV',
  settings: { ftpWatts: 250, maxHeartRate: 185 },
});

function decoded(bytes: Uint8Array): FitActivity {
  const result = decodeFit(bytes);
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
}

describe('FIT round trip', () => {
  it.each([
    ['little-endian', {}],
    ['big-endian', { bigEndian: true }],
    ['compressed timestamps', { compressedTimestamps: true }],
    ['enhanced speed and altitude', { enhanced: true }],
  ])('decode(encode(x)) equals x, %s', (_, options) => {
    const bytes = encodeFit(activity, options);
    expect(decoded(bytes)).toEqual(activity);
  });

  it('writes compressed timestamps smaller than full ones', () => {
    expect(encodeFit(activity, { compressedTimestamps: true }).length).toBeLessThan(
      encodeFit(activity).length,
    );
  });

  it('reads the streams and the sport back', () => {
    const overview = activityOverview(decoded(encodeFit(activity)));
    expect(overview.startTime).toBe(START);
    expect(overview.sportType).toBe(2);
    expect(Array.from(overview.streams.power!)).toEqual(Array.from(ride.power!));
    expect(overview.streams.time[899]).toBe(899);
    expect(overview.streams.latitude![10]).toBeCloseTo(ride.latitude![10]!, 6);
    expect(overview.streams.leftRightBalance![100]).toBe(ride.leftRightBalance![100]);
  });

  it('keeps the session values the device stored', () => {
    const session = decoded(encodeFit(activity)).sessions[0]!;
    expect(session).toEqual(activity.sessions[0]);
    expect(session.normalizedPower).toBeGreaterThan(0);
    expect(session.sport).toBe(2);
  });

  it('reads chained files as one activity', () => {
    const one = encodeFit(activity);
    const chained = new Uint8Array(one.length * 2);
    chained.set(one);
    chained.set(one, one.length);
    const both = decoded(chained);
    expect(both.records.length).toBe(activity.records.length * 2);
    expect(both.sessions).toHaveLength(2);
  });
});

// Random activities on the FIT grid, with developer fields and every message type.
const gridValue = (scale: number, min: number, max: number) =>
  fc.oneof(
    fc.constant(Number.NaN),
    fc.integer({ min: min * scale, max: max * scale }).map((raw) => raw / scale),
  );
const arbitraryActivity: fc.Arbitrary<FitActivityInput> = fc
  .integer({ min: 0, max: 40 })
  .chain((length) => {
    const column = (scale: number, min: number, max: number) =>
      fc
        .array(gridValue(scale, min, max), { minLength: length, maxLength: length })
        .map((values) => Float64Array.from(values));
    return fc
      .record({
        timestamp: fc
          .array(fc.integer({ min: 0, max: 40 }), { minLength: length, maxLength: length })
          .map((steps) => {
            let t = START;
            return Float64Array.from(steps, (step) => (t += step));
          }),
        power: column(1, 0, 2000),
        heartRate: column(1, 30, 220),
        speed: column(1000, 0, 30),
        distance: column(100, 0, 300000),
        temperature: column(1, -20, 45),
        balance: column(1, 0, 100),
        custom: column(1, -1000, 1000),
        sport: fc.integer({ min: 0, max: 11 }),
        name: fc
          .string({ maxLength: 10 })
          .filter((text) => !text.includes('\u0000') && text.length > 0),
        zones: fc.array(
          fc.integer({ min: 0, max: 100000 }).map((ms) => ms / 1000),
          { minLength: 1, maxLength: 7 },
        ),
      })
      .map((values) => {
        const nan = () => new Float64Array(length).fill(Number.NaN);
        const records: Record<string, unknown> = {
          length,
          developer: length > 0 ? { custom_field: values.custom } : {},
        };
        for (const name of recordColumnNames) records[name] = nan();
        Object.assign(records, {
          timestamp: values.timestamp,
          power: values.power,
          heartRate: values.heartRate,
          speed: values.speed,
          distance: values.distance,
          temperature: values.temperature,
          leftRightBalance: values.balance,
        });
        return {
          fileId: { type: 4, manufacturer: 255, timeCreated: START },
          deviceInfos: [{ deviceIndex: 0, softwareVersion: 1.25, productName: values.name }],
          sports: [{ sport: values.sport, name: values.name }],
          zonesTargets: [{ maxHeartRate: 190, functionalThresholdPower: 260 }],
          events: [{ timestamp: START, event: 0, eventType: 0 }],
          laps: [{ timestamp: START + 10, messageIndex: 0, totalTimerTime: 10.5 }],
          lengths: [{ timestamp: START + 5, startTime: START, totalTimerTime: 5, lengthType: 1 }],
          sessions: [
            {
              timestamp: START + 10,
              sport: values.sport,
              intensityFactor: 0.875,
              trainingStressScore: 42.5,
            },
          ],
          timeInZones: [{ referenceMesg: 18, referenceIndex: 0, timeInHrZone: values.zones }],
          developerDataIds: [{ developerDataIndex: 0, applicationVersion: 3 }],
          fieldDescriptions: [
            {
              developerDataIndex: 0,
              fieldDefinitionNumber: 0,
              fitBaseTypeId: 0x85,
              fieldName: 'custom_field',
              units: 'u',
            },
          ],
          records: records as FitActivity['records'],
          skippedMessages: 0,
        };
      });
  });

describe('FIT round trip, any activity', () => {
  it('decode(encode(x)) equals x', () => {
    fc.assert(
      fc.property(
        arbitraryActivity,
        fc.boolean(),
        fc.boolean(),
        (input, bigEndian, compressedTimestamps) => {
          expect(decoded(encodeFit(input, { bigEndian, compressedTimestamps }))).toEqual(input);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('FIT malformation', () => {
  const good = encodeFit(activity);
  const code = (bytes: Uint8Array) => {
    const result = decodeFit(bytes, { strict: true });
    return result.ok ? 'ok' : result.error.code;
  };

  it('refuses a truncated file, a CRC mismatch and a wrong signature, with a byte offset', () => {
    expect(code(good.slice(0, good.length - 100))).toBe('dataSize');
    expect(code(good.slice(0, 10))).toBe('truncated');
    const flipped = good.slice();
    flipped[500]! ^= 0xff;
    const result = decodeFit(flipped, { strict: true });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'crc', messageId: 'activityFiles.fit.crc', byteOffset: good.length - 2 },
    });
    const gpx = new TextEncoder().encode('<?xml version="1.0"?><gpx></gpx>');
    expect(code(gpx)).toBe('headerSize');
    const unsigned = good.slice();
    unsigned[9] = 0x41;
    expect(code(unsigned)).toBe('signature');
  });

  it('refuses a header size of 255, a data size beyond the file and a bad header CRC', () => {
    const big = good.slice();
    big[0] = 255;
    expect(code(big)).toBe('headerSize');
    const beyond = good.slice();
    new DataView(beyond.buffer).setUint32(4, 0x7fffffff, true);
    new DataView(beyond.buffer).setUint16(12, fitCrc16(beyond, 0, 12), true);
    expect(code(beyond)).toBe('dataSize');
    const header = good.slice();
    header[12]! ^= 1;
    expect(code(header)).toBe('headerCrc');
  });

  it('refuses a 255 x 255-byte definition whose messages are not there, and data before a definition', () => {
    const definition = [0x40, 0, 0, 20, 0, 255];
    for (let i = 0; i < 255; i++) definition.push(i, 255, 0x0d);
    expect(code(wrapFit([...definition, 0x00, 1, 2, 3]))).toBe('truncated');
    expect(code(wrapFit([0x03, 1, 2, 3]))).toBe('undefinedLocalMessage');
    expect(code(wrapFit([0x40, 0, 0, 20, 0, 1, 3, 0, 2]))).toBe('badDefinition');
    expect(code(new Uint8Array(0))).toBe('empty');
    expect(decodeFit(good, { maxBytes: 100, strict: true })).toMatchObject({
      ok: false,
      error: { code: 'tooLarge' },
    });
  });

  it('salvages every complete record of a file cut short or with a bad CRC, and says so', () => {
    const whole = decoded(good);
    expect(whole.damage).toBeUndefined();
    // Cut inside the records: the records before the cut are kept, the cut one is not.
    const cut = decodeFit(good.slice(0, Math.floor(good.length * 0.6)));
    if (!cut.ok) throw new Error(cut.error.message);
    expect(cut.value.damage).toMatchObject({ code: 'dataSize' });
    expect(cut.value.records.length).toBeGreaterThan(whole.records.length * 0.4);
    expect(cut.value.records.length).toBeLessThan(whole.records.length);
    const n = cut.value.records.length;
    expect(Array.from(cut.value.records.power)).toEqual(
      Array.from(whole.records.power.subarray(0, n)),
    );
    // The last two bytes (the CRC) missing: every message is there.
    const noCrc = decoded(good.slice(0, good.length - 2));
    expect(noCrc.damage).toMatchObject({ code: 'dataSize' });
    expect(noCrc.records.length).toBe(whole.records.length);
    expect(noCrc.sessions).toHaveLength(1);
    // A wrong CRC with intact data: everything read, the damage named.
    const badCrc = good.slice();
    badCrc[badCrc.length - 1]! ^= 0xff;
    const crc = decoded(badCrc);
    expect(crc.damage).toMatchObject({ code: 'crc', messageId: 'activityFiles.fit.crc' });
    expect(crc.records.length).toBe(whole.records.length);
    // A file whose header cannot be read is still refused, salvage or not.
    expect(decodeFit(good.slice(0, 10))).toMatchObject({ ok: false, error: { code: 'truncated' } });
  });

  it('reads compressed speed and distance records, accumulating the distance across roll-overs', () => {
    // Definition: timestamp (uint32) and compressed speed/distance (3 bytes).
    const bytes: number[] = [0x40, 0, 0, 20, 0, 2, 253, 4, 0x86, 8, 3, 0x0d];
    // 10 m/s for 40 s: 160 sixteenths of a metre each second, rolling over every 25.6 s.
    for (let i = 0; i <= 40; i++) {
      const raw = (i * 160) & 0xfff;
      const speed = 1000;
      bytes.push(0x00, ...[1000 + i, 0, 0, 0].map((_, k) => ((1000 + i) >> (8 * k)) & 0xff));
      bytes.push(speed & 0xff, ((speed >> 8) & 0x0f) | ((raw & 0x0f) << 4), raw >> 4);
    }
    const read = decoded(wrapFit(bytes));
    expect(read.records.length).toBe(41);
    expect(read.records.speed[3]).toBe(10);
    expect(read.records.distance[0]).toBe(0);
    expect(read.records.distance[40]).toBe(400);
  });

  it('skips unknown messages and unknown fields', () => {
    // Message 999 (unknown) with one uint16, then a record with power and an unknown field 99.
    const bytes = wrapFit([
      0x40, 0, 0, 0xe7, 0x03, 1, 0, 2, 0x84, 0x00, 0x10, 0x00, 0x41, 0, 0, 20, 0, 3, 253, 4, 0x86,
      7, 2, 0x84, 99, 1, 0x02, 0x01, 0x10, 0x27, 0, 0, 0xfa, 0x00, 7,
    ]);
    const activityRead = decoded(bytes);
    expect(activityRead.skippedMessages).toBe(1);
    expect(activityRead.records.length).toBe(1);
    expect(activityRead.records.power[0]).toBe(250);
    expect(activityRead.records.timestamp[0]).toBe(10000 + 631065600);
  });

  it('never throws or hangs on mutated files, and never returns a damaged one as whole or unmarked', () => {
    const small = encodeFit(
      activityFromStreams(simulateRide({ seconds: 60, seed: 2 }), { startTime: START, sport: 2 }),
    );
    const mutation = fc.oneof(
      fc
        .integer({ min: 0, max: small.length - 1 })
        .map((at) => (bytes: Uint8Array) => bytes.slice(0, at)),
      fc
        .tuple(fc.integer({ min: 0, max: small.length - 1 }), fc.integer({ min: 1, max: 255 }))
        .map(([at, mask]) => (bytes: Uint8Array) => {
          const copy = bytes.slice();
          copy[at]! ^= mask;
          return copy;
        }),
      fc
        .tuple(fc.integer({ min: 14, max: small.length - 40 }), fc.integer({ min: 1, max: 30 }))
        .map(([at, length]) => (bytes: Uint8Array) => {
          const copy = new Uint8Array(bytes.length + length);
          copy.set(bytes.subarray(0, at + length));
          copy.set(bytes.subarray(at), at + length);
          return copy;
        }),
    );
    fc.assert(
      fc.property(mutation, fc.boolean(), (mutate, recomputeCrc) => {
        const bytes = mutate(small);
        const candidate = recomputeCrc && bytes.length > 16 ? fixCrc(bytes) : bytes;
        const strict = decodeFit(candidate, { strict: true });
        if (strict.ok) expect(strict.value.damage).toBeUndefined();
        else expect(strict.error.messageId).toMatch(/^activityFiles\.fit\./);
        const salvaged = decodeFit(candidate);
        if (!salvaged.ok) expect(salvaged.error.messageId).toMatch(/^activityFiles\.fit\./);
        else if (strict.ok) expect(salvaged.value).toEqual(strict.value);
        // Bytes changed without a new CRC: whatever is read is marked as damaged.
        else if (!recomputeCrc) expect(salvaged.value.damage).toBeDefined();
      }),
      { numRuns: 400 },
    );
  });

  it('refuses random bytes with a valid header and CRC', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (data) => {
        const result = decodeFit(wrapFit(Array.from(data)));
        if (!result.ok) expect(result.error.byteOffset).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });
});
