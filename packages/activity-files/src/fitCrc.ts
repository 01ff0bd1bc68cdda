// The FIT protocol's CRC-16 (polynomial 0xA001, reflected), computed four bits at a time
// with the 16-entry table of the public FIT protocol description.
const NIBBLE_TABLE = [
  0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401, 0xa001, 0x6c00, 0x7800, 0xb401,
  0x5000, 0x9c01, 0x8801, 0x4400,
] as const;

/**
 * CRC-16 of `bytes[start, end)` as the FIT protocol defines it, continuing from `crc`.
 *
 * @example
 * fitCrc16(new TextEncoder().encode('123456789')); // 0xbb3d
 */
export function fitCrc16(bytes: Uint8Array, start = 0, end = bytes.length, crc = 0): number {
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    let tmp = NIBBLE_TABLE[crc & 0xf]!;
    crc = (crc >> 4) & 0x0fff;
    crc = crc ^ tmp ^ NIBBLE_TABLE[byte & 0xf]!;
    tmp = NIBBLE_TABLE[crc & 0xf]!;
    crc = (crc >> 4) & 0x0fff;
    crc = crc ^ tmp ^ NIBBLE_TABLE[(byte >> 4) & 0xf]!;
  }
  return crc;
}
