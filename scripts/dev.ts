// `pnpm dev`: builds the packages once (the dev proxy reads the origin table from
// @xoss/api-contract), then runs every watcher: tsup for packages, Vite for the apps and
// node --watch for the API. Open the public site's port; it proxies the rest.
import { spawn, spawnSync } from 'node:child_process';

const first = spawnSync('pnpm', ['turbo', 'run', 'build', '--filter=./packages/*'], {
  stdio: 'inherit',
});
if (first.status !== 0) process.exit(first.status ?? 1);

console.log('Dev servers: open http://localhost:5173/ (API on 8787, portal on 5174, proxied).');
const child = spawn('pnpm', ['turbo', 'run', 'dev', '--parallel'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: process.env.PORT ?? '8787' },
});
child.on('exit', (code) => process.exit(code ?? 0));
