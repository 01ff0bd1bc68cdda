import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { createUser } from '../src/commands/createUser.ts';

const dirs: string[] = [];
const saved = process.env.JWT_SECRET;
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  if (saved === undefined) delete process.env.JWT_SECRET;
  else process.env.JWT_SECRET = saved;
});

it('keeps tokens valid across a restart on the same data folder without JWT_SECRET', async () => {
  delete process.env.JWT_SECRET;
  const dataDir = mkdtempSync(join(tmpdir(), 'xoss-jwt-keys-'));
  dirs.push(dataDir);
  const first = await createApp({ dataDir, demo: false, logger: false });
  const id = await createUser(first.db, 'restart@example.com', 'restart', 'restart password');
  const login = await first.server.inject({
    method: 'POST',
    url: '/api/v1/jwt-token/',
    payload: { email: 'restart@example.com', password: 'restart password' },
  });
  const { access } = login.json<{ data: { access: string } }>().data;
  await first.server.close();
  // The generated key is the owner's alone.
  expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);

  const second = await createApp({ dataDir, demo: false, logger: false });
  try {
    const me = await second.server.inject({
      method: 'GET',
      url: `/api/v2/athlete/${id}/`,
      headers: { authorization: `Bearer ${access}` },
    });
    expect(me.statusCode).toBe(200);
  } finally {
    await second.server.close();
  }
});
