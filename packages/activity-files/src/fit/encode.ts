import { fitCrc16 } from '../fitCrc.ts';
import { BaseTypes, baseTypeOf, writeValue, type BaseType } from './baseTypes.ts';
import {
  DEGREES_PER_SEMICIRCLE,
  FIT_EPOCH_S,
  MesgNum,
  messageByNum,
  type FieldSpec,
  type MessageSpec,
} from './profile.ts';
import {
  sensorColumnNames,
  type FitActivity,
  type FitMessage,
  type FitValue,
  type RecordColumnName,
  type SensorColumnName,
} from './types.ts';

/** Options of `encodeFit`, mostly for exercising every path a decoder must handle. */
export interface FitEncodeOptions {
  /** Write definitions and values big-endian. Default little-endian. */
  readonly bigEndian?: boolean;
  /** Write records 0-31 s apart with compressed-timestamp headers. */
  readonly compressedTimestamps?: boolean;
  /** Write speed and altitude as the enhanced (32-bit) fields. */
  readonly enhanced?: boolean;
}

/** What `encodeFit` takes: a decoded activity, `skippedMessages` optional. */
export type FitActivityInput = Omit<FitActivity, 'skippedMessages' | 'lengths' | 'damage'> & {
  readonly skippedMessages?: number;
  readonly lengths?: FitActivity['lengths'];
};

class ByteWriter {
  bytes = new Uint8Array(64 * 1024);
  view = new DataView(this.bytes.buffer);
  length = 0;

  reserve(count: number): number {
    if (this.length + count > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + count));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
      this.view = new DataView(grown.buffer);
    }
    const at = this.length;
    this.length += count;
    return at;
  }

  byte(value: number): void {
    this.bytes[this.reserve(1)] = value;
  }
}

interface FieldOut {
  readonly num: number;
  readonly size: number;
  readonly type: BaseType;
  readonly write: (view: DataView, at: number, value: unknown, little: boolean) => void;
  readonly developerIndex?: number;
}

const RANGES: Readonly<Record<number, readonly [number, number]>> = {
  0x00: [0, 254],
  0x01: [-128, 126],
  0x02: [0, 254],
  0x0d: [0, 254],
  0x0a: [1, 255],
  0x83: [-32768, 32766],
  0x84: [0, 65534],
  0x8b: [1, 65535],
  0x85: [-2147483648, 2147483646],
  0x86: [0, 4294967294],
  0x8c: [1, 4294967295],
};

function toRaw(value: number, spec: FieldSpec | undefined): number {
  switch (spec?.conversion) {
    case 'timestamp':
      return value - FIT_EPOCH_S;
    case 'semicircles':
      return Math.round(value / DEGREES_PER_SEMICIRCLE);
    default:
      return spec && (spec.scale !== undefined || spec.offset !== undefined)
        ? Math.round((value + (spec.offset ?? 0)) * (spec.scale ?? 1))
        : value;
  }
}

function checkedWrite(
  view: DataView,
  at: number,
  type: BaseType,
  raw: number | undefined,
  little: boolean,
  name: string,
): void {
  if (raw !== undefined && !Number.isNaN(raw)) {
    const range = RANGES[type.id];
    if (range && (raw < range[0] || raw > range[1] || !Number.isInteger(raw)))
      throw new RangeError(`${name}: ${raw} does not fit a FIT ${type.name}`);
  }
  writeValue(view, at, type, raw, little);
}

const utf8 = new TextEncoder();

function fieldOut(spec: FieldSpec, value: FitValue): FieldOut {
  const type = BaseTypes[spec.type];
  if (spec.conversion === 'string') {
    const size = spec.size ?? 16;
    return {
      num: spec.num,
      size,
      type,
      write: (view, at, text) => {
        const encoded = utf8.encode(String(text)).subarray(0, size - 1);
        for (let i = 0; i < size; i++) view.setUint8(at + i, i < encoded.length ? encoded[i]! : 0);
      },
    };
  }
  if (spec.array) {
    const count = Array.isArray(value) ? value.length : 1;
    return {
      num: spec.num,
      size: count * type.size,
      type,
      write: (view, at, values, little) => {
        (values as number[]).forEach((element, i) =>
          checkedWrite(view, at + i * type.size, type, toRaw(element, spec), little, spec.name),
        );
      },
    };
  }
  return {
    num: spec.num,
    size: type.size,
    type,
    write: (view, at, number, little) =>
      checkedWrite(view, at, type, toRaw(number as number, spec), little, spec.name),
  };
}

/**
 * Encodes an activity as a FIT file: file_id, developer data ids and field descriptions,
 * device info, sport, zones target, events, records, laps, time in zone, sessions; header
 * and file CRCs. `decodeFit(encodeFit(x))` gives `x` back for values on the FIT grid
 * (the resolution each field is stored at). Throws `RangeError` for a value a field cannot hold.
 */
export function encodeFit(activity: FitActivityInput, options: FitEncodeOptions = {}): Uint8Array {
  const little = !options.bigEndian;
  const out = new ByteWriter();
  out.reserve(14);
  const developerByName = new Map<
    string,
    { num: number; index: number; type: BaseType; scale: number; offset: number }
  >();
  for (const description of activity.fieldDescriptions) {
    const type =
      typeof description.fitBaseTypeId === 'number'
        ? baseTypeOf(description.fitBaseTypeId)
        : undefined;
    if (
      typeof description.fieldName === 'string' &&
      type &&
      typeof description.fieldDefinitionNumber === 'number' &&
      typeof description.developerDataIndex === 'number'
    ) {
      developerByName.set(description.fieldName, {
        num: description.fieldDefinitionNumber,
        index: description.developerDataIndex,
        type,
        scale:
          typeof description.scale === 'number' && description.scale > 0 ? description.scale : 1,
        offset: typeof description.offset === 'number' ? description.offset : 0,
      });
    }
  }
  const developerOut = (name: string): FieldOut | undefined => {
    const developer = developerByName.get(name);
    if (!developer) return undefined;
    return {
      num: developer.num,
      size: developer.type.size,
      type: developer.type,
      developerIndex: developer.index,
      write: (view, at, value, isLittle) =>
        checkedWrite(
          view,
          at,
          developer.type,
          Math.round(((value as number) + developer.offset) * developer.scale),
          isLittle,
          name,
        ),
    };
  };

  const signatures: (string | undefined)[] = [];
  const define = (local: number, global: number, fields: readonly FieldOut[]) => {
    const signature = `${global}|${fields.map((field) => `${field.num}:${field.size}:${field.developerIndex ?? ''}`).join(',')}`;
    if (signatures[local] === signature) return;
    signatures[local] = signature;
    const developer = fields.filter((field) => field.developerIndex !== undefined);
    const standard = fields.filter((field) => field.developerIndex === undefined);
    out.byte(0x40 | (developer.length > 0 ? 0x20 : 0) | local);
    out.byte(0);
    out.byte(little ? 0 : 1);
    out.view.setUint16(out.reserve(2), global, little);
    out.byte(standard.length);
    for (const field of standard) {
      out.byte(field.num);
      out.byte(field.size);
      out.byte(field.type.id);
    }
    if (developer.length > 0) {
      out.byte(developer.length);
      for (const field of developer) {
        out.byte(field.num);
        out.byte(field.size);
        out.byte(field.developerIndex!);
      }
    }
  };
  const writeFields = (fields: readonly FieldOut[], values: readonly unknown[]) => {
    const size = fields.reduce((sum, field) => sum + field.size, 0);
    let at = out.reserve(size);
    fields.forEach((field, i) => {
      field.write(out.view, at, values[i], little);
      at += field.size;
    });
  };

  const writeMessage = (spec: MessageSpec, message: FitMessage) => {
    const fields: FieldOut[] = [];
    const values: unknown[] = [];
    for (const [name, value] of Object.entries(message)) {
      const fieldSpec = spec.fields.find((field) => field.name === name);
      const field = fieldSpec ? fieldOut(fieldSpec, value) : developerOut(name);
      if (!field) continue;
      fields.push(field);
      values.push(value);
    }
    define(0, spec.num, fields);
    out.byte(0);
    writeFields(fields, values);
  };
  const writeAll = (num: number, list: readonly FitMessage[]) => {
    const spec = messageByNum.get(num)!;
    for (const message of list) writeMessage(spec, message);
  };

  if (activity.fileId) writeAll(MesgNum.fileId, [activity.fileId]);
  writeAll(MesgNum.developerDataId, activity.developerDataIds);
  writeAll(MesgNum.fieldDescription, activity.fieldDescriptions);
  writeAll(MesgNum.deviceInfo, activity.deviceInfos);
  writeAll(MesgNum.sport, activity.sports);
  writeAll(MesgNum.zonesTarget, activity.zonesTargets);
  writeAll(MesgNum.event, activity.events);
  writeRecords(activity, options, define, writeFields, out, developerOut);
  writeAll(MesgNum.lap, activity.laps);
  writeAll(MesgNum.length, activity.lengths ?? []);
  writeAll(MesgNum.timeInZone, activity.timeInZones);
  writeAll(MesgNum.session, activity.sessions);

  const dataSize = out.length - 14;
  const header = out.bytes;
  header[0] = 14;
  header[1] = 0x20;
  out.view.setUint16(2, 2132, true);
  out.view.setUint32(4, dataSize, true);
  header.set([0x2e, 0x46, 0x49, 0x54], 8);
  out.view.setUint16(12, fitCrc16(header, 0, 12), true);
  const crc = fitCrc16(out.bytes, 0, out.length);
  out.view.setUint16(out.reserve(2), crc, true);
  return out.bytes.slice(0, out.length);
}

function writeRecords(
  activity: FitActivityInput,
  options: FitEncodeOptions,
  define: (local: number, global: number, fields: readonly FieldOut[]) => void,
  writeFields: (fields: readonly FieldOut[], values: readonly unknown[]) => void,
  out: ByteWriter,
  developerOut: (name: string) => FieldOut | undefined,
): void {
  const { records } = activity;
  if (records.length === 0) return;
  const spec = messageByNum.get(MesgNum.record)!;
  const specOf = (name: string) => spec.fields.find((field) => field.name === name)!;
  const used = (column: Float64Array | undefined): column is Float64Array =>
    column !== undefined && column.some((value) => !Number.isNaN(value));
  const columns: { out: FieldOut; values: Float64Array; balance?: boolean }[] = [];
  const add = (columnName: RecordColumnName | SensorColumnName, specName: string) => {
    const values = records[columnName];
    if (!used(values)) return;
    const fieldSpec = specOf(specName);
    columns.push({ out: fieldOut(fieldSpec, 0), values });
  };
  add('latitude', 'latitude');
  add('longitude', 'longitude');
  add('altitude', options.enhanced ? 'enhancedAltitude' : 'altitude');
  add('heartRate', 'heartRate');
  add('cadence', 'cadence');
  add('distance', 'distance');
  add('speed', options.enhanced ? 'enhancedSpeed' : 'speed');
  add('power', 'power');
  add('temperature', 'temperature');
  if (used(records.leftRightBalance)) {
    const type = BaseTypes.uint8;
    columns.push({
      out: {
        num: 30,
        size: 1,
        type,
        write: (view, at, left, little) =>
          checkedWrite(
            view,
            at,
            type,
            Number.isNaN(left) ? undefined : 0x80 | Math.round(100 - (left as number)),
            little,
            'leftRightBalance',
          ),
      },
      values: records.leftRightBalance,
    });
  }
  add('leftTorqueEffectiveness', 'leftTorqueEffectiveness');
  add('rightTorqueEffectiveness', 'rightTorqueEffectiveness');
  add('leftPedalSmoothness', 'leftPedalSmoothness');
  add('rightPedalSmoothness', 'rightPedalSmoothness');
  add('combinedPedalSmoothness', 'combinedPedalSmoothness');
  // The sensor columns share their field's name.
  for (const name of sensorColumnNames) add(name, name);
  for (const [name, values] of Object.entries(records.developer)) {
    const field = developerOut(name);
    if (!field) throw new RangeError(`Developer column ${name} has no field description`);
    columns.push({ out: field, values });
  }
  const timestampField = fieldOut(specOf('timestamp'), 0);
  const withTime = [timestampField, ...columns.map((column) => column.out)];
  const withoutTime = columns.map((column) => column.out);
  const compressed = options.compressedTimestamps === true;
  let last = Number.NaN;
  for (let row = 0; row < records.length; row++) {
    const time = records.timestamp[row]!;
    const values = columns.map((column) => column.values[row]);
    const delta = time - last;
    if (compressed && delta >= 0 && delta < 32 && Number.isInteger(time)) {
      define(1, MesgNum.record, withoutTime);
      out.byte(0x80 | (1 << 5) | ((time - FIT_EPOCH_S) & 0x1f));
      writeFields(withoutTime, values);
    } else {
      define(2, MesgNum.record, withTime);
      out.byte(2);
      writeFields(withTime, [time, ...values]);
    }
    if (!Number.isNaN(time)) last = time;
  }
}
