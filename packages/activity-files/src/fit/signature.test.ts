import { describe, expect, it } from 'vitest';
import { wrapFit } from '../testing/fitBytes.ts';
import { decodeFit, hasFitSignature } from './decode.ts';

describe('hasFitSignature', () => {
  // A file with a header and no messages: all the signature needs.
  const fit = wrapFit([]);

  it('is true for a FIT header', () => {
    expect(hasFitSignature(fit)).toBe(true);
    expect(hasFitSignature(wrapFit([], { headerSize: 12 }))).toBe(true);
  });

  it('is false for other formats and for files too short for a header', () => {
    expect(hasFitSignature(new TextEncoder().encode('<?xml version="1.0"?><gpx></gpx>'))).toBe(
      false,
    );
    expect(hasFitSignature(fit.subarray(0, 11))).toBe(false);
  });

  it('reads the header at an offset (chained files)', () => {
    const chained = new Uint8Array(fit.length + 3);
    chained.set(fit, 3);
    expect(hasFitSignature(chained)).toBe(false);
    expect(hasFitSignature(chained, 3)).toBe(true);
  });

  it('is what the decoder refuses a file for: a broken signature is the "signature" error', () => {
    const broken = fit.slice();
    broken[9] = 0x00;
    expect(hasFitSignature(broken)).toBe(false);
    const result = decodeFit(broken);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('signature');
  });
});
