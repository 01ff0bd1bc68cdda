// `pnpm --filter @xoss/api create-user <email> <username>`: creates a user (sign-up happens
// in the company's app). The password is read from XOSS_PASSWORD or standard input.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { PASSWORD_MIN_LENGTH } from '@xoss/api-contract';
import { hashPassword, normalizePassword, usePasswordHashCost } from '../auth/passwords.ts';
import { serveBackups } from '../platform/backup.ts';
import { configFromEnv } from '../platform/config.ts';
import { openDatabase, type Database } from '../platform/db/db.ts';

/** Creates a user; throws when the e-mail is taken or the password is too short. */
export async function createUser(
  db: Database,
  email: string,
  username: string,
  password: string,
): Promise<number> {
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new Error(`Not an e-mail address: ${email}`);
  // The rule a password change and a reset apply too (the contract's `newPasswordSchema`).
  if (normalizePassword(password).length < PASSWORD_MIN_LENGTH)
    throw new Error(`The password needs at least ${PASSWORD_MIN_LENGTH} characters`);
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO users (uuid, email, username, password_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING RETURNING id`,
    [randomUUID(), email.toLowerCase(), username, await hashPassword(password)],
  );
  if (!row) throw new Error(`A user with the e-mail ${email} exists already`);
  return row.id;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [email, username] = process.argv.slice(2);
  if (!email || !username) {
    console.error('Usage: create-user <email> <username>   (password from XOSS_PASSWORD or stdin)');
    process.exit(2);
  }
  const password = process.env.XOSS_PASSWORD ?? (await text(process.stdin)).replace(/\r?\n$/, '');
  // The server's cost for new hashes (its environment's, as the server reads it).
  usePasswordHashCost(configFromEnv().passwordHashCost);
  const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
  const dataDir = resolve(process.env.DATA_DIR ?? join(repoRoot, 'data'));
  const dbDir = join(dataDir, 'db');
  // A fresh data folder (before the first `pnpm start`) is created, as the server does.
  if (!process.env.DATABASE_URL) await mkdir(dbDir, { recursive: true });
  // The embedded database has one owner: a running server's folder is refused (a second
  // process on it damages it), and a server started meanwhile finds the folder taken.
  const claim = process.env.DATABASE_URL
    ? undefined
    : await serveBackups({
        dataDir,
        dump: () => Promise.reject(new Error('create-user holds the data folder')),
        hold: () => () => Promise.resolve(),
        log: { error: () => undefined, warn: () => undefined },
      }).catch((error: unknown) => {
        console.error(
          `${(error as Error).message}. The embedded database takes one process at a time: stop the server, create the user, start it again (or use DATABASE_URL with PostgreSQL).`,
        );
        process.exit(1);
      });
  const db = await openDatabase(
    process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { dataDir: dbDir },
  ).catch(async (error: unknown) => {
    await claim?.close();
    throw error;
  });
  try {
    const id = await createUser(db, email, username, password);
    console.log(`Created user ${id} <${email}>`);
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  } finally {
    await db.close();
    await claim?.close();
  }
}
