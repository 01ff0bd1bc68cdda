// `pnpm backup DIR` and `pnpm restore DIR` (from the repository root): the embedded database
// and the data folder's files (DATA_DIR, `./data` by default) into a new folder, and back
// into an empty data folder. How and why: src/platform/backup.ts; PostgreSQL and S3: docs/deploy.md.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backup, restore } from '../platform/backup.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
// pnpm runs scripts at the root; a folder is named from where the command was typed.
const here = process.env.INIT_CWD ?? process.cwd();
const [command, folder] = process.argv.slice(2);
// The data folder as `pnpm start` reads it (main.ts).
const dataDir = resolve(process.env.DATA_DIR ?? join(repoRoot, 'data'));

if ((command !== 'backup' && command !== 'restore') || !folder) {
  console.error('usage: pnpm backup DIR | pnpm restore DIR (DATA_DIR names the data folder)');
  process.exit(2);
}
if (process.env.DATABASE_URL) {
  console.error(
    'DATABASE_URL is set: back up PostgreSQL with pg_dump and the bucket with its own tools (docs/deploy.md)',
  );
  process.exit(2);
}
const target = resolve(here, folder);
try {
  if (command === 'backup') {
    const made = await backup(dataDir, target);
    console.log(
      `Backed up ${dataDir} into ${target} (${made.files} files; ${made.online ? 'a snapshot of the running server' : 'no server was running'})`,
    );
  } else {
    const made = await restore(target, dataDir);
    console.log(`Restored the backup of ${made.createdAt} into ${dataDir}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
