import { expect, it } from 'vitest';
import { bearerRider, jwtKeys, signJwt, verifyJwt } from './jwt.ts';

const keys = jwtKeys('the current secret of these tests', ['a previous secret, still valid']);
const now = 1_800_000_000;

it("names a token's rider only when one of our keys signed it, as verifyJwt decides", async () => {
  const claims = { sub: '42', jti: 'j', exp: now + 600 };
  const current = await signJwt(claims, keys);
  const previous = await signJwt(claims, jwtKeys('a previous secret, still valid'));
  const expired = await signJwt({ ...claims, exp: now - 1 }, keys);
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

  expect(bearerRider(`Bearer ${current}`, keys)).toBe('42');
  expect(bearerRider(`bearer  ${current}`, keys)).toBe('42');
  expect(bearerRider(`Bearer ${previous}`, keys)).toBe('42');
  // Expiry is the route's to refuse; the signature is still ours, so is the rider.
  expect(bearerRider(`Bearer ${expired}`, keys)).toBe('42');
  for (const token of [foreign, `${head}.${otherBody}.${signature}`, none, respelled])
    expect(bearerRider(`Bearer ${token}`, keys)).toBeUndefined();
  for (const header of [undefined, '', current, `Basic ${current}`, `Bearer ${'a'.repeat(5000)}`])
    expect(bearerRider(header, keys)).toBeUndefined();
  // The same decisions as the full check, where the signature decides.
  expect((await verifyJwt(current, keys, now)).ok).toBe(true);
  expect((await verifyJwt(previous, keys, now)).ok).toBe(true);
  for (const token of [foreign, `${head}.${otherBody}.${signature}`, none, respelled])
    expect((await verifyJwt(token, keys, now)).ok).toBe(false);
});
