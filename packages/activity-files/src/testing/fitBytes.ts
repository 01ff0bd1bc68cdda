import { fitCrc16 } from '../fitCrc.ts';

/** Test helper: wraps message bytes in a FIT header (14 bytes, with CRC) and the file CRC. */
export function wrapFit(
  data: readonly number[],
  options: { headerSize?: 12 | 14; dataSize?: number } = {},
): Uint8Array {
  const headerSize = options.headerSize ?? 14;
  const bytes = new Uint8Array(headerSize + data.length + 2);
  const view = new DataView(bytes.buffer);
  bytes[0] = headerSize;
  bytes[1] = 0x20;
  view.setUint16(2, 2132, true);
  view.setUint32(4, options.dataSize ?? data.length, true);
  bytes.set([0x2e, 0x46, 0x49, 0x54], 8);
  if (headerSize === 14) view.setUint16(12, fitCrc16(bytes, 0, 12), true);
  bytes.set(data, headerSize);
  view.setUint16(headerSize + data.length, fitCrc16(bytes, 0, headerSize + data.length), true);
  return bytes;
}

/** Recomputes the file CRC of a single FIT file in place (for tests that tamper with data). */
export function fixCrc(bytes: Uint8Array): Uint8Array {
  const end = bytes.length - 2;
  new DataView(bytes.buffer, bytes.byteOffset).setUint16(end, fitCrc16(bytes, 0, end), true);
  return bytes;
}
