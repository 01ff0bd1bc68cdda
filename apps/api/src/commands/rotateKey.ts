// Rotates the token signing key kept in the database (several API processes on one
// PostgreSQL without JWT_SECRET): `DATABASE_URL=... node apps/api/src/commands/rotateKey.ts`.
import { rotateSharedKey, KEY_ACTIVATION_S } from '../auth/keyStore.ts';
import { configFromEnv } from '../platform/config.ts';
import { openDatabase } from '../platform/db/db.ts';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error(
    'DATABASE_URL is not set: the embedded server keeps its key in DATA_DIR/jwt-secret',
  );
  process.exit(2);
}
const db = await openDatabase({ databaseUrl });
try {
  const kid = await rotateSharedKey(db, configFromEnv().refreshTtlS);
  console.log(
    `New signing key ${kid}: every process verifies it within 30 s and signs with it in ${KEY_ACTIVATION_S} s; the old keys verify until their refresh tokens have expired`,
  );
} finally {
  await db.close();
}
