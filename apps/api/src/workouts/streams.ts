import type { StoredStreams } from './analyse.ts';

// Streams are stored as one bytea: a 4-byte little-endian header length, a JSON header
// `{ length, names }`, padding to 8 bytes, then each column's Float64 values in order.

export function packStreams(streams: StoredStreams): Uint8Array {
  const names = Object.keys(streams);
  const length = streams.time?.length ?? 0;
  const header = new TextEncoder().encode(JSON.stringify({ length, names }));
  const dataStart = Math.ceil((4 + header.length) / 8) * 8;
  const bytes = new Uint8Array(dataStart + names.length * length * 8);
  new DataView(bytes.buffer).setUint32(0, header.length, true);
  bytes.set(header, 4);
  names.forEach((name, index) => {
    const column = streams[name]!;
    bytes.set(
      new Uint8Array(column.buffer, column.byteOffset, length * 8),
      dataStart + index * length * 8,
    );
  });
  return bytes;
}

export function unpackStreams(stored: Uint8Array): StoredStreams {
  const copy = new Uint8Array(stored); // aligned, owned
  const headerLength = new DataView(copy.buffer).getUint32(0, true);
  const { length, names } = JSON.parse(
    new TextDecoder().decode(copy.subarray(4, 4 + headerLength)),
  ) as {
    length: number;
    names: string[];
  };
  const dataStart = Math.ceil((4 + headerLength) / 8) * 8;
  const streams: StoredStreams = {};
  names.forEach((name, index) => {
    streams[name] = new Float64Array(copy.buffer, dataStart + index * length * 8, length);
  });
  return streams;
}

export const packCurve = (curve: Float64Array | null) =>
  curve ? new Uint8Array(curve.buffer, curve.byteOffset, curve.byteLength) : null;

export const unpackCurve = (stored: Uint8Array | null): Float64Array | null =>
  stored ? new Float64Array(new Uint8Array(stored).buffer) : null;
