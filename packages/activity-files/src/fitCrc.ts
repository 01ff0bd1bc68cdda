// The FIT protocol's CRC-16 (polynomial 0xA001, reflected), computed four bits at a time
// with the 16-entry table of the public FIT protocol description.
const NIBBLE_TABLE = [
  0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401, 0xa001, 0x6c00, 0x7800, 0xb401,
  0x5000, 0x9c01, 0x8801, 0x4400,
] as const;

// The same CRC a byte at a time: entry b is the nibble step applied to the two halves of b.
const BYTE_TABLE = new Uint16Array(256);
for (let byte = 0; byte < 256; byte++) {
  let crc = 0;
  for (const nibble of [byte & 0xf, byte >> 4]) {
    const tmp = NIBBLE_TABLE[crc & 0xf]!;
    crc = ((crc >> 4) & 0x0fff) ^ tmp ^ NIBBLE_TABLE[nibble]!;
  }
  BYTE_TABLE[byte] = crc;
}

// Slicing by four: TABLES[k][b] is BYTE_TABLE[b] followed by k zero bytes.
const TABLES = [BYTE_TABLE, new Uint16Array(256), new Uint16Array(256), new Uint16Array(256)];
for (let k = 1; k < 4; k++) {
  for (let byte = 0; byte < 256; byte++) {
    const previous = TABLES[k - 1]![byte]!;
    TABLES[k]![byte] = (previous >>> 8) ^ BYTE_TABLE[previous & 0xff]!;
  }
}
const [T0, T1, T2, T3] = TABLES as [Uint16Array, Uint16Array, Uint16Array, Uint16Array];

/**
 * CRC-16 of `bytes[start, end)` as the FIT protocol defines it, continuing from `crc`.
 *
 * @example
 * fitCrc16(new TextEncoder().encode('123456789')); // 0xbb3d
 */
export function fitCrc16(bytes: Uint8Array, start = 0, end = bytes.length, crc = 0): number {
  // Linear in the low byte: crc' = (crc >> 8) ^ T[(crc ^ byte) & 0xff].
  let i = start;
  for (; i + 4 <= end; i += 4) {
    const low = crc ^ bytes[i]!;
    const high = (crc >>> 8) ^ bytes[i + 1]!;
    crc = T3[low & 0xff]! ^ T2[high & 0xff]! ^ T1[bytes[i + 2]!]! ^ T0[bytes[i + 3]!]!;
  }
  for (; i < end; i++) crc = (crc >>> 8) ^ T0[(crc ^ bytes[i]!) & 0xff]!;
  return crc;
}
