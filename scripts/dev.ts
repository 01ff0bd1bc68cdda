// `pnpm dev`: builds the packages once (the dev proxy reads the origin table from
// @xoss/api-contract), then runs every watcher: Vite for the apps and node --watch for the
// API. Open the public site's port; it proxies the rest (ports: scripts/devProxy.ts).
import { spawn, spawnSync } from 'node:child_process';
import { devPorts } from './devProxy.ts';

const first = spawnSync('pnpm', ['turbo', 'run', 'build', '--filter=./packages/*'], {
  stdio: 'inherit',
});
if (first.status !== 0) process.exit(first.status ?? 1);

console.log(
  `Dev servers: open http://localhost:${devPorts['public-site']}/ (API on ${devPorts.api}, portal on ${devPorts['athlete-portal']}, proxied).`,
);
const child = spawn('pnpm', ['turbo', 'run', 'dev', '--parallel'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: String(devPorts.api) },
});
// Stopped by a signal (Ctrl-C, or `kill`): turbo stops the dev servers, then we exit.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    child.kill(signal);
  });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
