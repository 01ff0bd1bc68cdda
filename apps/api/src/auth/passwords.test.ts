import { afterEach, describe, expect, it } from 'vitest';
import {
  PASSWORD_HASH_COST,
  PASSWORD_HASH_FLOOR,
  hashPassword,
  usePasswordHashCost,
  verifyPassword,
} from './passwords.ts';

describe('the password hash cost', () => {
  afterEach(() => usePasswordHashCost(PASSWORD_HASH_COST));

  it('hashes at the configured cost, never below OWASP’s argon2id floor', async () => {
    usePasswordHashCost(PASSWORD_HASH_COST);
    expect(await hashPassword('a long password')).toMatch(/^\$argon2id\$v=19\$m=65536,p=1,t=3\$/);
    usePasswordHashCost(PASSWORD_HASH_FLOOR);
    expect(await hashPassword('a long password')).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    for (const cost of [
      { memoryKiB: 19_455, iterations: 2 },
      { memoryKiB: 65_536, iterations: 1 },
      { memoryKiB: 65_536.5, iterations: 3 },
      { memoryKiB: Number.NaN, iterations: 3 },
    ])
      expect(() => usePasswordHashCost(cost)).toThrow(/OWASP's argon2id floor/);
  });

  it('verifies a hash of another cost and rehashes it at the current one', async () => {
    usePasswordHashCost(PASSWORD_HASH_FLOOR);
    const cheap = await hashPassword('a long password');
    usePasswordHashCost(PASSWORD_HASH_COST);
    const check = await verifyPassword(cheap, 'a long password');
    expect(check.matches).toBe(true);
    expect(check.upgrade).toMatch(/^\$argon2id\$v=19\$m=65536,p=1,t=3\$/);
    expect((await verifyPassword(check.upgrade!, 'a long password')).upgrade).toBeUndefined();
    expect((await verifyPassword(cheap, 'another password')).matches).toBe(false);
  });
});
