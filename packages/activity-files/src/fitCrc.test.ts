import { describe, expect, it } from 'vitest';
import { fitCrc16 } from './fitCrc.ts';

describe('fitCrc16', () => {
  it('matches the CRC-16/ARC check value', () => {
    // FIT's CRC is CRC-16/ARC; its catalogue check value for "123456789" is 0xBB3D.
    expect(fitCrc16(new TextEncoder().encode('123456789'))).toBe(0xbb3d);
  });
  it('is 0 over data followed by its own little-endian CRC', () => {
    const data = new Uint8Array([14, 0x10, 0x5d, 0x08, 0x22, 0, 0, 0, 0x2e, 0x46, 0x49, 0x54]);
    const crc = fitCrc16(data);
    const whole = new Uint8Array([...data, crc & 0xff, crc >> 8]);
    expect(fitCrc16(whole)).toBe(0);
  });
  it('continues from a previous CRC over a range', () => {
    const bytes = new TextEncoder().encode('123456789');
    expect(fitCrc16(bytes, 4, 9, fitCrc16(bytes, 0, 4))).toBe(0xbb3d);
  });
});
