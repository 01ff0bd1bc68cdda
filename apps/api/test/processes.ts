import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Queryable } from '../src/platform/db/db.ts';

// Helpers of the tests that run the API as processes (backups, rolling restarts).

const apiDir = join(dirname(fileURLToPath(import.meta.url)), '..');

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

export interface ApiProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Runs `src/<script>` with `env` added; output is kept for failure messages. */
export function runScript(
  script: string,
  env: Record<string, string | undefined>,
  args: string[] = [],
): ApiProcess {
  const child = spawn(
    process.execPath,
    ['--conditions=@xoss/source', join(apiDir, 'src', script), ...args],
    { cwd: apiDir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * Waits until `child` prints `line` (in `output()`, what it printed so far), or fails when it
 * ends first. No wall-clock budget: a loaded machine may take minutes to start a process; one
 * that never prints is stuck, and the test's hang guard (vitest.shared.ts) says so.
 */
export async function lineFrom(
  child: ChildProcess,
  output: () => string,
  line: string,
  every = 50,
): Promise<void> {
  while (!output().includes(line)) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`no "${line}" from the process before it ended:\n${output()}`);
    await sleep(every);
  }
}

/** `lineFrom` for a process of `runScript`. */
export const printed = (proc: ApiProcess, line: string): Promise<void> =>
  lineFrom(proc.child, () => proc.output(), line);

/**
 * Every row of every table of a schema, in a stable order (each table ordered by all its
 * columns), as JSON text per table: two databases with the same rows give equal maps.
 */
export async function tableRows(db: Queryable, schema = 'public'): Promise<Map<string, string[]>> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`,
    [schema],
  );
  const out = new Map<string, string[]>();
  for (const { table_name: table } of tables) {
    const columns = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.columns
        WHERE table_schema = $1 AND table_name = $2`,
      [schema, table],
    );
    const order = Array.from({ length: columns[0]!.n }, (_, i) => i + 1).join(', ');
    const rows = await db.query(`SELECT * FROM "${schema}"."${table}" ORDER BY ${order}`);
    out.set(
      table,
      rows.map((row) =>
        JSON.stringify(row, (_key, value: unknown) =>
          value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value,
        ),
      ),
    );
  }
  return out;
}

/** Every file under a folder (temporary uploads left out): relative path to bytes (hex digest). */
export async function folderFiles(root: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const name = relative(root, path);
    if (name.split(/[\\/]/).includes('.tmp')) continue;
    out.set(name, await readFile(path));
  }
  return out;
}
