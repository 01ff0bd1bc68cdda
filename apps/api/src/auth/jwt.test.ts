import { expect, it } from 'vitest';
import { bearerRider, jwtKeys, signJwt, verifyJwt } from './jwt.ts';

const keys = jwtKeys('the current secret of these tests', ['a previous secret, still valid']);
const now = 1_800_000_000;

it("names a token's rider only when one of our keys signed an access token not yet expired", async () => {
  const claims = { sub: '42', jti: 'j', exp: now + 600, token_type: 'access' };
  const current = await signJwt(claims, keys);
  const previous = await signJwt(claims, jwtKeys('a previous secret, still valid'));
  const expired = await signJwt({ ...claims, exp: now - 1 }, keys);
  const refresh = await signJwt({ ...claims, token_type: 'refresh' }, keys);
  const foreign = await signJwt(claims, jwtKeys('someone else'));
  const [head, body, signature] = current.split('.') as [string, string, string];
  const otherBody = Buffer.from(JSON.stringify({ ...claims, sub: '7' })).toString('base64url');
  const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`;
  // The last character's lowest bit is unused (256 bits in 43 characters): another spelling
  // of the same bytes, not the signature as made.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const respelledLast = alphabet[alphabet.indexOf(signature.at(-1)!) ^ 1]!;
  const respelled = `${head}.${body}.${signature.slice(0, -1)}${respelledLast}`;
  expect(Buffer.from(respelled.split('.')[2]!, 'base64url')).toEqual(
    Buffer.from(signature, 'base64url'),
  );

  expect(bearerRider(`Bearer ${current}`, keys, now)).toBe('42');
  expect(bearerRider(`bearer  ${current}`, keys, now)).toBe('42');
  expect(bearerRider(`Bearer ${previous}`, keys, now)).toBe('42');
  // An old token (from a log, a sold phone) or a refresh token holds no rider's places.
  for (const token of [
    expired,
    refresh,
    foreign,
    `${head}.${otherBody}.${signature}`,
    none,
    respelled,
  ])
    expect(bearerRider(`Bearer ${token}`, keys, now)).toBeUndefined();
  for (const header of [undefined, '', current, `Basic ${current}`, `Bearer ${'a'.repeat(5000)}`])
    expect(bearerRider(header, keys, now)).toBeUndefined();
  // The same decisions as the full check, where the signature decides.
  expect((await verifyJwt(current, keys, now)).ok).toBe(true);
  expect((await verifyJwt(previous, keys, now)).ok).toBe(true);
  for (const token of [foreign, `${head}.${otherBody}.${signature}`, none, respelled])
    expect((await verifyJwt(token, keys, now)).ok).toBe(false);
});
