import { describe, expect, it } from 'vitest';
import { configFromEnv, trustProxySetting } from './config.ts';

describe('TRUST_PROXY', () => {
  it('is off unless set, a number of proxies, or a list of their addresses', () => {
    expect(configFromEnv({}).trustProxy).toBe(false);
    for (const off of ['', '0', 'false']) expect(trustProxySetting(off)).toBe(false);
    expect(trustProxySetting('1')).toBe(1);
    expect(trustProxySetting('2')).toBe(2);
    expect(trustProxySetting(' 10.0.0.0/8, loopback ,::1 ')).toBe('10.0.0.0/8,loopback,::1');
    expect(trustProxySetting('192.0.2.10,2001:db8::/32')).toBe('192.0.2.10,2001:db8::/32');
  });

  it('refuses "true" (the left-most X-Forwarded-For is whatever a client wrote) and anything else', () => {
    for (const bad of ['true', 'yes', '10.0.0.300', 'example.com', '1,x', '-1'])
      expect(() => trustProxySetting(bad), bad).toThrow(
        /TRUST_PROXY must be the number of proxies/,
      );
  });
});
