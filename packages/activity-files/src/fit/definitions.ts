// Definition messages: each field's place (a record column, a message member) and its plan.
import { fitError } from '../errors.ts';
import { baseTypeOf, readerKind, type BaseType } from './baseTypes.ts';
import type { ColumnBuilder } from './columns.ts';
import { MesgNum, messageByNum, type FieldSpec, type MessageSpec } from './profile.ts';
import type { RecordColumnName, SensorColumnName } from './types.ts';

// Where a field's value goes: a record column, a message member, or nowhere.
export interface FieldPlan {
  readonly offset: number;
  readonly size: number;
  readonly type: BaseType;
  readonly spec?: FieldSpec;
  readonly column?: RecordColumnName | SensorColumnName | 'balance';
  readonly developer?: { readonly name: string; readonly scale: number; readonly offset: number };
  readonly isTimestamp: boolean;
}

export interface Definition {
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

// How a record field's raw value becomes a column value.
export const SCALED = 0;
export const TIMESTAMP = 1;
export const SEMICIRCLES = 2;
const BALANCE = 3;
// The 3-byte compressed speed and distance of low-memory devices (speed 12 bits in 1/100 m/s,
// distance 12 bits in 1/16 m, rolling over at 256 m).
export const COMPRESSED_SPEED_DISTANCE = 4;
type RecordMode =
  | typeof SCALED
  | typeof TIMESTAMP
  | typeof SEMICIRCLES
  | typeof BALANCE
  | typeof COMPRESSED_SPEED_DISTANCE;

export interface RecordFieldPlan {
  readonly offset: number;
  readonly type: BaseType;
  readonly kind: number;
  readonly slot: number;
  readonly mode: RecordMode;
  readonly scale: number;
  readonly add: number;
  readonly isTimestamp: boolean;
}

export interface DeveloperField {
  readonly name: string;
  readonly type: BaseType;
  readonly scale: number;
  readonly offset: number;
}

/**
 * Reads definition messages into plans: where each field's value goes, worked out once per
 * distinct definition (for `record` messages, down to the column slot).
 */
export class DefinitionReader {
  private readonly developerFields = new Map<string, DeveloperField>();
  // Definitions by their bytes; emptied when a developer field is described (the plans of
  // definitions with developer fields depend on the descriptions).
  private readonly definitionCache = new Map<string, Definition>();

  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private readonly records: ColumnBuilder;
  constructor(bytes: Uint8Array, view: DataView, records: ColumnBuilder) {
    this.bytes = bytes;
    this.view = view;
    this.records = records;
  }

  /** A developer field a `field_description` message describes (`key`: `<index>:<num>`). */
  describe(key: string, field: DeveloperField): void {
    this.definitionCache.clear();
    this.developerFields.set(key, field);
  }

  readDefinition(
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
}
