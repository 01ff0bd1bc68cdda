import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { serveBackups } from '../platform/backup.ts';

const run = promisify(execFile);
const script = fileURLToPath(new URL('./createUser.ts', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('creates a user in a fresh data folder (no ENOENT), and refuses the same e-mail twice', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'xoss-create-user-')), 'data');
  dirs.push(dir);
  const { DATABASE_URL: _embedded, ...rest } = process.env;
  const env = { ...rest, DATA_DIR: dir, XOSS_PASSWORD: 'long enough secret' };
  const created = await run(process.execPath, [script, 'new@example.com', 'New Rider'], { env });
  expect(created.stdout).toMatch(/^Created user \d+ <new@example\.com>/);
  await expect(
    run(process.execPath, [script, 'new@example.com', 'New Rider'], { env }),
  ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('exists already') as string });
});

it('refuses a data folder a running server holds, with what to do instead', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'xoss-create-user-')), 'data');
  dirs.push(dir);
  mkdirSync(dir, { recursive: true });
  // What a running embedded server listens on in its data folder.
  const running = await serveBackups({
    dataDir: dir,
    dump: () => Promise.reject(new Error('not here')),
    hold: () => () => Promise.resolve(),
    log: { error: () => undefined, warn: () => undefined },
  });
  const { DATABASE_URL: _embedded, ...rest } = process.env;
  const env = { ...rest, DATA_DIR: dir, XOSS_PASSWORD: 'long enough secret' };
  try {
    await expect(
      run(process.execPath, [script, 'live@example.com', 'Live Rider'], { env }),
    ).rejects.toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('Another server runs on') as string,
    });
  } finally {
    await running.close();
  }
  const created = await run(process.execPath, [script, 'live@example.com', 'Live Rider'], { env });
  expect(created.stdout).toMatch(/^Created user \d+ <live@example\.com>/);
});

it("runs as this package's README says, on the workspace's sources (nothing built first)", async () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const line = /`XOSS_PASSWORD=\.\.\. (pnpm create-user) rider@example\.com "Rider Name"`/.exec(
    readme,
  );
  expect(line, 'the README shows the command').not.toBeNull();
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  const scripts = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  // The sources, never a package's `dist` (a fresh clone has none).
  expect(scripts['create-user']).toBe(
    'node --conditions=@xoss/source apps/api/src/commands/createUser.ts',
  );
  const dir = join(mkdtempSync(join(tmpdir(), 'xoss-create-user-')), 'data');
  dirs.push(dir);
  const { DATABASE_URL: _embedded, ...rest } = process.env;
  const [command, ...args] = scripts['create-user']!.split(' ');
  const created = await run(
    command === 'node' ? process.execPath : command!,
    [...args, 'readme@example.com', 'Rider Name'],
    { cwd: root, env: { ...rest, DATA_DIR: dir, XOSS_PASSWORD: 'long enough secret' } },
  );
  expect(created.stdout).toMatch(/^Created user \d+ <readme@example\.com>/);
});
