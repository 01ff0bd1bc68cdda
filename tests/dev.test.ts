import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `pnpm dev` from the README, as a newcomer runs it: the packages build, the API seeds the
// demo data and listens, and the public site's dev server answers for all three parts.
// Ports and the data folder are the test's own, so it never meets another dev run.

const root = fileURLToPath(new URL('..', import.meta.url));
const DEMO = { email: 'demo@xoss.co', password: 'ride-xoss-2026' };

/** A port nobody listens on just now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long the dev servers have to stop on Ctrl-C after the tests before they are killed. */
const GRACE_BEFORE_KILL_MS = 20_000;

describe('pnpm dev', () => {
  let child: ChildProcess;
  let output = '';
  let exited: Promise<void>;
  let dataDir: string;
  const ports = { site: 0, portal: 0, api: 0 };
  let site: string;

  /**
   * Stops the whole process group (pnpm, turbo, Vite, node --watch), then waits for it. The
   * grace before SIGKILL is clean-up's, not a wait a result depends on: what the tests check
   * has been checked by then.
   */
  async function stop() {
    if (child.exitCode !== null || child.signalCode !== null) return;
    process.kill(-child.pid!, 'SIGINT');
    const stopped = await Promise.race([
      exited.then(() => true),
      sleep(GRACE_BEFORE_KILL_MS).then(() => false),
    ]);
    if (!stopped) {
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    }
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'xoss-dev-'));
    ports.site = await freePort();
    ports.portal = await freePort();
    ports.api = await freePort();
    site = `http://localhost:${ports.site}`;
    child = spawn('pnpm', ['run', 'dev'], {
      cwd: root,
      // Its own process group, so stopping it reaches every process it started.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DEV_SITE_PORT: String(ports.site),
        DEV_PORTAL_PORT: String(ports.portal),
        DEV_API_PORT: String(ports.api),
        LOG_LEVEL: 'warn',
        FORCE_COLOR: '0',
      },
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise((resolve) => child.once('exit', () => resolve()));
    // The API listens once the demo data is in; until then the proxy cannot reach it.
    for (;;) {
      if (child.exitCode !== null) throw new Error(`pnpm dev ended early:\n${output}`);
      const health = await fetch(`${site}/api/health`).catch(() => undefined);
      if (health?.ok) break;
      if (/Import worker failed|Demo import \d+ failed/i.test(output))
        throw new Error(`seeding failed:\n${output}`);
      await sleep(500);
    }
  });

  afterAll(async () => {
    if (child) await stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the public site on its port', async () => {
    const reply = await fetch(`${site}/`);
    expect(reply.status).toBe(200);
    expect(await reply.text()).toContain('<title>XOSS — GPS bike computers and sensors</title>');
  });

  it('proxies the portal’s pages to the portal’s dev server', async () => {
    const reply = await fetch(`${site}/dashboard/`);
    expect(reply.status).toBe(200);
    expect(await reply.text()).toContain('<title>XOSS athlete portal</title>');
  });

  it('proxies the API, which holds the seeded demo rider and rides', async () => {
    const login = await fetch(`${site}/api/v1/jwt-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: site },
      body: JSON.stringify(DEMO),
    });
    expect(login.status).toBe(200);
    const { access } = ((await login.json()) as { data: { access: string } }).data;
    const list = await fetch(`${site}/api/v2/workouts/?page_size=100`, {
      headers: { authorization: `Bearer ${access}` },
    });
    expect(list.status).toBe(200);
    const { results } = ((await list.json()) as { data: { results: unknown[] } }).data;
    expect(results).toHaveLength(30);
  });

  it('stops every process it started', async () => {
    await stop();
    for (const port of Object.values(ports)) expect(await listening(port)).toBe(false);
  });
});
