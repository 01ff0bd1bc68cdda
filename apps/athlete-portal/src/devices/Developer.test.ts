import { describe, expect, it } from 'vitest';
import { channelOf } from './Developer.tsx';

describe('channelOf', () => {
  it('puts pre-release firmware on the beta channel', () => {
    expect(channelOf('2.4.1')).toBe('stable');
    expect(channelOf('2.5.0-beta.3')).toBe('beta');
    expect(channelOf('3.0.0-rc1')).toBe('stable');
    expect(channelOf('3.0.0-rc.1')).toBe('beta');
  });
});
