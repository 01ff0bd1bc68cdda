// The FIT reader: frames a file's messages and reads them into columns and message lists.
import { DecodeFailure, fitError, type ActivityFileError } from '../errors.ts';
import { fitCrc16 } from '../fitCrc.ts';
import { baseTypeOf, readColumn, readNumber, readValue } from './baseTypes.ts';
import { ColumnBuilder, DISTANCE_SLOT, SPEED_SLOT, TIMESTAMP_SLOT } from './columns.ts';
import {
  COMPRESSED_SPEED_DISTANCE,
  DefinitionReader,
  SCALED,
  SEMICIRCLES,
  TIMESTAMP,
  type Definition,
  type FieldPlan,
  type RecordFieldPlan,
} from './definitions.ts';
import { DEGREES_PER_SEMICIRCLE, FIT_EPOCH_S, type FieldSpec } from './profile.ts';
import { hasFitSignature } from './signature.ts';
import type { FitActivity, FitMessage, FitValue } from './types.ts';

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
export class FitReader {
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

  private readonly bytes: Uint8Array;
  private readonly strict: boolean;
  private readonly definitionReader: DefinitionReader;
  constructor(bytes: Uint8Array, strict: boolean) {
    this.bytes = bytes;
    this.strict = strict;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.definitionReader = new DefinitionReader(bytes, this.view, this.records);
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
        position = this.definitionReader.readDefinition(header, position, end, definitions);
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
        this.definitionReader.describe(`${index}:${num}`, {
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
