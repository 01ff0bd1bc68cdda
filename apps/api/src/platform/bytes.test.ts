import { describe, expect, it } from 'vitest';
import { bytesText } from './bytes.ts';

describe('sizes in limits’ messages', () => {
  it('says each size in the largest unit it has at least one of', () => {
    expect(bytesText(20 * 2 ** 20)).toBe('20 MB');
    expect(bytesText(4 * 2 ** 30)).toBe('4 GB');
    expect(bytesText(1.5 * 2 ** 30)).toBe('1.5 GB');
    expect(bytesText(512 * 1024)).toBe('512 kB');
    expect(bytesText(1000)).toBe('1,000 bytes');
    expect(bytesText(64 * 2 ** 20 + 1)).toBe('64 MB');
  });
});
