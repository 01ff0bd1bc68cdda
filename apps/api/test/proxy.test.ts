// The limits as deployed (docs/deploy.md): the API behind the nginx block `proxyConfig.ts`
// writes (`X-Forwarded-For $proxy_add_x_forwarded_for`), with `TRUST_PROXY=1`. A client
// writes whatever X-Forwarded-For it likes; nginx appends the address it saw. Debian's nginx
// (`.ci/run` installs nginx-light) runs on a loopback port in front of a real listening API.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { trustProxySetting } from '../src/platform/config.ts';
import { nginxConfig } from '../src/http/proxyConfig.ts';
import { closePool, harness, pgliteFactory, type Harness } from './harness.ts';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** nginx with the documented server block, listening on `port` in plain HTTP. */
async function startNginx(apiPort: number): Promise<{ base: string; stop: () => Promise<void> }> {
  if (!existsSync(NGINX))
    throw new Error(`${NGINX} is missing: apt-get install nginx-light (.ci/run installs it)`);
  const dir = mkdtempSync(join(tmpdir(), 'xoss-nginx-'));
  mkdirSync(join(dir, 'static'));
  const port = await freePort();
  const server = nginxConfig({ api: [`127.0.0.1:${apiPort}`], staticRoot: join(dir, 'static') })
    // TLS is the load balancer's business here: the same block on a plain loopback port.
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${port};`);
  expect(server).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      `  client_body_temp_path ${dir}/body;`,
      `  proxy_temp_path ${dir}/proxy;`,
      server,
      '}',
    ].join('\n'),
  );
  const nginx: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  nginx.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  // Up when it answers (the API's health through it).
  for (;;) {
    if (nginx.exitCode !== null) throw new Error(`nginx did not start: ${stderr}`);
    const up = await fetch(`${base}/api/health`).then(
      (reply) => reply.ok,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    base,
    stop: async () => {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

let spoofs = 0;
/** A different made-up X-Forwarded-For each time, as an attacker sends it. */
const spoofed = () => ({ 'x-forwarded-for': `198.51.100.${++spoofs % 250}` });

describe('the limits behind the documented nginx (TRUST_PROXY=1)', () => {
  let factory: Awaited<ReturnType<typeof pgliteFactory>>;
  const running: { h: Harness; proxy: Awaited<ReturnType<typeof startNginx>> }[] = [];
  beforeAll(async () => {
    factory = await pgliteFactory();
  });
  afterEach(async () => {
    for (const { h, proxy } of running.splice(0)) {
      await proxy.stop();
      await h.close();
    }
  });
  afterAll(() => closePool());

  /** The API, listening, with `TRUST_PROXY=1` and `overrides`, and nginx in front of it. */
  async function behindNginx(overrides: Parameters<typeof harness>[1]) {
    const h = await harness(factory, { trustProxy: trustProxySetting('1'), ...overrides });
    await h.server.listen({ port: 0, host: '127.0.0.1' });
    const proxy = await startNginx((h.server.server.address() as { port: number }).port);
    running.push({ h, proxy });
    return { h, base: proxy.base };
  }

  it('counts password resets with spoofed X-Forwarded-For against the address nginx saw', async () => {
    const { base } = await behindNginx({ passwordResetsPerIp: 10, passwordResetsPerEmail: 100 });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push(
        (await post(base, '/api/v1/password-reset/', { email: `r${i}@example.com` }, spoofed()))
          .status,
      );
    expect(statuses.filter((status) => status === 202)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it('counts login guesses with spoofed X-Forwarded-For against the address nginx saw', async () => {
    const { base } = await behindNginx({ loginAttemptsPerIp: 20, loginFailuresPerAccount: 1000 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const guess = { email: `guess${i}@example.com`, password: 'wrong password' };
      statuses.push((await post(base, '/api/v1/jwt-token/', guess, spoofed())).status);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it("keeps a signed-in rider's refreshes going while strangers on the rider's address are refused", async () => {
    const { h, base } = await behindNginx({ requestsPerAddress: 1, requestLimitWindowS: 10 });
    let { refresh } = await h.user('behind-nat@example.com');
    // Strangers flood public pages from the rider's address (nginx's, here), each request
    // with an X-Forwarded-For of its own: the address's 10 a window are soon spent.
    const flood = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${base}/api/v2/posts/`, { headers: spoofed() })),
    );
    expect(flood.filter((reply) => reply.status === 429).length).toBeGreaterThanOrEqual(10);
    const refreshes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const reply = await post(base, '/api/v1/jwt-token/refresh/', { refresh });
      refreshes.push(reply.status);
      if (reply.ok) ({ refresh } = ((await reply.json()) as { data: { refresh: string } }).data);
    }
    expect(refreshes).toEqual(Array.from({ length: 20 }, () => 200));
    // A made-up refresh token counts against the address: refused with the strangers.
    expect((await post(base, '/api/v1/jwt-token/refresh/', { refresh: 'a.b.c' })).status).toBe(429);
  });
});
