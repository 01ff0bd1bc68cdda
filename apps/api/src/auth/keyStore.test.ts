import { expect, it } from 'vitest';
import { openDatabase } from '../platform/db/db.ts';
import { jwtKeys, keyId, signJwt, verifyJwt } from './jwt.ts';
import { rotateSharedKey, sharedSecrets } from './keyStore.ts';

it('shares one signing key between processes, and rotates it without refusing a token', async () => {
  const db = await openDatabase();
  try {
    // Two processes starting together make one key between them.
    const [one, two] = await Promise.all([sharedSecrets(db), sharedSecrets(db)]);
    expect(two.secret).toBe(one.secret);
    expect(await db.query('SELECT kid FROM signing_keys')).toHaveLength(1);
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: '1', jti: 'a', exp: now + 600 };
    const before = await signJwt(claims, jwtKeys(one.secret, one.previous));

    const kid = await rotateSharedKey(db, 3600);
    const after = await sharedSecrets(db);
    // The new key does not sign yet (not every process has read it), but verifies already.
    expect(after.secret).toBe(one.secret);
    expect(after.previous.map(keyId)).toEqual([kid]);
    const rotated = (
      await db.query<{ secret: string }>('SELECT secret FROM signing_keys WHERE kid = $1', [kid])
    )[0]!;
    const signedByNew = await signJwt(claims, jwtKeys(rotated.secret));
    expect((await verifyJwt(signedByNew, jwtKeys(after.secret, after.previous), now)).ok).toBe(
      true,
    );
    expect((await verifyJwt(before, jwtKeys(after.secret, after.previous), now)).ok).toBe(true);

    // Once its time has come it signs, and the old key still verifies until it is retired.
    await db.query(
      "UPDATE signing_keys SET created_at = now() - interval '1 second' WHERE kid = $1",
      [kid],
    );
    const later = await sharedSecrets(db);
    expect(keyId(later.secret)).toBe(kid);
    expect((await verifyJwt(before, jwtKeys(later.secret, later.previous), now)).ok).toBe(true);
    await db.query(
      "UPDATE signing_keys SET retired_at = now() - interval '1 second' WHERE kid <> $1",
      [kid],
    );
    const retired = await sharedSecrets(db);
    expect((await verifyJwt(before, jwtKeys(retired.secret, retired.previous), now)).ok).toBe(
      false,
    );
  } finally {
    await db.close();
  }
});
