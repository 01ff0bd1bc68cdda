/** A FIT base type: its id byte, size in bytes, and the raw value that means "invalid". */
export interface BaseType {
  readonly id: number;
  readonly size: number;
  readonly name: string;
}

/** The base types of the FIT protocol. */
export const BaseTypes = {
  enum: { id: 0x00, size: 1, name: 'enum' },
  sint8: { id: 0x01, size: 1, name: 'sint8' },
  uint8: { id: 0x02, size: 1, name: 'uint8' },
  sint16: { id: 0x83, size: 2, name: 'sint16' },
  uint16: { id: 0x84, size: 2, name: 'uint16' },
  sint32: { id: 0x85, size: 4, name: 'sint32' },
  uint32: { id: 0x86, size: 4, name: 'uint32' },
  string: { id: 0x07, size: 1, name: 'string' },
  float32: { id: 0x88, size: 4, name: 'float32' },
  float64: { id: 0x89, size: 8, name: 'float64' },
  uint8z: { id: 0x0a, size: 1, name: 'uint8z' },
  uint16z: { id: 0x8b, size: 2, name: 'uint16z' },
  uint32z: { id: 0x8c, size: 4, name: 'uint32z' },
  byte: { id: 0x0d, size: 1, name: 'byte' },
  sint64: { id: 0x8e, size: 8, name: 'sint64' },
  uint64: { id: 0x8f, size: 8, name: 'uint64' },
  uint64z: { id: 0x90, size: 8, name: 'uint64z' },
} as const satisfies Record<string, BaseType>;

export type BaseTypeName = keyof typeof BaseTypes;

const byId = new Map<number, BaseType>(Object.values(BaseTypes).map((type) => [type.id, type]));
// Some writers leave the endian bit (0x80) off multi-byte types; the low 5 bits name the type.
const byNumber = new Map<number, BaseType>(
  Object.values(BaseTypes).map((type) => [type.id & 0x1f, type]),
);

/** The base type of an id byte, or `undefined` for an unknown one. */
export function baseTypeOf(id: number): BaseType | undefined {
  return byId.get(id) ?? byNumber.get(id & 0x1f);
}

/**
 * Reads one value of a base type at `offset`; `undefined` for the type's invalid sentinel
 * (0xFF.. for unsigned, 0x7F.. for signed, 0 for the `z` types and empty strings).
 */
export function readValue(
  view: DataView,
  offset: number,
  type: BaseType,
  little: boolean,
): number | undefined {
  switch (type.id) {
    case 0x00:
    case 0x02:
    case 0x0d: {
      const value = view.getUint8(offset);
      return value === 0xff ? undefined : value;
    }
    case 0x01: {
      const value = view.getInt8(offset);
      return value === 0x7f ? undefined : value;
    }
    case 0x0a: {
      const value = view.getUint8(offset);
      return value === 0 ? undefined : value;
    }
    case 0x83: {
      const value = view.getInt16(offset, little);
      return value === 0x7fff ? undefined : value;
    }
    case 0x84: {
      const value = view.getUint16(offset, little);
      return value === 0xffff ? undefined : value;
    }
    case 0x8b: {
      const value = view.getUint16(offset, little);
      return value === 0 ? undefined : value;
    }
    case 0x85: {
      const value = view.getInt32(offset, little);
      return value === 0x7fffffff ? undefined : value;
    }
    case 0x86: {
      const value = view.getUint32(offset, little);
      return value === 0xffffffff ? undefined : value;
    }
    case 0x8c: {
      const value = view.getUint32(offset, little);
      return value === 0 ? undefined : value;
    }
    case 0x88: {
      if (view.getUint32(offset, little) === 0xffffffff) return undefined;
      return view.getFloat32(offset, little);
    }
    case 0x89: {
      if (
        view.getUint32(offset, little) === 0xffffffff &&
        view.getUint32(offset + 4, little) === 0xffffffff
      )
        return undefined;
      return view.getFloat64(offset, little);
    }
    case 0x8e: {
      const value = view.getBigInt64(offset, little);
      return value === 0x7fffffffffffffffn ? undefined : Number(value);
    }
    case 0x8f: {
      const value = view.getBigUint64(offset, little);
      return value === 0xffffffffffffffffn ? undefined : Number(value);
    }
    case 0x90: {
      const value = view.getBigUint64(offset, little);
      return value === 0n ? undefined : Number(value);
    }
    default:
      return undefined;
  }
}

/** Writes one value, or the type's invalid sentinel for `undefined` / NaN. */
export function writeValue(
  view: DataView,
  offset: number,
  type: BaseType,
  value: number | undefined,
  little: boolean,
): void {
  const missing = value === undefined || Number.isNaN(value);
  switch (type.id) {
    case 0x00:
    case 0x02:
    case 0x0d:
      view.setUint8(offset, missing ? 0xff : value);
      return;
    case 0x01:
      view.setInt8(offset, missing ? 0x7f : value);
      return;
    case 0x0a:
      view.setUint8(offset, missing ? 0 : value);
      return;
    case 0x83:
      view.setInt16(offset, missing ? 0x7fff : value, little);
      return;
    case 0x84:
      view.setUint16(offset, missing ? 0xffff : value, little);
      return;
    case 0x8b:
      view.setUint16(offset, missing ? 0 : value, little);
      return;
    case 0x85:
      view.setInt32(offset, missing ? 0x7fffffff : value, little);
      return;
    case 0x86:
      view.setUint32(offset, missing ? 0xffffffff : value, little);
      return;
    case 0x8c:
      view.setUint32(offset, missing ? 0 : value, little);
      return;
    case 0x88:
      if (missing) view.setUint32(offset, 0xffffffff, little);
      else view.setFloat32(offset, value, little);
      return;
    case 0x89:
      if (missing) {
        view.setUint32(offset, 0xffffffff, little);
        view.setUint32(offset + 4, 0xffffffff, little);
      } else view.setFloat64(offset, value, little);
      return;
    case 0x8e:
      view.setBigInt64(offset, missing ? 0x7fffffffffffffffn : BigInt(Math.round(value)), little);
      return;
    case 0x8f:
      view.setBigUint64(offset, missing ? 0xffffffffffffffffn : BigInt(Math.round(value)), little);
      return;
    case 0x90:
      view.setBigUint64(offset, missing ? 0n : BigInt(Math.round(value)), little);
      return;
    default:
      for (let i = 0; i < type.size; i++) view.setUint8(offset + i, 0xff);
  }
}

/**
 * A small integer naming how to read a base type in one byte order, for `readNumber`: the
 * record hot path resolves it once per definition instead of switching on the type per value.
 */
export function readerKind(type: BaseType, little: boolean): number {
  const order = little || type.size === 1 ? 0 : 16;
  switch (type.id) {
    case 0x00:
    case 0x02:
    case 0x0d:
      return 1;
    case 0x01:
      return 2;
    case 0x0a:
      return 3;
    case 0x84:
      return 4 + order;
    case 0x83:
      return 5 + order;
    case 0x8b:
      return 6 + order;
    case 0x86:
      return 7 + order;
    case 0x85:
      return 8 + order;
    case 0x8c:
      return 9 + order;
    default:
      return little ? 0 : 16;
  }
}

/**
 * Reads one value by `readerKind`; NaN for the invalid sentinel. Kinds 0 and 16 (floats,
 * 64-bit types) go through `readValue`.
 */
export function readNumber(
  bytes: Uint8Array,
  view: DataView,
  offset: number,
  kind: number,
  type: BaseType,
): number {
  let value: number;
  switch (kind) {
    case 1:
      value = bytes[offset]!;
      return value === 0xff ? Number.NaN : value;
    case 2:
      value = (bytes[offset]! << 24) >> 24;
      return value === 0x7f ? Number.NaN : value;
    case 3:
      value = bytes[offset]!;
      return value === 0 ? Number.NaN : value;
    case 4:
      value = bytes[offset]! | (bytes[offset + 1]! << 8);
      return value === 0xffff ? Number.NaN : value;
    case 20:
      value = (bytes[offset]! << 8) | bytes[offset + 1]!;
      return value === 0xffff ? Number.NaN : value;
    case 5:
      value = ((bytes[offset]! | (bytes[offset + 1]! << 8)) << 16) >> 16;
      return value === 0x7fff ? Number.NaN : value;
    case 21:
      value = (((bytes[offset]! << 8) | bytes[offset + 1]!) << 16) >> 16;
      return value === 0x7fff ? Number.NaN : value;
    case 6:
      value = bytes[offset]! | (bytes[offset + 1]! << 8);
      return value === 0 ? Number.NaN : value;
    case 22:
      value = (bytes[offset]! << 8) | bytes[offset + 1]!;
      return value === 0 ? Number.NaN : value;
    case 7:
    case 9:
      value =
        (bytes[offset]! |
          (bytes[offset + 1]! << 8) |
          (bytes[offset + 2]! << 16) |
          (bytes[offset + 3]! << 24)) >>>
        0;
      return value === (kind === 7 ? 0xffffffff : 0) ? Number.NaN : value;
    case 23:
    case 25:
      value =
        ((bytes[offset]! << 24) |
          (bytes[offset + 1]! << 16) |
          (bytes[offset + 2]! << 8) |
          bytes[offset + 3]!) >>>
        0;
      return value === (kind === 23 ? 0xffffffff : 0) ? Number.NaN : value;
    case 8:
      value =
        bytes[offset]! |
        (bytes[offset + 1]! << 8) |
        (bytes[offset + 2]! << 16) |
        (bytes[offset + 3]! << 24);
      return value === 0x7fffffff ? Number.NaN : value;
    case 24:
      value =
        (bytes[offset]! << 24) |
        (bytes[offset + 1]! << 16) |
        (bytes[offset + 2]! << 8) |
        bytes[offset + 3]!;
      return value === 0x7fffffff ? Number.NaN : value;
    default:
      return readValue(view, offset, type, kind === 0) ?? Number.NaN;
  }
}

/**
 * Reads `count` values of one kind, the first at `start`, each `stride` bytes after the last,
 * into `out` (NaN for invalid). The common kinds have their own loops.
 */
export function readColumn(
  bytes: Uint8Array,
  view: DataView,
  start: number,
  stride: number,
  count: number,
  kind: number,
  type: BaseType,
  out: Float64Array,
): void {
  let at = start;
  switch (kind) {
    case 1:
      for (let r = 0; r < count; r++, at += stride) {
        const value = bytes[at]!;
        out[r] = value === 0xff ? Number.NaN : value;
      }
      return;
    case 4:
      for (let r = 0; r < count; r++, at += stride) {
        const value = bytes[at]! | (bytes[at + 1]! << 8);
        out[r] = value === 0xffff ? Number.NaN : value;
      }
      return;
    case 5:
      for (let r = 0; r < count; r++, at += stride) {
        const value = ((bytes[at]! | (bytes[at + 1]! << 8)) << 16) >> 16;
        out[r] = value === 0x7fff ? Number.NaN : value;
      }
      return;
    case 7:
      for (let r = 0; r < count; r++, at += stride) {
        const value =
          (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>>
          0;
        out[r] = value === 0xffffffff ? Number.NaN : value;
      }
      return;
    case 8:
      for (let r = 0; r < count; r++, at += stride) {
        const value =
          bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
        out[r] = value === 0x7fffffff ? Number.NaN : value;
      }
      return;
    default:
      for (let r = 0; r < count; r++, at += stride)
        out[r] = readNumber(bytes, view, at, kind, type);
  }
}
