import { DecodeFailure, fitError, type ActivityFileError, type DecodeResult } from '../errors.ts';
import { fitCrc16 } from '../fitCrc.ts';
import {
  baseTypeOf,
  readColumn,
  readerKind,
  readNumber,
  readValue,
  type BaseType,
} from './baseTypes.ts';
import {
  DEGREES_PER_SEMICIRCLE,
  FIT_EPOCH_S,
  MesgNum,
  messageByNum,
  type FieldSpec,
  type MessageSpec,
} from './profile.ts';
import {
  recordColumnNames,
  type FitActivity,
  type FitMessage,
  type FitValue,
  type RecordColumnName,
  type RecordColumns,
  type SensorColumnName,
} from './types.ts';

/** Limits of `decodeFit`. */
export interface FitDecodeOptions {
  /** Largest file accepted, in bytes (checked before anything is read). Default 64 MiB. */
  readonly maxBytes?: number;
  /**
   * Refuse a damaged file whole (bad CRC, cut short, a broken message) instead of keeping
   * every complete message before the damage. Default `false`: the damage is reported in
   * `FitActivity.damage`.
   */
  readonly strict?: boolean;
}

export const FIT_MAX_BYTES = 64 * 1024 * 1024;

/** ".FIT", at bytes 8-11 of every FIT file's header. */
const FIT_SIGNATURE = [0x2e, 0x46, 0x49, 0x54] as const;

/**
 * Whether the bytes hold a FIT header's signature (".FIT" at bytes 8-11 after `start`): the
 * check the decoder makes, for callers that need to tell a FIT file from other formats.
 *
 * @example
 * hasFitSignature(new TextEncoder().encode('<?xml version="1.0"?>')); // false
 */
export function hasFitSignature(bytes: Uint8Array, start = 0): boolean {
  return (
    bytes.length - start >= 12 && FIT_SIGNATURE.every((byte, i) => bytes[start + 8 + i] === byte)
  );
}

// Where a field's value goes: a record column, a message member, or nowhere.
interface FieldPlan {
  readonly offset: number;
  readonly size: number;
  readonly type: BaseType;
  readonly spec?: FieldSpec;
  readonly column?: RecordColumnName | SensorColumnName | 'balance';
  readonly developer?: { readonly name: string; readonly scale: number; readonly offset: number };
  readonly isTimestamp: boolean;
}

interface Definition {
  readonly global: number;
  readonly little: boolean;
  readonly size: number;
  readonly fields: readonly FieldPlan[];
  /** For `record` messages: the fields that land in columns, resolved once. */
  readonly recordPlan?: readonly RecordFieldPlan[];
  /** The message's profile entry; absent for messages this codec skips. */
  readonly spec?: MessageSpec;
  /** Skipped messages: only their timestamp field is read (compressed timestamps need it). */
  readonly timestampField?: FieldPlan;
}

// The sensor columns' slots are made when a definition first carries their field.
const recordColumnOf: Readonly<Record<string, RecordColumnName | SensorColumnName>> = {
  timestamp: 'timestamp',
  latitude: 'latitude',
  longitude: 'longitude',
  altitude: 'altitude',
  enhancedAltitude: 'altitude',
  heartRate: 'heartRate',
  cadence: 'cadence',
  distance: 'distance',
  speed: 'speed',
  enhancedSpeed: 'speed',
  power: 'power',
  temperature: 'temperature',
  leftTorqueEffectiveness: 'leftTorqueEffectiveness',
  rightTorqueEffectiveness: 'rightTorqueEffectiveness',
  leftPedalSmoothness: 'leftPedalSmoothness',
  rightPedalSmoothness: 'rightPedalSmoothness',
  combinedPedalSmoothness: 'combinedPedalSmoothness',
  totalHemoglobinConc: 'totalHemoglobinConc',
  totalHemoglobinConcMin: 'totalHemoglobinConcMin',
  totalHemoglobinConcMax: 'totalHemoglobinConcMax',
  saturatedHemoglobinPercent: 'saturatedHemoglobinPercent',
  saturatedHemoglobinPercentMin: 'saturatedHemoglobinPercentMin',
  saturatedHemoglobinPercentMax: 'saturatedHemoglobinPercentMax',
};

function convert(raw: number, spec: FieldSpec | undefined): number {
  if (!spec) return raw;
  switch (spec.conversion) {
    case 'timestamp':
      return raw + FIT_EPOCH_S;
    case 'semicircles':
      return raw * DEGREES_PER_SEMICIRCLE;
    default:
      return spec.scale !== undefined || spec.offset !== undefined
        ? raw / (spec.scale ?? 1) - (spec.offset ?? 0)
        : raw;
  }
}

const utf8 = new TextDecoder('utf-8');
// `recordColumnNames` are the first slots, in order.
const TIMESTAMP_SLOT = recordColumnNames.indexOf('timestamp');
const SPEED_SLOT = recordColumnNames.indexOf('speed');
const DISTANCE_SLOT = recordColumnNames.indexOf('distance');

// Grows one Float64Array per column; columns are addressed by slot number in the hot path.
class ColumnBuilder {
  length = 0;
  private capacity = 1024;
  readonly arrays: Float64Array[] = [];
  private readonly slots = new Map<string, number>();

  constructor() {
    for (const name of recordColumnNames) this.slot(name);
  }

  slot(name: string): number {
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = this.arrays.length;
      this.slots.set(name, slot);
      this.arrays.push(new Float64Array(this.capacity).fill(Number.NaN));
    }
    return slot;
  }

  private reserved = false;

  // Makes room for `rows` more rows at once (a guess from the bytes left), within a bound;
  // once only: files that define records again and again (a Wahoo ELEMNT file has 838
  // definitions, records in 10 sizes) would otherwise regrow every column on a guess.
  reserve(rows: number): void {
    if (this.reserved) return;
    this.reserved = true;
    const wanted = Math.min(this.length + rows, this.length + (1 << 20));
    if (wanted > this.capacity) this.grow(wanted);
  }

  /** Adds `count` rows; returns the first. */
  addRows(count: number): number {
    if (this.length + count > this.capacity)
      this.grow(Math.max(this.capacity * 2, this.length + count));
    const first = this.length;
    this.length += count;
    return first;
  }

  addRow(): number {
    if (this.length === this.capacity) this.grow(this.capacity * 2);
    return this.length++;
  }

  private grow(capacity: number): void {
    this.capacity = capacity;
    for (let i = 0; i < this.arrays.length; i++) {
      const grown = new Float64Array(capacity).fill(Number.NaN);
      grown.set(this.arrays[i]!.subarray(0, this.length));
      this.arrays[i] = grown;
    }
  }

  finish(): RecordColumns {
    // A column at least half used is handed out as a view rather than copied.
    const take = (slot: number) => {
      const array = this.arrays[slot]!;
      return this.length * 2 >= this.capacity
        ? array.subarray(0, this.length)
        : array.slice(0, this.length);
    };
    const developer: Record<string, Float64Array> = {};
    const result: Record<string, unknown> = { length: this.length, developer };
    for (const [name, slot] of this.slots) {
      if (name.startsWith('dev:')) developer[name.slice(4)] = take(slot);
      else result[name] = take(slot);
    }
    return result as RecordColumns;
  }
}

// How a record field's raw value becomes a column value.
const SCALED = 0;
const TIMESTAMP = 1;
const SEMICIRCLES = 2;
const BALANCE = 3;
// The 3-byte compressed speed and distance of low-memory devices (speed 12 bits in 1/100 m/s,
// distance 12 bits in 1/16 m, rolling over at 256 m).
const COMPRESSED_SPEED_DISTANCE = 4;
type RecordMode =
  | typeof SCALED
  | typeof TIMESTAMP
  | typeof SEMICIRCLES
  | typeof BALANCE
  | typeof COMPRESSED_SPEED_DISTANCE;

interface RecordFieldPlan {
  readonly offset: number;
  readonly type: BaseType;
  readonly kind: number;
  readonly slot: number;
  readonly mode: RecordMode;
  readonly scale: number;
  readonly add: number;
  readonly isTimestamp: boolean;
}

interface DeveloperField {
  readonly name: string;
  readonly type: BaseType;
  readonly scale: number;
  readonly offset: number;
}

class FitReader {
  private readonly view: DataView;
  private readonly records = new ColumnBuilder();
  private readonly lists = {
    deviceInfo: [] as FitMessage[],
    sport: [] as FitMessage[],
    zonesTarget: [] as FitMessage[],
    event: [] as FitMessage[],
    lap: [] as FitMessage[],
    length: [] as FitMessage[],
    session: [] as FitMessage[],
    timeInZone: [] as FitMessage[],
    developerDataId: [] as FitMessage[],
    fieldDescription: [] as FitMessage[],
  };
  private fileId: FitMessage | undefined;
  private damage: ActivityFileError | undefined;
  // Compressed distance: metres so far and the last raw 12-bit value.
  private compressedMetres = 0;
  private compressedLast: number | undefined;
  private scratch = new Float64Array(1024);
  private skipped = 0;
  private readonly developerFields = new Map<string, DeveloperField>();
  // Definitions by their bytes; emptied when a developer field is described (the plans of
  // definitions with developer fields depend on the descriptions).
  private readonly definitionCache = new Map<string, Definition>();

  private readonly bytes: Uint8Array;
  private readonly strict: boolean;
  constructor(bytes: Uint8Array, strict: boolean) {
    this.bytes = bytes;
    this.strict = strict;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  readAll(): FitActivity {
    let offset = 0;
    let files = 0;
    while (offset < this.bytes.length && !this.damage) {
      try {
        offset = this.readFile(offset);
      } catch (error) {
        // A chained file after a complete one may be cut short like any other.
        if (!(error instanceof DecodeFailure) || files === 0) throw error;
        this.damaged(error);
      }
      files++;
    }
    if (files === 0) throw fitError('empty', 'The file is empty', 0);
    return {
      ...(this.fileId ? { fileId: this.fileId } : {}),
      deviceInfos: this.lists.deviceInfo,
      sports: this.lists.sport,
      zonesTargets: this.lists.zonesTarget,
      events: this.lists.event,
      laps: this.lists.lap,
      lengths: this.lists.length,
      sessions: this.lists.session,
      timeInZones: this.lists.timeInZone,
      developerDataIds: this.lists.developerDataId,
      fieldDescriptions: this.lists.fieldDescription,
      records: this.records.finish(),
      skippedMessages: this.skipped,
      ...(this.damage ? { damage: this.damage } : {}),
    };
  }

  // Salvage: keeps what was read before `failure`, unless strict or nothing could be kept.
  private damaged(failure: DecodeFailure): void {
    if (this.strict) throw failure;
    this.damage ??= failure.detail;
  }

  // One FIT file from `start`: header, CRCs, then its messages. Returns where the next begins.
  private readFile(start: number): number {
    const { bytes, view } = this;
    if (bytes.length - start < 12)
      throw fitError('truncated', 'The file ends inside a FIT header', start);
    const headerSize = bytes[start]!;
    if (headerSize !== 12 && headerSize !== 14)
      throw fitError('headerSize', `A FIT header is 12 or 14 bytes, not ${headerSize}`, start);
    if (bytes.length - start < headerSize)
      throw fitError('truncated', 'The file ends inside a FIT header', start);
    if (!hasFitSignature(bytes, start)) {
      throw fitError(
        'signature',
        'This is not a FIT file: ".FIT" is missing at bytes 8-11',
        start + 8,
      );
    }
    if (headerSize === 14) {
      const stored = view.getUint16(start + 12, true);
      if (stored !== 0 && stored !== fitCrc16(bytes, start, start + 12))
        throw fitError('headerCrc', 'The FIT header CRC does not match', start + 12);
    }
    const dataSize = view.getUint32(start + 4, true);
    let end = start + headerSize + dataSize;
    if (end + 2 > bytes.length) {
      this.damaged(
        fitError(
          'dataSize',
          `The header announces ${dataSize} bytes of data but the file is shorter: it ended early`,
          bytes.length,
        ),
      );
      end = bytes.length;
    } else if (fitCrc16(bytes, start, end) !== view.getUint16(end, true)) {
      this.damaged(fitError('crc', 'The file CRC does not match: the file is damaged', end));
    }
    try {
      this.readMessages(start + headerSize, end);
    } catch (error) {
      if (!(error instanceof DecodeFailure)) throw error;
      this.damaged(error);
      // Messages after a broken one cannot be framed: the rest of the file is left.
      return bytes.length;
    }
    return end + 2;
  }

  private readMessages(from: number, end: number): void {
    const { bytes } = this;
    const definitions: (Definition | undefined)[] = new Array<Definition | undefined>(16);
    let lastTimestamp: number | undefined;
    let position = from;
    while (position < end) {
      const header = bytes[position]!;
      const headerAt = position;
      position++;
      if ((header & 0x80) !== 0) {
        const definition = definitions[(header >> 5) & 0x03];
        if (!definition)
          throw fitError(
            'undefinedLocalMessage',
            `Compressed-timestamp message for local type ${(header >> 5) & 0x03} before its definition`,
            headerAt,
          );
        if (lastTimestamp === undefined)
          throw fitError(
            'noTimestamp',
            'Compressed-timestamp message before any timestamp',
            headerAt,
          );
        const offsetS = header & 0x1f;
        let timestamp = (lastTimestamp & ~0x1f) + offsetS;
        if (offsetS < (lastTimestamp & 0x1f)) timestamp += 0x20;
        lastTimestamp = timestamp;
        if (position + definition.size > end)
          throw fitError('truncated', 'A message runs past the end of the data', headerAt);
        this.readData(definition, position, timestamp);
        position += definition.size;
      } else if ((header & 0x40) !== 0) {
        position = this.readDefinition(header, position, end, definitions);
      } else {
        const definition = definitions[header & 0x0f];
        if (!definition)
          throw fitError(
            'undefinedLocalMessage',
            `Data message for local type ${header & 0x0f} before its definition`,
            headerAt,
          );
        if (position + definition.size > end)
          throw fitError('truncated', 'A message runs past the end of the data', headerAt);
        if (definition.recordPlan) {
          // Consecutive records under the same header have one layout at a fixed stride:
          // read them column by column.
          const stride = definition.size + 1;
          let count = 1;
          while (
            position + count * stride + definition.size <= end &&
            bytes[position - 1 + count * stride] === header
          )
            count++;
          // A lone record (devices that interleave other messages) reads faster row-wise.
          const timestamp =
            count === 1
              ? this.readRecord(definition.recordPlan, position, undefined)
              : this.readRecordRun(definition.recordPlan, position, stride, count);
          if (timestamp !== undefined) lastTimestamp = timestamp;
          position += count * stride - 1;
          continue;
        }
        const timestamp = this.readData(definition, position, undefined);
        if (timestamp !== undefined) lastTimestamp = timestamp;
        position += definition.size;
      }
    }
  }

  // `count` record messages of one plan, the first at `at`, each `stride` bytes after the
  // last. Returns the last valid timestamp field among them.
  private readRecordRun(
    plan: readonly RecordFieldPlan[],
    at: number,
    stride: number,
    count: number,
  ): number | undefined {
    const { bytes, view, records } = this;
    const first = records.addRows(count);
    const arrays = records.arrays;
    if (this.scratch.length < count)
      this.scratch = new Float64Array(Math.max(count, this.scratch.length * 2));
    const raw = this.scratch;
    let timestamp: number | undefined;
    for (let f = 0; f < plan.length; f++) {
      const field = plan[f]!;
      if (field.mode === COMPRESSED_SPEED_DISTANCE) {
        for (let r = 0; r < count; r++)
          this.readCompressed(at + r * stride + field.offset, first + r);
        continue;
      }
      readColumn(bytes, view, at + field.offset, stride, count, field.kind, field.type, raw);
      const column = arrays[field.slot]!;
      if (field.isTimestamp)
        for (let r = count - 1; r >= 0; r--)
          if (raw[r] === raw[r]) {
            timestamp = raw[r];
            break;
          }
      switch (field.mode) {
        case SCALED: {
          const scale = field.scale;
          const add = field.add;
          for (let r = 0; r < count; r++) {
            const value = raw[r]!;
            if (value === value) column[first + r] = value / scale + add;
          }
          break;
        }
        case TIMESTAMP:
          for (let r = 0; r < count; r++) {
            const value = raw[r]!;
            if (value === value) column[first + r] = value + FIT_EPOCH_S;
          }
          break;
        case SEMICIRCLES:
          for (let r = 0; r < count; r++) {
            const value = raw[r]!;
            if (value === value) column[first + r] = value * DEGREES_PER_SEMICIRCLE;
          }
          break;
        default:
          for (let r = 0; r < count; r++) {
            const value = raw[r]!;
            if (value !== value) continue;
            const percent = value & 0x7f;
            column[first + r] = (value & 0x80) !== 0 ? 100 - percent : percent;
          }
      }
    }
    return timestamp;
  }

  // One compressed speed/distance value into the speed and distance columns of `row`.
  private readCompressed(at: number, row: number): void {
    const { bytes } = this;
    const b0 = bytes[at]!;
    const b1 = bytes[at + 1]!;
    const b2 = bytes[at + 2]!;
    if (b0 === 0xff && b1 === 0xff && b2 === 0xff) return;
    const arrays = this.records.arrays;
    const speed = b0 | ((b1 & 0x0f) << 8);
    if (speed !== 0xfff) arrays[SPEED_SLOT]![row] = speed / 100;
    const raw = (b1 >> 4) | (b2 << 4);
    if (this.compressedLast !== undefined)
      this.compressedMetres += ((raw - this.compressedLast) & 0xfff) / 16;
    this.compressedLast = raw;
    arrays[DISTANCE_SLOT]![row] = this.compressedMetres;
  }

  private readDefinition(
    header: number,
    position: number,
    end: number,
    definitions: (Definition | undefined)[],
  ): number {
    const { bytes, view } = this;
    const at = position - 1;
    if (position + 5 > end)
      throw fitError('truncated', 'A definition runs past the end of the data', at);
    const little = bytes[position + 1] === 0;
    if (bytes[position + 1]! > 1)
      throw fitError('badDefinition', `Unknown architecture ${bytes[position + 1]}`, position + 1);
    const global = view.getUint16(position + 2, little);
    const count = bytes[position + 4]!;
    position += 5;
    if (position + count * 3 > end)
      throw fitError('truncated', 'A definition runs past the end of the data', at);
    // The same definition bytes give the same plan: files that define their messages again
    // before each use (56 distinct among 838 in a Wahoo file) reuse it.
    let definitionEnd = position + count * 3;
    if ((header & 0x20) !== 0 && definitionEnd < end)
      definitionEnd += 1 + bytes[definitionEnd]! * 3;
    const key =
      definitionEnd <= end
        ? String.fromCharCode(header & 0x20, ...bytes.subarray(at + 1, definitionEnd))
        : undefined;
    const known = key === undefined ? undefined : this.definitionCache.get(key);
    if (known) {
      definitions[header & 0x0f] = known;
      return definitionEnd;
    }
    const spec = messageByNum.get(global);
    const fields: FieldPlan[] = [];
    let size = 0;
    for (let i = 0; i < count; i++, position += 3) {
      const num = bytes[position]!;
      const fieldSize = bytes[position + 1]!;
      const type = baseTypeOf(bytes[position + 2]!);
      if (fieldSize === 0)
        throw fitError(
          'badDefinition',
          `Field ${num} of message ${global} has size 0`,
          position + 1,
        );
      const fieldSpec = spec?.fields.find((field) => field.num === num);
      const usable = type !== undefined && fieldSize % type.size === 0 ? type : undefined;
      fields.push({
        offset: size,
        size: fieldSize,
        type: usable ?? { id: 0x0d, size: 1, name: 'byte' },
        ...(fieldSpec && usable ? { spec: fieldSpec } : {}),
        ...(global === MesgNum.record && fieldSpec && usable
          ? {
              column:
                fieldSpec.name === 'leftRightBalance' ? 'balance' : recordColumnOf[fieldSpec.name],
            }
          : {}),
        isTimestamp: num === 253 && usable !== undefined && usable.size === 4,
      });
      size += fieldSize;
    }
    if ((header & 0x20) !== 0) {
      if (position + 1 > end)
        throw fitError('truncated', 'A definition runs past the end of the data', at);
      const developerCount = bytes[position]!;
      position++;
      if (position + developerCount * 3 > end)
        throw fitError('truncated', 'A definition runs past the end of the data', at);
      for (let i = 0; i < developerCount; i++, position += 3) {
        const fieldSize = bytes[position + 1]!;
        if (fieldSize === 0)
          throw fitError('badDefinition', 'A developer field has size 0', position + 1);
        const described = this.developerFields.get(`${bytes[position + 2]}:${bytes[position]}`);
        const fits = described !== undefined && fieldSize % described.type.size === 0;
        fields.push({
          offset: size,
          size: fieldSize,
          type: fits ? described.type : { id: 0x0d, size: 1, name: 'byte' },
          ...(fits
            ? {
                developer: {
                  name: described.name,
                  scale: described.scale,
                  offset: described.offset,
                },
              }
            : {}),
          isTimestamp: false,
        });
        size += fieldSize;
      }
    }
    const recordPlan = global === MesgNum.record ? this.planRecord(fields, little) : undefined;
    // Room for the records the rest of the data could hold, counted at 24 bytes or more a
    // record: a first definition of a few bytes (5 in a Wahoo file) would guess 9x too many.
    if (recordPlan) this.records.reserve(Math.floor((end - position) / (Math.max(size, 24) + 1)));
    const timestampField = spec ? undefined : fields.findLast((field) => field.isTimestamp);
    const definition: Definition = {
      global,
      little,
      size,
      fields,
      ...(recordPlan ? { recordPlan } : {}),
      ...(spec ? { spec } : {}),
      ...(timestampField ? { timestampField } : {}),
    };
    definitions[header & 0x0f] = definition;
    if (key !== undefined) this.definitionCache.set(key, definition);
    return position;
  }

  private planRecord(fields: readonly FieldPlan[], little: boolean): RecordFieldPlan[] {
    const plan: RecordFieldPlan[] = [];
    for (const field of fields) {
      const base = {
        offset: field.offset,
        type: field.type,
        kind: readerKind(field.type, little),
        isTimestamp: field.isTimestamp,
      };
      if (field.developer) {
        // The column exists once a record definition carries the field.
        plan.push({
          ...base,
          slot: this.records.slot(`dev:${field.developer.name}`),
          mode: SCALED,
          scale: field.developer.scale,
          add: -field.developer.offset,
        });
        continue;
      }
      if (field.spec?.name === 'compressedSpeedDistance' && field.size === 3) {
        plan.push({
          ...base,
          slot: this.records.slot('speed'),
          mode: COMPRESSED_SPEED_DISTANCE,
          scale: 1,
          add: 0,
        });
        continue;
      }
      if (!field.column) continue;
      const spec = field.spec;
      const mode: RecordMode =
        field.column === 'balance'
          ? BALANCE
          : spec?.conversion === 'timestamp'
            ? TIMESTAMP
            : spec?.conversion === 'semicircles'
              ? SEMICIRCLES
              : SCALED;
      plan.push({
        ...base,
        slot: this.records.slot(field.column === 'balance' ? 'leftRightBalance' : field.column),
        mode,
        scale: spec?.scale ?? 1,
        add: -(spec?.offset ?? 0),
      });
    }
    return plan;
  }

  // The hot path: one `record` message into the columns, by its resolved plan.
  private readRecord(
    plan: readonly RecordFieldPlan[],
    at: number,
    compressedTimestamp: number | undefined,
  ): number | undefined {
    const { view } = this;
    let timestamp: number | undefined;
    const bytes = this.bytes;
    const records = this.records;
    const row = records.addRow();
    const arrays = records.arrays;
    if (compressedTimestamp !== undefined)
      arrays[TIMESTAMP_SLOT]![row] = compressedTimestamp + FIT_EPOCH_S;
    for (let i = 0; i < plan.length; i++) {
      const field = plan[i]!;
      if (field.mode === COMPRESSED_SPEED_DISTANCE) {
        this.readCompressed(at + field.offset, row);
        continue;
      }
      const raw = readNumber(bytes, view, at + field.offset, field.kind, field.type);
      if (raw !== raw) continue; // NaN: the invalid sentinel
      if (field.isTimestamp) timestamp = raw;
      const column = arrays[field.slot]!;
      switch (field.mode) {
        case SCALED:
          column[row] = raw / field.scale + field.add;
          break;
        case TIMESTAMP:
          column[row] = raw + FIT_EPOCH_S;
          break;
        case SEMICIRCLES:
          column[row] = raw * DEGREES_PER_SEMICIRCLE;
          break;
        default: {
          const percent = raw & 0x7f;
          column[row] = (raw & 0x80) !== 0 ? 100 - percent : percent;
        }
      }
    }
    return timestamp;
  }

  // Reads one data message; returns its timestamp field, if any.
  private readData(
    definition: Definition,
    at: number,
    compressedTimestamp: number | undefined,
  ): number | undefined {
    const { view } = this;
    const little = definition.little;
    let timestamp: number | undefined;
    const plan = definition.recordPlan;
    if (plan) return this.readRecord(plan, at, compressedTimestamp);
    const spec = definition.spec;
    if (!spec) {
      this.skipped++;
      const field = definition.timestampField;
      return field ? readValue(view, at + field.offset, field.type, little) : undefined;
    }
    const message: Record<string, FitValue> = {};
    for (const field of definition.fields) {
      const name = field.spec?.name ?? field.developer?.name;
      if (name === undefined) continue;
      const value = this.fieldValue(field, at, little);
      if (field.isTimestamp && typeof value === 'number') timestamp = value - FIT_EPOCH_S;
      if (value !== undefined)
        Object.defineProperty(message, name, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    if (compressedTimestamp !== undefined && message.timestamp === undefined)
      message.timestamp = compressedTimestamp + FIT_EPOCH_S;
    this.store(spec.name, message);
    return timestamp;
  }

  private fieldValue(field: FieldPlan, at: number, little: boolean): FitValue | undefined {
    const { view, bytes } = this;
    if (field.spec?.conversion === 'string') {
      const start = at + field.offset;
      let stop = start;
      while (stop < start + field.size && bytes[stop] !== 0) stop++;
      return stop > start ? utf8.decode(bytes.subarray(start, stop)) : undefined;
    }
    const count = field.size / field.type.size;
    const one = (index: number) => {
      const raw = readValue(view, at + field.offset + index * field.type.size, field.type, little);
      if (raw === undefined) return undefined;
      return field.developer
        ? raw / field.developer.scale - field.developer.offset
        : convert(raw, field.spec);
    };
    if (field.spec?.array || (count > 1 && !field.spec)) {
      const values: number[] = [];
      for (let i = 0; i < count; i++) {
        const value = one(i);
        if (value !== undefined) values.push(value);
      }
      return values.length > 0 ? values : undefined;
    }
    return one(0);
  }

  private store(name: string, message: FitMessage): void {
    if (name === 'fileId') {
      this.fileId ??= message;
      return;
    }
    if (name === 'fieldDescription') {
      const index = message.developerDataIndex;
      const num = message.fieldDefinitionNumber;
      const type =
        typeof message.fitBaseTypeId === 'number' ? baseTypeOf(message.fitBaseTypeId) : undefined;
      if (
        typeof index === 'number' &&
        typeof num === 'number' &&
        type &&
        typeof message.fieldName === 'string'
      ) {
        const scale = typeof message.scale === 'number' && message.scale > 0 ? message.scale : 1;
        const offset = typeof message.offset === 'number' ? message.offset : 0;
        this.definitionCache.clear();
        this.developerFields.set(`${index}:${num}`, {
          name: message.fieldName,
          type,
          scale,
          offset,
        });
      }
    }
    (this.lists as Record<string, FitMessage[]>)[name]?.push(message);
  }
}

/**
 * Decodes a FIT file (or several chained ones) into messages and columnar records.
 *
 * @remarks
 * Checks the size cap, the header and its CRC before reading any message. A file cut short,
 * with a bad file CRC or a broken message keeps every complete message before the damage
 * and says so in `damage` (with `strict: true` it is refused whole instead); a file whose
 * first header cannot be read is always refused. Unknown messages are skipped and counted; unknown
 * fields are skipped; invalid values (the base type's sentinel) are absent (NaN in record
 * columns). Never throws: errors carry a code, a message id and a byte offset.
 *
 * @example
 * const result = decodeFit(bytes);
 * if (result.ok) result.value.records.power; // Float64Array of watts
 */
export function decodeFit(
  input: Uint8Array | ArrayBuffer,
  options: FitDecodeOptions = {},
): DecodeResult<FitActivity> {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const maxBytes = options.maxBytes ?? FIT_MAX_BYTES;
  if (bytes.length > maxBytes) {
    return {
      ok: false,
      error: {
        code: 'tooLarge',
        messageId: 'activityFiles.fit.tooLarge',
        message: `The file is larger than ${maxBytes} bytes`,
        byteOffset: 0,
      },
    };
  }
  try {
    return { ok: true, value: new FitReader(bytes, options.strict ?? false).readAll() };
  } catch (error) {
    if (error instanceof DecodeFailure) return { ok: false, error: error.detail };
    if (error instanceof RangeError) {
      return {
        ok: false,
        error: {
          code: 'truncated',
          messageId: 'activityFiles.fit.truncated',
          message: 'The file ends unexpectedly',
          byteOffset: bytes.length,
        },
      };
    }
    throw error;
  }
}
