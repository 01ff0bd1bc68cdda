import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import argon2 from 'argon2';

const pbkdf2Async = promisify(pbkdf2);

// m = 64 MiB, t = 3 (argon2's defaults) exceed ASVS Appendix C's and OWASP's argon2id floor
// (19 MiB, t = 2, p = 1). One lane, not the library's default four: with four, every hash
// starts threads of its own and takes 1.5 cores for 116 ms, so the hashing gate's "one at a
// time" left no core to the other riders during a burst of logins (bench: their p99 6-7x).
// One lane takes one core for 156 ms. Hashes made with four lanes still verify (the
// parameters are in the hash) and are rehashed with one at their next login.
/** argon2id's cost: memory in KiB and passes over it (one lane, always). */
export interface PasswordHashCost {
  readonly memoryKiB: number;
  readonly iterations: number;
}

/** The cost a server uses unless configured (`PASSWORD_HASH_MEMORY_KIB`, `PASSWORD_HASH_ITERATIONS`). */
export const PASSWORD_HASH_COST: PasswordHashCost = { memoryKiB: 65_536, iterations: 3 };

/**
 * OWASP's argon2id floor (19 MiB, t = 2, p = 1): no setting may go below it. The test suites
 * hash at this cost (a fifth of the default's CPU; half the API suites' CPU was argon2).
 */
export const PASSWORD_HASH_FLOOR: PasswordHashCost = { memoryKiB: 19_456, iterations: 2 };

const optionsOf = (cost: PasswordHashCost) =>
  ({
    type: argon2.argon2id,
    memoryCost: cost.memoryKiB,
    timeCost: cost.iterations,
    parallelism: 1,
  }) as const;

let OPTIONS = optionsOf(PASSWORD_HASH_COST);

/**
 * Sets the cost of new hashes for this process (the server does from its config at start).
 * Hashes of another cost still verify, and are rehashed at this one at their next login.
 * Throws on a cost below the floor, so a server never starts with one.
 */
export function usePasswordHashCost(cost: PasswordHashCost): void {
  const whole = Number.isInteger(cost.memoryKiB) && Number.isInteger(cost.iterations);
  if (
    !whole ||
    cost.memoryKiB < PASSWORD_HASH_FLOOR.memoryKiB ||
    cost.iterations < PASSWORD_HASH_FLOOR.iterations ||
    cost.memoryKiB > 4 * 1024 * 1024 ||
    cost.iterations > 100
  )
    throw new Error(
      `The password hash cost (PASSWORD_HASH_MEMORY_KIB ${cost.memoryKiB}, PASSWORD_HASH_ITERATIONS ${cost.iterations}) must be whole numbers of at least ${PASSWORD_HASH_FLOOR.memoryKiB} KiB and ${PASSWORD_HASH_FLOOR.iterations} passes (OWASP's argon2id floor), at most 4 GiB and 100 passes`,
    );
  const next = optionsOf(cost);
  if (next.memoryCost === OPTIONS.memoryCost && next.timeCost === OPTIONS.timeCost) return;
  OPTIONS = next;
  dummy = undefined;
}

/**
 * The password as it is hashed and checked: without the white space around it (spec 5; the
 * site trims before sending). The one rule for create-user, sign-up and login alike; any
 * characters inside are kept as typed.
 */
export function normalizePassword(typed: string): string {
  return typed.trim();
}

/** An argon2id hash of a password (normalized: see `normalizePassword`). */
export function hashPassword(typed: string): Promise<string> {
  return argon2.hash(normalizePassword(typed), OPTIONS);
}

// Compared against when the e-mail is unknown, so both failures take the same time.
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not a real password: timing equaliser');
  return dummy;
}

/** A password check: whether it matches (a yes or no, not a result with an error). */
export interface Verification {
  readonly matches: boolean;
  /** A new hash to store when the old one is a legacy or weaker format. */
  readonly upgrade?: string;
}

/**
 * Checks a password against a stored hash: argon2id, or a legacy Django
 * `pbkdf2_sha256$iterations$salt$base64` hash (then upgraded to argon2id).
 */
export async function verifyPassword(stored: string, typed: string): Promise<Verification> {
  const password = normalizePassword(typed);
  const check = await verifyExactly(stored, password);
  if (check.matches || password === typed) return check;
  // Hashes stored before passwords were trimmed (create-user, legacy imports) may hold the
  // spaces: accept the password as typed once, and store the trimmed one from then on.
  const asTyped = await verifyExactly(stored, typed);
  return asTyped.matches ? { matches: true, upgrade: await hashPassword(password) } : asTyped;
}

async function verifyExactly(stored: string, password: string): Promise<Verification> {
  if (stored.startsWith('$argon2')) {
    const matches = await argon2.verify(stored, password).catch(() => false);
    return matches && argon2.needsRehash(stored, OPTIONS)
      ? { matches, upgrade: await hashPassword(password) }
      : { matches };
  }
  const legacy = /^pbkdf2_sha256\$(\d{1,7})\$([^$]{1,128})\$([A-Za-z0-9+/=]{40,64})$/.exec(stored);
  if (legacy) {
    const [, iterations, salt, expected] = legacy as unknown as [string, string, string, string];
    const want = Buffer.from(expected, 'base64');
    const got = await pbkdf2Async(password, salt, Number(iterations), want.length, 'sha256');
    const matches = got.length === want.length && timingSafeEqual(got, want);
    return matches ? { matches, upgrade: await hashPassword(password) } : { matches };
  }
  return { matches: false };
}
