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
